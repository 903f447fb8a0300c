// rbf as a clscope::Algorithm (command "rbf", output /rbf/potential).
#pragma once
#include "gpu/algorithm.hpp"

namespace clscope::rbf {

class RbfAlgorithm : public Algorithm {
  public:
    std::string id() const override { return "rbf"; }
    std::string label() const override {
        return "Particle sums f(x) = Σ g(x, y) c: Gaussian, Laplace, Helmholtz";
    }
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;
    Support supports(const VariantEntry& variant, const DeviceInfo& device,
                     const AlgorithmInput* input, const ParamSet* params) const override;
    std::shared_ptr<AlgorithmResult> run(const RunRequest& request,
                                         const Progress& progress) const override;
    Deviation compare(const AlgorithmResult& result,
                      const AlgorithmResult& reference) const override;
    std::vector<std::string> benchSizes() const override;
    BenchCase benchCase(const std::string& size) const override;
};

} // namespace clscope::rbf
