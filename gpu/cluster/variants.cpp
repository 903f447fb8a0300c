// The cluster variants: their entries, device checks and clusterDigis(), the dispatcher.
#include "core/cluster/digis.hpp"
#include "core/errors.hpp"
#include "gpu/cluster/cluster_gpu.hpp"
#include "gpu/cluster/recipes.hpp"

#include <chrono>

namespace clscope::cluster {

namespace {

// The one-group-per-module kernels keep a 16 KiB duplicate bitmap and the column histogram
// in local memory next to the module's digis.
Support enoughLocalMemory(const DeviceInfo& d) {
    if (d.localMemBytes < 24 * 1024)
        return {false, "needs 24 KiB of local memory, " + d.spec + " has " +
                           std::to_string(d.localMemBytes / 1024) + " KiB"};
    return {};
}

VariantEntry entry(const std::string& id, const std::string& label, VariantKind kind,
                   const std::string& needs, bool preferred) {
    VariantEntry e;
    e.info.algorithm = "cluster";
    e.info.id = id;
    e.info.label = label;
    e.info.kind = kind;
    e.info.needs = needs;
    e.info.preferred = preferred;
    e.info.programs = programsOf(id);
    if (kind == VariantKind::OpenCL) e.extraCheck = enoughLocalMemory;
    return e;
}

} // namespace

std::vector<VariantEntry> variantEntries() {
    return {entry("cmssw",
                  "CMSSW findClus: one work-group per module, column histogram, "
                  "neighbour lists, min-label propagation",
                  VariantKind::OpenCL, "OpenCL 1.2, 24 KiB local memory", true),
            entry("unionfind", "hash table of the digis, lock-free union-find over neighbour pairs",
                  VariantKind::OpenCL, "OpenCL 1.2, 24 KiB local memory", false),
            entry("cpu", "CPU reference (C++ threads): union-find per module", VariantKind::Host,
                  "host", true)};
}

Result clusterDigis(const DeviceInfo& device, const std::string& variant, const Digis& digis,
                    const Params& params, const Progress& progress,
                    const ProgramOverrides& programs) {
    const std::string& id = variant;
    for (const VariantEntry& e : variantEntries()) {
        if (e.info.id != id) continue;
        const Support support = e.supports(device);
        if (!support.ok)
            throw UsageError("cluster: variant " + id + " cannot run on " + device.spec + ": " +
                             support.reason);
        if (e.info.kind == VariantKind::OpenCL)
            return runOnDevice(device, id, digis, params, progress, programs);
        const auto start = std::chrono::steady_clock::now();
        Result r = clusterReference(digis, params, progress);
        TimingStats timings;
        timings.add(
            "cluster cpu",
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count(),
            true); // the host's compute time counts as its kernel time
        r.timings = timings.records();
        r.device = "cpu";
        return r;
    }
    throw UsageError("cluster: no variant '" + id + "' (cpu, cmssw, unionfind)");
}

} // namespace clscope::cluster
