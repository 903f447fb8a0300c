// The cluster variants, declared once: their entries, device checks and runs.
#include "core/cluster/digis.hpp"
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
                   const std::string& needs, bool preferred, std::vector<std::string> programs) {
    VariantEntry e;
    e.info.algorithm = "cluster";
    e.info.id = id;
    e.info.label = label;
    e.info.kind = kind;
    e.info.needs = needs;
    e.info.preferred = preferred;
    e.info.programs = std::move(programs);
    if (kind == VariantKind::OpenCL) e.extraCheck = enoughLocalMemory;
    return e;
}

Variant<Job, Result> openCl(const std::string& id, const std::string& label, bool preferred,
                            std::vector<std::string> programs, Roots roots) {
    return {entry(id, label, VariantKind::OpenCL, "OpenCL 1.2, 24 KiB local memory", preferred,
                  std::move(programs)),
            [id, roots](const Job& job) { return clusterOnDevice(job, id, roots); }};
}

Result clusterOnHost(const Job& job) {
    const auto start = std::chrono::steady_clock::now();
    Result r = clusterReference(job.digis, job.params, job.progress);
    TimingStats timings;
    timings.add(
        "cluster cpu",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
        true); // the host's compute time counts as its kernel time
    r.timings = timings.records();
    r.device = "cpu";
    return r;
}

} // namespace

const VariantSet<Job, Result>& variantSet() {
    static const VariantSet<Job, Result> set(
        "cluster",
        {openCl("cmssw",
                "CMSSW findClus: one work-group per module, column histogram, "
                "neighbour lists, min-label propagation",
                true, {programs::group, programs::cmssw}, Roots::Cmssw),
         openCl("unionfind", "hash table of the digis, lock-free union-find over neighbour pairs",
                false, {programs::group, programs::sort, programs::unionfind, programs::finish},
                Roots::UnionFind),
         {entry("cpu", "CPU reference (C++ threads): union-find per module", VariantKind::Host,
                "host", true, {}),
          clusterOnHost}});
    return set;
}

} // namespace clscope::cluster
