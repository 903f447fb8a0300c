// cluster as an Algorithm (gpu/algorithm.hpp): registered in gpu/registry.cpp.
#pragma once
#include "core/cluster/cluster.hpp"
#include "gpu/typed_algorithm.hpp"

namespace clscope::cluster {

// The digis of one event (or, for a run over several devices, of a range of its modules).
class ClusterInput : public AlgorithmInput {
  public:
    explicit ClusterInput(Digis d) : digis(std::move(d)) {}
    std::string describe() const override;
    Digis digis;
    // A part of a split input: the index in the whole input of each digi, and its size.
    std::vector<std::uint32_t> origin;
    std::size_t totalDigis = 0;
};

class ClusterResult : public AlgorithmResult {
  public:
    explicit ClusterResult(Result r) : clusters(std::move(r)) {}
    void write(H5Writer& out, const std::string& group) const override;
    std::string summary() const override;
    Result clusters;
    std::vector<std::uint32_t> origin; // of the part it ran on (empty: the whole input)
    std::size_t totalDigis = 0;
};

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
