// rbf through the algorithm interface (gpu/algorithm.hpp): the Algorithm object that the CLI
// (`clscope-cli rbf`), the bench, the GUI and the tests use (its input and result types:
// run_types.hpp).
#pragma once
#include "gpu/rbf/run_types.hpp"
#include "gpu/typed_algorithm.hpp"

#include <memory>

namespace clscope::rbf {

// Its facets (gpu/rbf/facets.hpp): contiguous target ranges over devices and within a budget,
// the particles synthetic dataset, bench cases and the kernel lab's figures.
class Algorithm : public TypedAlgorithm<RbfInput, Params, RbfResult> {
  public:
    Algorithm();
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    // rbf_tiled, rbf_tiled_fast, rbf_seed, rbf_separable (gpu/rbf/recipes.hpp).
    std::vector<ProgramRecipe> recipes() const override;
    Params parameters(const ParamSet& params) const override;
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;

  protected:
    Support supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                         const RbfInput* input, const Params* params) const override;
    std::shared_ptr<RbfResult> runWith(const RunRequest& request, const RbfInput& input,
                                       Params params, const Progress& progress) const override;
    Deviation compareWith(const RbfResult& result, const RbfResult& reference) const override;
};

// Sources and explicit targets read once, the potential written once (fp32); every pair's
// function and its product with the weight (pairOperations).
RunWork runWork(const RbfInput& input, const Params& params);

// The rbf input of a problem made in memory (GUI, tests, bench).
std::shared_ptr<RbfInput> makeInput(Problem problem, nlohmann::json provenance = {});
// Bytes of the sources as one run reads them (x, y, z and the weights, 4 bytes each).
double sourceBytes(const Problem& problem);
// The problem with the seed's n x n plane targets when n > 0 (and not already so), made in
// `storage`; else the problem itself, not copied (10^6 targets: 24 MB a copy, several a run).
const Problem& withPlanes(const Problem& problem, std::size_t planes, Problem& storage);

} // namespace clscope::rbf
