#include "core/timing.hpp"

#include <algorithm>
#include <cstdio>

namespace clscope {

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

void TimingStats::add(const std::string& label, double ms, bool kernel) {
    auto [it, inserted] = samples_.try_emplace(label);
    if (inserted) order_.push_back(label), kinds_[label].kernel = kernel;
    it->second.push_back(ms);
}

void TimingStats::addHostPhase(const std::string& label, double ms) {
    add(label, ms);
    kinds_[label].hostPhase = true;
}

void TimingStats::merge(const TimingStats& other) {
    for (const std::string& label : other.order_) {
        for (double ms : other.samples_.at(label))
            add(label, ms, other.kinds_.at(label).kernel);
        if (other.kinds_.at(label).hostPhase) kinds_[label].hostPhase = true;
    }
}

std::vector<TimingRecord> TimingStats::records() const {
    std::vector<TimingRecord> out;
    for (const std::string& label : order_) {
        const std::vector<double>& s = samples_.at(label);
        TimingRecord r{label,
                       s.size(),
                       *std::min_element(s.begin(), s.end()),
                       median(s),
                       *std::max_element(s.begin(), s.end()),
                       0.0,
                       kinds_.at(label).kernel,
                       kinds_.at(label).hostPhase};
        for (double v : s)
            r.totalMs += v;
        out.push_back(r);
    }
    return out;
}

double TimingStats::totalMs() const {
    double total = 0;
    for (const auto& [label, s] : samples_)
        for (double v : s)
            total += v;
    return total;
}

double TimingStats::kernelMs() const {
    return kernelTotalMs(records());
}

double kernelTotalMs(const std::vector<TimingRecord>& records) {
    double total = 0;
    for (const TimingRecord& r : records)
        if (r.kernel) total += r.totalMs;
    return total;
}

std::string TimingStats::table() const {
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%-32s %6s %10s %10s %10s\n", "label", "count", "min ms",
                  "median ms", "max ms");
    out += line;
    for (const TimingRecord& r : records()) {
        std::snprintf(line, sizeof line, "%-32s %6zu %10.4f %10.4f %10.4f\n", r.label.c_str(),
                      r.count, r.minMs, r.medianMs, r.maxMs);
        out += line;
    }
    return out;
}

} // namespace clscope
