// The azint variants, declared once: their entries, what they accept and their runs.
#include "core/errors.hpp"
#include "gpu/azint/azint_gpu.hpp"
#include "gpu/azint/recipes.hpp"

#include <chrono>

namespace clscope::azint {

namespace {

// Sums in double on the device; the atomics add doubles by 64-bit compare-and-swap.
Support needsFp64(const DeviceInfo& d) {
    if (!d.fp64) return {false, "needs fp64 (cl_khr_fp64) on the device"};
    return {};
}

Support acceptsFrames(const Job& job) {
    if (!job.input || kernelsRead(job.input->frames.dtype())) return {};
    return {false, "the kernels read uint8, uint16, uint32, int32 or float32 frames, not " +
                       dtypeName(job.input->frames.dtype())};
}

VariantEntry entry(const std::string& id, const std::string& label, VariantKind kind,
                   const std::string& needs, bool preferred, std::vector<std::string> programs) {
    const bool device = kind == VariantKind::OpenCL;
    return {{"azint", id, label, kind, needs, "{}", preferred, std::move(programs)},
            device ? needsFp64 : std::function<Support(const DeviceInfo&)>{}};
}

Variant<Job, RunOutput> openCl(const std::string& id, const std::string& label, bool preferred,
                               const std::string& program, Method method) {
    return {entry(id, label, VariantKind::OpenCL, "OpenCL 1.2, fp64, 64-bit atomics", preferred,
                  {program}),
            [method](const Job& job) { return runOnDevice(job, method); }, acceptsFrames};
}

RunOutput onHost(const Job& job) {
    const auto start = std::chrono::steady_clock::now();
    RunOutput out{runCpu(*job.input, *job.geometry, *job.params), {}};
    TimingStats timings;
    timings.add(
        "azint cpu",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
        true); // the host's compute time counts as its kernel time
    out.timings = timings.records();
    job.progress.report(1.0);
    return out;
}

} // namespace

bool kernelsRead(DType dtype) {
    switch (dtype) {
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::Int32:
    case DType::Float32:
        return true;
    default:
        return false;
    }
}

std::optional<Method> methodOf(const std::string& variant) {
    if (variant == "csr") return Method::Csr;
    if (variant == "sorted") return Method::Sorted;
    if (variant == "histogram") return Method::Histogram;
    if (variant == "tiled") return Method::Tiled;
    return std::nullopt;
}

const VariantSet<Job, RunOutput>& variantSet() {
    static const VariantSet<Job, RunOutput> set(
        "azint",
        {openCl("csr",
                "CSR matrix bin -> pixels uploaded once, a work-item per bin (pyFAI's OpenCL "
                "method; the reference's sums bit for bit)",
                true, csrProgram, Method::Csr),
         openCl("sorted",
                "pixels presorted by bin in equal chunks, a segmented scan in local memory per "
                "work-group",
                false, sortedProgram, Method::Sorted),
         openCl("histogram",
                "per-pixel atomics: a local-memory histogram per work-group where the bins fit, "
                "merged with global atomics",
                false, histogramProgram, Method::Histogram),
         openCl("tiled",
                "the image in tiles, each pixel's bin 16 bits from its tile's lowest: a work-group "
                "per tile and several frames, a local histogram of the tile's few bins",
                false, tiledProgram, Method::Tiled),
         {entry("cpu", "CPU reference: a float64 histogram per frame", VariantKind::Host, "host",
                true, {}),
          onHost}});
    return set;
}

} // namespace clscope::azint
