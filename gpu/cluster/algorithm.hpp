// cluster as an Algorithm (gpu/algorithm.hpp): registered in gpu/registry.cpp.
#pragma once
#include "core/cluster/cluster.hpp"
#include "gpu/algorithm.hpp"

namespace clscope::cluster {

class ClusterAlgorithm : public Algorithm {
  public:
    std::string id() const override { return "cluster"; }
    std::string label() const override;
    std::string outputGroup() const override { return "/clusters"; }
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;
    std::shared_ptr<AlgorithmResult> run(const RunRequest& request,
                                         const Progress& progress) const override;
    Deviation compare(const AlgorithmResult& result,
                      const AlgorithmResult& reference) const override;
    BenchCase benchCase(const std::string& size) const override;
};

// The charge cut of a parameter set: "none", "phase1", a value as text or as a JSON number.
// UsageError naming --charge-cut otherwise.
ChargeCut chargeCutOf(const ParamSet& params);

} // namespace clscope::cluster
