// cluster on an OpenCL device. Every step is a labelled launch (ClSession::launch) of a kernel of
// a declared program (gpu/cluster/recipes.hpp), by its launch rule; kernel
// time is the sum of the kernel records, from the digis on the device to the ids and sums on
// the device (fills are recorded, not counted as kernels).
//
// The pipeline, one line per launch (n digis; per digi: work-groups of DIGI_WG; per module:
// G = moduleGroups (CLUSTER_GROUPS, or by the input's size) work-groups of CLUSTER_WG, grid-stride
// over the active modules where it says "per module"):
//   fill                         moduleCount[65536] and totals (one buffer) = 0
//   1 cluster_count     per digi     digis per module (one atomic per same-module run within
//                                    CLUSTER_RUN digis), largest module id; invalid: id -1
//   2 cluster_scan      1 group      moduleStart (exclusive scan), active module list
//   3 cluster_scatter   per digi     input index into its module's range (any order)
//   cmssw:
//   4 cluster_cmssw     per module   sort the module by input index (sorted pixel, adc,
//                                    module written out), duplicates (bitmap), column
//                                    histogram, forward neighbours, min-label propagation
//                                    with pointer jumping, then renumber_module; local memory
//                                    up to CMSSW_LOCAL_CAP digis, global scratch above
//   unionfind:
//   4 cluster_sort      per module   the same sort (local up to SORT_LOCAL_CAP, else global)
//     fill              hash table, duplicate flags
//   5 cluster_uf_insert per digi     hash table of (module, x, y), duplicates flagged
//   6 cluster_uf_union  per digi     lock-free union-find over neighbour pairs
//   7 cluster_uf_roots  per digi     each digi's root (its cluster's lowest position)
//   8 cluster_renumber  per module   renumber_module
// renumber_module (cluster_common.cl), by the module's work-group: charge cut, numbering, each
// digi's number within its module at its input index, and cluster c of the module summed into
// row first + c of the sums (local-memory atomics on a few hundred rows at a time, copied out;
// 64-bit sums by one atomic whose result is unused where the device has 64-bit atomics), the
// module's block of rows reserved with one atomic per module. download() orders the blocks by
// module id on the host, so no scan over the modules' clusters and no per-digi sums launch are
// needed, and only the clusters' rows cross the bus. So cmssw takes 4 kernels and 1 fill, unionfind
// 8 kernels and 3 fills. Because positions within a module follow the input order, a cluster's root
// is its lowest digi and the numbering is the same on every device and variant; the doubles are
// made on the host from the integer sums.
#include "core/cluster/digis.hpp"
#include "core/errors.hpp"
#include "gpu/cluster/cluster_gpu.hpp"
#include "gpu/cluster/recipes.hpp"
#include "gpu/runtime/session.hpp"

#include <algorithm>

namespace clscope::cluster {

namespace {

constexpr std::size_t moduleIds = 65536;
constexpr std::size_t sumsStride = 14; // SUMS_STRIDE of cluster_finish.cl
constexpr std::size_t cmsswFixedLocal = 2 * 2080 * 4 + (416 + 417) * 4 + 64; // bitmaps, columns
constexpr std::size_t cmsswPerDigiLocal = 4 + 4 + 2 + 2 * maxNeighbours + 1;

template <class... Args> void setArgs(cl::Kernel& kernel, const Args&... args) {
    cl_uint index = 0;
    (kernel.setArg(index++, args), ...);
}

// Every buffer of one run.
struct Run {
    Run(ClSession& session, const ProgramOverrides& overrides, TunableValues tunables)
        : s(session), programs(overrides), values(std::move(tunables)) {}
    ClSession& s;
    const ProgramOverrides& programs; // the run's (RunRequest::programs)
    TunableValues values;             // of the run's programs: host values, tuning, then overrides
    cl_uint n = 0;
    cl::Buffer module, x, y, adc, id, moduleCount, moduleStart, active, totals;
    cl::Buffer countsAndTotals; // moduleCount and totals are two regions of it
    cl::Buffer sortedIndex, sortedPix, sortedAdc, sortedModule, root;
    cl::Buffer charge, rank, sums;

    std::size_t value(const std::string& name) const { return std::stoul(values.at(name)); }
    // The program holding kernel `name` (gpu/cluster/recipes.hpp) as this run builds it.
    ProgramRecipe recipe(const std::string& name) const {
        return programs.apply(recipeOfKernel(name));
    }
    cl::Kernel kernel(const std::string& name) { return s.kernel(recipe(name), values, name); }
    // Launch kernel `name` over `extent` work-items by its program's launch rule.
    void launch(cl::Kernel& k, const std::string& name, const std::string& label,
                std::size_t extent) {
        s.launch(k, label, recipe(name).shape(name, values, {extent}));
    }
    void perDigi(cl::Kernel& k, const std::string& name, const std::string& label) {
        launch(k, name, label, n);
    }
    std::size_t groups = 0; // of the per-module kernels (moduleGroups)
    void perModule(cl::Kernel& k, const std::string& name, const std::string& label) {
        launch(k, name, label, groups * value("CLUSTER_WG"));
    }
};

// The tuning checked against the device: work-group sizes, local memory, caps >= 1.
void checkTuning(const DeviceInfo& d, std::map<std::string, int>& t) {
    for (const char* name :
         {"CLUSTER_WG", "DIGI_WG", "SCAN_WG", "SORT_LOCAL_CAP", "CMSSW_LOCAL_CAP", "CLUSTER_RUN"})
        if (t.at(name) < 1)
            throw UsageError(std::string("cluster: tuning ") + name + " must be >= 1");
    if (t.at("CLUSTER_GROUPS") < 0)
        throw UsageError("cluster: tuning CLUSTER_GROUPS must be >= 0 (0: by the input's size)");
    for (const char* name : {"CLUSTER_WG", "DIGI_WG", "SCAN_WG"})
        if (std::size_t(t.at(name)) > d.maxWorkGroupSize)
            throw UsageError(std::string("cluster: tuning ") + name + "=" +
                             std::to_string(t.at(name)) + " exceeds the work-group limit " +
                             std::to_string(d.maxWorkGroupSize) + " of " + d.spec);
    // Local caps shrink to what the device's local memory holds.
    const std::size_t local = d.localMemBytes, wgBytes = 4 * std::size_t(t.at("CLUSTER_WG"));
    if (local < cmsswFixedLocal + wgBytes + cmsswPerDigiLocal + 64)
        throw UsageError("cluster: " + d.spec + " has " + std::to_string(local) +
                         " bytes of local memory, the cmssw and sort kernels need about " +
                         std::to_string(cmsswFixedLocal + wgBytes + 1024));
    const int cmsswFits = int((local - cmsswFixedLocal - wgBytes - 64) / cmsswPerDigiLocal);
    t["CMSSW_LOCAL_CAP"] = std::min(t.at("CMSSW_LOCAL_CAP"), cmsswFits);
    t["SORT_LOCAL_CAP"] = std::min<int>(t.at("SORT_LOCAL_CAP"), int((local - 64) / 4));
}

// Upload, count, scan and scatter by module; with `sort`, then sort each module by input index
// (cmssw sorts inside its own kernel).
void groupByModule(Run& r, const Digis& d, bool sort) {
    ClSession& s = r.s;
    const std::size_t n = r.n;
    s.upload(r.module, d.module.data(), n * 2, "copy H->D digis");
    s.upload(r.x, d.x.data(), n * 2, "copy H->D digis");
    s.upload(r.y, d.y.data(), n * 2, "copy H->D digis");
    s.upload(r.adc, d.adc.data(), n * 2, "copy H->D digis");
    s.fill(r.countsAndTotals, moduleIds * 4 + 16, "cluster fill"); // one fill for both
    cl::Kernel count = r.kernel("cluster_count");
    setArgs(count, r.module, r.n, r.moduleCount, r.totals, r.id);
    r.perDigi(count, "cluster_count", "cluster count");
    cl::Kernel scan = r.kernel("cluster_scan");
    // Modules 0..totals[3]; totals[0] = valid digis, totals[1] = active modules.
    setArgs(scan, r.moduleCount, r.totals, r.moduleStart, r.active);
    r.launch(scan, "cluster_scan", "cluster scan modules", r.value("SCAN_WG")); // one group
    cl::Kernel scatter = r.kernel("cluster_scatter");
    setArgs(scatter, r.module, r.n, r.moduleStart, r.moduleCount, r.sortedIndex);
    r.perDigi(scatter, "cluster_scatter", "cluster scatter");
    if (!sort) return;
    cl::Kernel sortKernel = r.kernel("cluster_sort");
    setArgs(sortKernel, r.moduleStart, r.active, r.totals, r.sortedIndex, r.module, r.x, r.y, r.adc,
            r.sortedPix, r.sortedAdc, r.sortedModule);
    r.perModule(sortKernel, "cluster_sort", "cluster sort");
}

// cmssw: one work-group per module sorts it, clusters it and numbers its clusters after the
// charge cut; modules beyond CMSSW_LOCAL_CAP digis in global scratch.
void cmsswRoots(Run& r, const ChargeCut& cut) {
    const std::size_t n = r.n;
    cl::Buffer order = r.s.allocate(n * 4, "cluster column order");
    cl::Buffer neighbours = r.s.allocate(n * 4 * maxNeighbours, "cluster neighbours");
    cl::Buffer counts = r.s.allocate(n, "cluster neighbour counts");
    cl::Kernel k = r.kernel("cluster_cmssw");
    setArgs(k, r.moduleStart, r.active, r.totals, r.sortedIndex, r.module, r.x, r.y, r.adc,
            r.sortedPix, r.sortedAdc, r.sortedModule, r.root, order, neighbours, counts, r.charge,
            r.rank, r.id, r.sums, cl_ulong(cut.threshold(0)),
            cl_ulong(cut.threshold(phase1InnerModules)), cl_uint(phase1InnerModules));
    r.perModule(k, "cluster_cmssw", "cluster cmssw");
}

// unionfind: hash table of the digis, lock-free union-find over neighbour pairs.
void unionfindRoots(Run& r) {
    const std::size_t n = r.n;
    std::size_t tableSize = 1024;
    while (tableSize < 2 * n)
        tableSize <<= 1;
    const cl_uint mask = cl_uint(tableSize - 1);
    cl::Buffer table = r.s.allocate(tableSize * 4, "cluster hash table");
    cl::Buffer duplicate = r.s.allocate(n, "cluster duplicates");
    cl::Buffer parent = r.s.allocate(n * 4, "cluster parents");
    r.s.fill(table, tableSize * 4, "cluster fill");
    r.s.fill(duplicate, n, "cluster fill");
    cl::Kernel insert = r.kernel("cluster_uf_insert");
    setArgs(insert, r.totals, r.sortedPix, r.sortedModule, table, mask, duplicate, parent);
    r.perDigi(insert, "cluster_uf_insert", "cluster uf insert");
    cl::Kernel unite = r.kernel("cluster_uf_union");
    setArgs(unite, r.totals, r.sortedPix, r.sortedModule, table, mask, duplicate, parent);
    r.perDigi(unite, "cluster_uf_union", "cluster uf union");
    cl::Kernel roots = r.kernel("cluster_uf_roots");
    setArgs(roots, r.totals, duplicate, parent, r.root);
    r.perDigi(roots, "cluster_uf_roots", "cluster uf roots");
}

// Charge cut, numbering, ids and sums per module (unionfind; cmssw does it in its own kernel).
void renumber(Run& r, const ChargeCut& cut) {
    cl::Kernel k = r.kernel("cluster_renumber");
    setArgs(k, r.moduleStart, r.active, r.totals, r.root, r.sortedIndex, r.sortedPix, r.sortedAdc,
            r.charge, r.rank, r.id, r.sums, cl_ulong(cut.threshold(0)),
            cl_ulong(cut.threshold(phase1InnerModules)), cl_uint(phase1InnerModules));
    r.perModule(k, "cluster_renumber", "cluster renumber");
}

// One row of the device's sums (SUMS_STRIDE words, cluster_common.cl) as ClusterSums.
ClusterSums sumsOf(const cl_uint* w) {
    auto wide = [](cl_uint lo, cl_uint hi) { return std::uint64_t(hi) << 32 | lo; };
    ClusterSums s;
    s.module = w[0], s.size = w[1];
    s.maxX = w[2], s.minX = moduleSizeX - 1 - w[3], s.maxY = w[4], s.minY = moduleSizeY - 1 - w[5];
    s.charge = wide(w[6], w[7]), s.weightedX2 = wide(w[8], w[9]), s.weightedY2 = wide(w[10], w[11]);
    s.plainX2 = w[12], s.plainY2 = w[13];
    return s;
}

// Ids (each digi's cluster number within its module) and the clusters' sums back to the host.
Result download(Run& r) {
    cl_uint totals[4];
    r.s.download(r.totals, totals, sizeof totals, "copy D->H totals");
    r.s.mark("totals read");
    std::vector<std::int32_t> ids(r.n);
    r.s.download(r.id, ids.data(), ids.size() * 4, "copy D->H ids");
    // The rows into pinned memory the device keeps between runs, read in place: a zeroed vector,
    // its pages faulted in every run, took 19 ms of a 77 ms run of the events bench on an H100.
    const std::size_t rows = totals[2], bytes = rows * sumsStride * sizeof(cl_uint);
    const std::shared_ptr<PinnedBlock> pinned =
        rows ? r.s.device().pinned(bytes, r.s.queue()) : nullptr;
    const cl_uint* raw = pinned ? static_cast<const cl_uint*>(pinned->host) : nullptr;
    if (rows) r.s.download(r.sums, pinned->host, bytes, "copy D->H sums");
    r.s.finish();
    r.s.mark("sums read");
    // Each module's clusters are one block of rows in number order; blocks come in the order
    // the work-groups reserved them: take them by module id (the first word of a row).
    struct Block {
        cl_uint module;
        std::size_t first, count;
    };
    std::vector<Block> blocks;
    for (std::size_t row = 0; row < rows; ++row) {
        const cl_uint module = raw[row * sumsStride];
        if (blocks.empty() || blocks.back().module != module) blocks.push_back({module, row, 0});
        ++blocks.back().count;
    }
    std::sort(blocks.begin(), blocks.end(),
              [](const Block& a, const Block& b) { return a.module < b.module; });
    std::vector<std::uint32_t> order; // row of each cluster, in module order
    order.reserve(rows);
    for (const Block& b : blocks)
        for (std::size_t c = 0; c < b.count; ++c)
            order.push_back(std::uint32_t(b.first + c));
    r.s.mark("rows in module order");
    Result result = makeResult(std::move(ids), rows, [&](std::size_t c) {
        return sumsOf(raw + std::size_t(order[c]) * sumsStride);
    });
    r.s.mark("result made");
    return result;
}

// A sub-buffer of bytes at offset (a multiple of every device's base address alignment).
cl::Buffer region(cl::Buffer& parent, std::size_t offset, std::size_t bytes) {
    cl_buffer_region where{offset, bytes};
    return parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &where);
}

void allocate(Run& r) {
    ClSession& s = r.s;
    const std::size_t n = r.n;
    for (cl::Buffer* b : {&r.module, &r.x, &r.y, &r.adc, &r.sortedAdc, &r.sortedModule})
        *b = s.allocate(n * 2, "cluster digis");
    for (cl::Buffer* b : {&r.id, &r.sortedIndex, &r.sortedPix, &r.root, &r.rank})
        *b = s.allocate(n * 4, "cluster per digi");
    r.charge = s.allocate(n * 8, "cluster charges");
    r.countsAndTotals = s.allocate(moduleIds * 4 + 16, "cluster module counts and totals");
    r.moduleCount = region(r.countsAndTotals, 0, moduleIds * 4);
    r.totals = region(r.countsAndTotals, moduleIds * 4, 16);
    r.moduleStart = s.allocate((moduleIds + 1) * 4, "cluster module starts");
    r.active = s.allocate(moduleIds * 2, "cluster active modules");
    r.sums = s.allocate(n * sumsStride * 4, "cluster sums");
}

} // namespace

std::map<std::string, int> defaultTuning(const DeviceInfo& d) {
    if (d.type == "CPU") // PoCL: few cores, narrow groups
        return {{"CLUSTER_WG", 64},       {"DIGI_WG", 64},
                {"SCAN_WG", 256},         {"CLUSTER_GROUPS", int(4 * std::max(1u, d.computeUnits))},
                {"SORT_LOCAL_CAP", 2048}, {"CMSSW_LOCAL_CAP", 1024},
                {"CLUSTER_RUN", 32}};
    return {{"CLUSTER_WG", 256},
            {"DIGI_WG", 256},         // the per-digi kernels (NVIDIA allows the count kernel 256)
            {"CLUSTER_REQD_WG", 1},   // reqd_work_group_size on the per-module kernels
            {"SCAN_WG", 256},         // NVIDIA allows the scan kernel 256 work-items
            {"CLUSTER_GROUPS", 0},    // moduleGroups: by the input's size
            {"SORT_LOCAL_CAP", 4096}, // 16 KiB: the largest modules of the 10x event sort locally
            {"CMSSW_LOCAL_CAP", 1024},
            {"CLUSTER_RUN", 32}}; // digis per aligned block whose same-module run takes one atomic
}

// H200 (2026-11-29, docs/performance-checks.md): 16,384 groups against 2,048 gave the 35-event
// input's kernels 2.151 -> 1.762 ms (cmssw), 1.149 -> 1.120 (unionfind); the 10x event 0.278 ->
// 0.277 / 0.266 -> 0.258; on the seed event (59k digis: 2,048 here) unionfind took 0.149
// against 0.137.
std::size_t moduleGroups(int tuned, std::size_t digis) {
    if (tuned > 0) return std::size_t(tuned);
    return std::clamp<std::size_t>(digis / 32, 2048, 16384);
}

Result clusterOnDevice(const Job& job, const std::string& id, Roots roots) {
    const DeviceInfo& device = job.device;
    const Digis& digis = job.digis;
    checkDigis(digis);
    std::map<std::string, int> tuning = defaultTuning(device);
    for (const auto& [name, value] : job.params.tuning)
        tuning[name] = value;
    checkTuning(device, tuning);
    Result result;
    if (digis.size() > 0) {
        ClSession session(device);
        Run run(session, job.programs, job.programs.over(hostValues(tuning)));
        run.n = cl_uint(digis.size());
        run.groups = moduleGroups(int(run.value("CLUSTER_GROUPS")), digis.size());
        try {
            allocate(run);
            groupByModule(run, digis, roots == Roots::UnionFind);
            job.progress.checkCancel();
            if (roots == Roots::Cmssw) {
                cmsswRoots(run, job.params.chargeCut);
            } else {
                unionfindRoots(run);
                renumber(run, job.params.chargeCut);
            }
            result = download(run);
        } catch (const cl::Error& e) {
            rethrowDeviceError(e, "cluster " + id, device);
        }
        result.timings = session.timings().records();
        session.mark("timings taken");
    }
    result.device = device.spec + " (" + device.name + ")";
    result.variant = id;
    job.progress.report(1.0);
    return result;
}

} // namespace clscope::cluster
