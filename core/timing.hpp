// Labelled timing records: count, min, median, max per label (in milliseconds).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace clscope {

struct TimingRecord {
    std::string label; // e.g. "copy H->D frames", "xpcs gemm"
    std::size_t count = 0;
    double minMs = 0, medianMs = 0, maxMs = 0, totalMs = 0;
    bool kernel = false; // device kernel time (else a transfer, fill or host step)
    // A phase of a run's host wall (addHostPhase): phases are disjoint, and the other records
    // of the run lie within them (bench stream: run() outside its phases).
    bool hostPhase = false;
};

// Collects samples per label, in first-seen order.
class TimingStats {
  public:
    void add(const std::string& label, double ms, bool kernel = false);
    void addHostPhase(const std::string& label, double ms);
    void merge(const TimingStats& other);
    void clear() { samples_.clear(), order_.clear(), kinds_.clear(); }
    bool empty() const { return order_.empty(); }
    std::vector<TimingRecord> records() const;
    // Sum over every label, or over the kernel labels only.
    double totalMs() const;
    double kernelMs() const;
    std::string table() const;

  private:
    std::map<std::string, std::vector<double>> samples_;
    std::vector<std::string> order_;
    struct Kind {
        bool kernel = false, hostPhase = false;
    };
    std::map<std::string, Kind> kinds_;
};

// Sum of the kernel records' totals.
double kernelTotalMs(const std::vector<TimingRecord>& records);

double median(std::vector<double> values);

} // namespace clscope
