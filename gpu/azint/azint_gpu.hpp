// azint on OpenCL devices: variants histogram, csr, sorted and tiled next to the CPU reference
// `cpu`.
// Internal to gpu/azint: runs go through runAlgorithm() (gpu/algorithm.hpp), whose
// Algorithm::runWith runs the variant object it looks up in variantSet().
#pragma once
#include "core/azint/azint.hpp"
#include "core/progress.hpp"
#include "core/timing.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"
#include "gpu/variant/variant_set.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clscope::azint {

// What one azint run gives its variant.
struct Job {
    DeviceInfo device;
    const Input* input = nullptr;
    const Geometry* geometry = nullptr;
    const Params* params = nullptr;
    Progress progress;
    ProgramOverrides programs;         // its programs (recipes.hpp) are built with these
    std::map<std::string, int> tuning; // the request's tuning
};

// A variant's output: the sums and their timings.
struct RunOutput {
    Result result;
    std::vector<TimingRecord> timings;
};

// How an OpenCL variant sums: per pixel with atomics, per bin through the CSR matrix, over the
// pixels sorted by bin in equal chunks, or per tile of the image in a local histogram of its
// few bins (azint.cl, azint_sorted.cl, azint_tiled.cl).
enum class Method { Histogram, Csr, Sorted, Tiled };

// The frame types the kernels read (DATA_T).
bool kernelsRead(DType dtype);
// The OpenCL variant's method (variants.cpp; none for the host's `cpu`).
std::optional<Method> methodOf(const std::string& variant);

// The variants, declared once (variants.cpp): cpu, histogram, csr, sorted, tiled. Each run throws
// InputError for bad input, UsageError for bad parameters or tuning, DeviceError for device
// trouble.
const VariantSet<Job, RunOutput>& variantSet();

// One OpenCL run (device_run.cpp).
RunOutput runOnDevice(const Job& job, Method method);

} // namespace clscope::azint
