// The cluster programs as recipes. Each is common.cl and cluster_common.cl, then its own file;
// cluster_sort and cluster_cmssw also hold cluster_steps.cl three times, after each of its
// preludes (cluster_steps_local/mixed/global.cl: where keys, pixels and scratch live).
#include "gpu/cluster/recipes.hpp"

#include "core/cluster/cluster.hpp"
#include "core/errors.hpp"

namespace clscope::cluster {

namespace {

// What cluster_common.cl reads (every program).
std::vector<Tunable> commonTunables() {
    return {fromInput(integerTunable("CLUSTER_INVALID", invalidModule, 0, 65535,
                                     "module id of an invalid digi (the input format's)")),
            integerTunable("CLUSTER_WG", 256, 1, 1024,
                           "work-group size of the one-group-per-module kernels"),
            flagTunable("CLUSTER_REQD_WG", false,
                        "1: the per-module kernels declare reqd_work_group_size(CLUSTER_WG)"),
            flagTunable("CLUSTER_ATOM64", true,
                        "1: 64-bit sums by 64-bit atomics where the device has them; 0: two "
                        "32-bit words")};
}

Tunable digiWg() {
    return integerTunable("DIGI_WG", 256, 1, 1024, "work-group size of the per-digi kernels");
}

Tunable groupsTunable() {
    return integerTunable("CLUSTER_GROUPS", 0, 0, 1 << 20,
                          "work-groups of the per-module kernels (grid-stride over modules); 0: "
                          "one per 32 digis, 2,048 to 16,384");
}

Tunable neighbourSlots() {
    return fromInput(integerTunable("CMSSW_MAX_NEIGHBOURS", long(maxNeighbours), 1, 16,
                                    "forward 8-neighbours kept per digi (the host's scratch)"));
}

ProgramRecipe program(const std::string& name, bool steps, std::vector<Tunable> own) {
    std::vector<std::string> sources{"common", "cluster_common"};
    if (steps)
        for (const char* copy :
             {"cluster_steps_local", "cluster_steps_mixed", "cluster_steps_global"})
            sources.insert(sources.end(), {copy, "cluster_steps"});
    sources.push_back(name);
    std::vector<Tunable> tunables = commonTunables();
    tunables.insert(tunables.end(), own.begin(), own.end());
    return ProgramRecipe(name, sources, tunables);
}

// One work-group per module, CLUSTER_GROUPS of them: over CLUSTER_GROUPS x CLUSTER_WG.
const LaunchRule perModule{{"CLUSTER_WG"}, {}};
// One work-item per digi.
const LaunchRule perDigi{{"DIGI_WG"}, {}};

ProgramRecipe group() {
    return program(
               programs::group, false,
               {integerTunable("SCAN_WG", 256, 1, 1024, "work-group size of the module scan"),
                integerTunable("SCAN_PER", 16, 1, 64, "module counts per work-item in a scan tile"),
                integerTunable("CLUSTER_RUN", 32, 1, 1024,
                               "digis per aligned block whose same-module run takes one "
                               "atomic"),
                digiWg()})
        .launch("cluster_count", perDigi)
        .launch("cluster_scan", {{"SCAN_WG"}, {}}) // one work-group: over SCAN_WG
        .launch("cluster_scatter", perDigi);
}

ProgramRecipe sort() {
    return program(programs::sort, true,
                   {integerTunable("SORT_LOCAL_CAP", 2048, 1, 1 << 20,
                                   "digis of a module sorted in local memory (more: global)"),
                    neighbourSlots(), groupsTunable()})
        .launch("cluster_sort", perModule);
}

ProgramRecipe cmssw() {
    return program(programs::cmssw, true,
                   {integerTunable("CMSSW_LOCAL_CAP", 1024, 1, 1 << 20,
                                   "digis of a module clustered in local memory (more: mixed, "
                                   "then global)"),
                    neighbourSlots(), groupsTunable()})
        .launch("cluster_cmssw", perModule);
}

ProgramRecipe unionfind() {
    return program(programs::unionfind, false, {digiWg()})
        .launch("cluster_uf_insert", perDigi)
        .launch("cluster_uf_union", perDigi)
        .launch("cluster_uf_roots", perDigi);
}

ProgramRecipe finish() {
    return program(programs::finish, false,
                   {integerTunable("RENUMBER_ROWS", 384, 1, 4096,
                                   "cluster sums rows a work-group adds in local memory at once"),
                    groupsTunable()})
        .launch("cluster_renumber", perModule);
}

} // namespace

std::vector<ProgramRecipe> recipes() {
    return {group(), sort(), cmssw(), unionfind(), finish()};
}

ProgramRecipe recipeOfKernel(const std::string& kernel) {
    for (ProgramRecipe& recipe : recipes())
        if (recipe.launchRules().count(kernel)) return recipe;
    throw UsageError("cluster: no program has a kernel '" + kernel + "'");
}

TunableValues hostValues(const std::map<std::string, int>& tuning) {
    TunableValues values{{"CLUSTER_INVALID", std::to_string(invalidModule)},
                         {"CMSSW_MAX_NEIGHBOURS", std::to_string(maxNeighbours)}};
    for (const auto& [name, value] : tunableValues(tuning))
        values[name] = value;
    return values;
}

} // namespace clscope::cluster
