// cluster as an Algorithm (gpu/algorithm.hpp): registered in gpu/registry.cpp.
#pragma once
#include "gpu/cluster/run_types.hpp"
#include "gpu/typed_algorithm.hpp"

namespace clscope::cluster {

// Its facets (gpu/cluster/facets.hpp): modules over devices and within a budget, the digis
// synthetic dataset, bench cases and the kernel lab's figures.
class Algorithm : public TypedAlgorithm<ClusterInput, Params, ClusterResult> {
  public:
    Algorithm();
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    // cluster_group, cluster_sort, cluster_cmssw, cluster_unionfind, cluster_finish
    // (gpu/cluster/recipes.hpp).
    std::vector<ProgramRecipe> recipes() const override;
    Params parameters(const ParamSet& params) const override; // the charge cut
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;

  protected:
    std::shared_ptr<ClusterResult> runWith(const RunRequest& request, const ClusterInput& input,
                                           Params params, const Progress& progress) const override;
    Deviation compareWith(const ClusterResult& result,
                          const ClusterResult& reference) const override;
};

// Each digi's module, x, y and adc read once and its cluster id written once; no arithmetic
// worth counting (operations 0: not declared).
RunWork runWork(const ClusterInput& input);

// The charge cut of a parameter set: "none", "phase1", a value as text or as a JSON number.
// UsageError naming --charge-cut otherwise.
ChargeCut chargeCutOf(const ParamSet& params);

} // namespace clscope::cluster
