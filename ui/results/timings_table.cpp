#include "ui/results/timings_table.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace clscope::ui {

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

double eventsPerSecond(const RunTimings& timings) {
    if (timings.entries == 0 || timings.wallMs <= 0) return 0;
    return static_cast<double>(timings.entries) / (timings.wallMs * 1e-3);
}

int TimingsTable::add(const RunTimings& timings) {
    ++runs_;
    const double rate = eventsPerSecond(timings);
    for (const TimingRecord& r : timings.records)
        rows_.push_back({runs_, timings.algorithm, timings.variant, timings.device, r.label,
                         r.count, r.minMs, r.medianMs, r.maxMs, r.totalMs, r.kernel, r.hostPhase,
                         rate});
    return runs_;
}

std::vector<TimingRow> TimingsTable::groupedRows() const {
    std::vector<TimingRow> out = rows_;
    std::stable_sort(out.begin(), out.end(), [](const TimingRow& a, const TimingRow& b) {
        return std::tie(a.algorithm, a.variant, a.device, a.run) <
               std::tie(b.algorithm, b.variant, b.device, b.run);
    });
    return out;
}

std::string TimingsTable::csv() const {
    std::ostringstream out;
    out.precision(9);
    out << "run,algorithm,variant,device,label,count,min_ms,median_ms,max_ms,events_per_s\n";
    for (const TimingRow& r : groupedRows()) {
        out << r.run << ',' << csvField(r.algorithm) << ',' << csvField(r.variant) << ','
            << csvField(r.device) << ',' << csvField(r.label) << ',' << r.count << ',' << r.minMs
            << ',' << r.medianMs << ',' << r.maxMs << ',';
        if (r.eventsPerSecond > 0) out << r.eventsPerSecond;
        out << '\n';
    }
    return out.str();
}

} // namespace clscope::ui
