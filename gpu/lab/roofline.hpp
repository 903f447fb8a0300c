// A kernel lab row on the roofline: the algorithm's declared work per run (Algorithm::work:
// bytes moved and operations, from the run's sizes) over the row's median kernel time gives the
// achieved bytes/s and operations/s, each also as a fraction of the device's measured peaks
// (gpu/lab/device_peaks.hpp). Generic: the algorithm declares, this divides.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/lab/device_peaks.hpp"

#include <nlohmann/json.hpp>

namespace clscope {

struct Roofline {
    RunWork work;
    DevicePeaks peaks;
    double bytesPerSecond = 0, operationsPerSecond = 0; // achieved; 0 when not declared
    double bandwidthFraction = 0, computeFraction = 0;  // achieved / peak; 0 when either is 0
    double operationsPerByte = 0;                       // the work's intensity
};

// The row's figures from its work, median kernel time and peaks.
Roofline rooflineOf(const RunWork& work, double medianMs, const DevicePeaks& peaks);

// {work_bytes, work_operations, achieved_bytes_per_s, achieved_operations_per_s,
//  peak_bytes_per_s, peak_operations_per_s, bandwidth_fraction, compute_fraction,
//  operations_per_byte, peaks_measured}
nlohmann::json toJson(const Roofline& roofline);

nlohmann::json toJson(const RunWork& work);
RunWork runWorkFromJson(const nlohmann::json& j);

} // namespace clscope
