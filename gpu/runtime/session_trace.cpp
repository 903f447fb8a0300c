#include "gpu/runtime/session_trace.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>

namespace clscope {

std::unique_ptr<SessionTrace> SessionTrace::fromEnvironment(cl::CommandQueue& queue,
                                                            const std::string& device) {
    const char* path = std::getenv("CLSCOPE_TRACE");
    if (!path || !*path) return nullptr;
    // The device clock against the host's: a marker's end, which lies between the host times
    // before it was queued and after the wait for it (taken as their midpoint).
    const auto before = std::chrono::steady_clock::now();
    cl::Event marker;
    queue.enqueueMarkerWithWaitList(nullptr, &marker);
    marker.wait();
    const auto after = std::chrono::steady_clock::now();
    const std::uint64_t end = marker.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    return std::unique_ptr<SessionTrace>(
        new SessionTrace(path, device, before + (after - before) / 2, end));
}

SessionTrace::SessionTrace(std::string path, std::string device,
                           std::chrono::steady_clock::time_point origin, std::uint64_t deviceNs)
    : path_(std::move(path)), device_(std::move(device)), origin_(origin),
      deviceOriginNs_(deviceNs) {}

double SessionTrace::hostMs(std::chrono::steady_clock::time_point t) const {
    return std::chrono::duration<double, std::milli>(t - origin_).count();
}

void SessionTrace::command(const std::string& label, std::uint64_t startNs, std::uint64_t endNs,
                           bool kernel) {
    auto ms = [&](std::uint64_t ns) { return (double(ns) - double(deviceOriginNs_)) * 1e-6; };
    entries_.push_back({label, ms(startNs), ms(endNs), kernel ? 0 : 1});
}

void SessionTrace::mark(const std::string& label) {
    const double now = hostMs(std::chrono::steady_clock::now());
    entries_.push_back({label, now, now, 2});
}

// Busy time and idle gaps of one kind of command over its span.
static std::string busy(std::vector<std::pair<double, double>> spans, const std::string& what) {
    if (spans.empty()) return "";
    std::sort(spans.begin(), spans.end());
    double busyMs = 0, reach = spans.front().first;
    for (const auto& [s, e] : spans) {
        busyMs += std::max(0.0, e - std::max(s, reach));
        reach = std::max(reach, e);
    }
    char line[200];
    std::snprintf(line, sizeof line, "%s: %.3f .. %.3f ms, busy %.3f, idle %.3f\n", what.c_str(),
                  spans.front().first, reach, busyMs, reach - spans.front().first - busyMs);
    return line;
}

std::string SessionTrace::text() const {
    std::vector<Entry> sorted = entries_;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Entry& a, const Entry& b) { return a.startMs < b.startMs; });
    std::ostringstream out;
    out << "trace of a session on " << device_ << " (ms from its start; k kernel, c copy, "
        << "h host mark)\n";
    std::vector<std::pair<double, double>> all, kernels, copies;
    for (const Entry& e : sorted) {
        char line[300];
        std::snprintf(line, sizeof line, "%10.3f %9.3f %c %s\n", e.startMs, e.endMs - e.startMs,
                      "kch"[e.kind], e.label.c_str());
        out << line;
        if (e.kind == 2) continue;
        all.emplace_back(e.startMs, e.endMs);
        (e.kind == 0 ? kernels : copies).emplace_back(e.startMs, e.endMs);
    }
    out << busy(all, "device") << busy(kernels, "kernels") << busy(copies, "copies");
    out << "session ended at " << hostMs(std::chrono::steady_clock::now()) << " ms\n";
    return out.str();
}

SessionTrace::~SessionTrace() {
    static std::mutex writing;
    const std::string t = text();
    std::lock_guard lock(writing);
    if (path_ == "-") {
        std::cerr << t;
        return;
    }
    std::ofstream(path_, std::ios::app) << t;
}

} // namespace clscope
