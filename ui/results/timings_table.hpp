// Every run's labelled kernel and transfer timings, grouped by algorithm, variant and device
// (Qt-free model of the Timings panel; exports CSV).
#pragma once
#include "ui/jobs/job.hpp"

#include <string>
#include <vector>

namespace clscope::ui {

struct TimingRow {
    int run = 0;
    std::string algorithm, variant, device, label;
    std::size_t count = 0;
    double minMs = 0, medianMs = 0, maxMs = 0, totalMs = 0;
    bool kernel = false, hostPhase = false; // TimingRecord's kinds
    double eventsPerSecond = 0;             // the run's entries / wall; 0: it read dense frames
    // "algorithm variant @ device": the group a row belongs to.
    std::string group() const { return algorithm + " " + variant + " @ " + device; }
};

class TimingsTable {
  public:
    // Add one run's records; returns its run number (1, 2, ...).
    int add(const RunTimings& timings);
    void clear() { rows_.clear(), runs_ = 0; }
    const std::vector<TimingRow>& rows() const { return rows_; }
    // Rows ordered by group, then run, then label's first appearance.
    std::vector<TimingRow> groupedRows() const;
    // Header plus one line per row (events_per_s empty for a run of dense frames):
    // run,algorithm,variant,device,label,count,min_ms,median_ms,max_ms,events_per_s
    std::string csv() const;

  private:
    std::vector<TimingRow> rows_;
    int runs_ = 0;
};

// A run's entries (events) a second of its wall; 0 where it read no entries or has no wall.
double eventsPerSecond(const RunTimings& timings);

// A CSV field, quoted when it holds a comma, quote or newline.
std::string csvField(const std::string& text);

} // namespace clscope::ui
