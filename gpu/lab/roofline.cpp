#include "gpu/lab/roofline.hpp"

namespace clscope {

namespace {

double ratio(double a, double b) {
    return a > 0 && b > 0 ? a / b : 0;
}

} // namespace

Roofline rooflineOf(const RunWork& work, double medianMs, const DevicePeaks& peaks) {
    Roofline r;
    r.work = work, r.peaks = peaks;
    const double seconds = medianMs * 1e-3;
    r.bytesPerSecond = ratio(work.bytes, seconds);
    r.operationsPerSecond = ratio(work.operations, seconds);
    r.bandwidthFraction = ratio(r.bytesPerSecond, peaks.bytesPerSecond);
    r.computeFraction = ratio(r.operationsPerSecond, peaks.operationsPerSecond);
    r.operationsPerByte = ratio(work.operations, work.bytes);
    return r;
}

nlohmann::json toJson(const Roofline& r) {
    return {{"work_bytes", r.work.bytes},
            {"work_operations", r.work.operations},
            {"achieved_bytes_per_s", r.bytesPerSecond},
            {"achieved_operations_per_s", r.operationsPerSecond},
            {"peak_bytes_per_s", r.peaks.bytesPerSecond},
            {"peak_operations_per_s", r.peaks.operationsPerSecond},
            {"bandwidth_fraction", r.bandwidthFraction},
            {"compute_fraction", r.computeFraction},
            {"operations_per_byte", r.operationsPerByte},
            {"peaks_measured", r.peaks.measured}};
}

nlohmann::json toJson(const RunWork& w) {
    return {{"bytes", w.bytes}, {"operations", w.operations}};
}

RunWork runWorkFromJson(const nlohmann::json& j) {
    RunWork w;
    w.bytes = j.value("bytes", 0.0), w.operations = j.value("operations", 0.0);
    return w;
}

} // namespace clscope
