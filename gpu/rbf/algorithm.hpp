// rbf through the algorithm interface (gpu/algorithm.hpp): the input, result and Algorithm
// object that the CLI (`clscope-cli rbf`), the bench, the GUI and the tests use.
#pragma once
#include "core/rbf/rbf.hpp"
#include "gpu/typed_algorithm.hpp"

#include <memory>

namespace clscope::rbf {

// Sources, weights and targets; when the input is a sample of a larger one (the large bench
// case's reference), the original index of each target.
struct Input : AlgorithmInput {
    Problem problem;
    std::vector<std::size_t> targetIndex;
    // A part of a split run: the whole problem's origin (Params::origin); empty: its own.
    std::optional<std::array<double, 3>> origin;
    std::string describe() const override;
};

struct RunResult : AlgorithmResult {
    Result result;
    // /rbf/potential, the provenance attributes and the run's own sample check.
    void write(H5Writer& out, const std::string& group) const override;
    std::string summary() const override;
};

// Its facets (gpu/rbf/facets.hpp): contiguous target ranges over devices and within a budget,
// the particles synthetic dataset, bench cases and the kernel lab's figures.
class Algorithm : public TypedAlgorithm<Input, Params, RunResult> {
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
    Support supportsWith(const VariantEntry& variant, const DeviceInfo& device, const Input* input,
                         const Params* params) const override;
    std::shared_ptr<RunResult> runWith(const RunRequest& request, const Input& input, Params params,
                                       const Progress& progress) const override;
    Deviation compareWith(const RunResult& result, const RunResult& reference) const override;
};

// Sources and explicit targets read once, the potential written once (fp32); every pair's
// function and its product with the weight (pairOperations).
RunWork runWork(const Input& input, const Params& params);

// The rbf input of a problem made in memory (GUI, tests, bench).
std::shared_ptr<Input> makeInput(Problem problem, nlohmann::json provenance = {});
// Bytes of the sources as one run reads them (x, y, z and the weights, 4 bytes each).
double sourceBytes(const Problem& problem);
// The problem with the seed's n x n plane targets when n > 0 (and not already so), made in
// `storage`; else the problem itself, not copied (10^6 targets: 24 MB a copy, several a run).
const Problem& withPlanes(const Problem& problem, std::size_t planes, Problem& storage);

} // namespace clscope::rbf
