// spots as a clscope::Algorithm (the generic CLI, bench, GUI runner and comparison use it).
#pragma once
#include "core/spots/spots.hpp"
#include "gpu/spots/run_types.hpp"
#include "gpu/typed_algorithm.hpp"

namespace clscope::spots {

// Its facets (gpu/spots/facets.hpp): frame ranges (or bands of rows) over devices, frame
// ranges within a budget, a live 2-D stream stage, the diffraction synthetic dataset, bench
// cases, the kernel lab's work and the --phil side output.
class Algorithm : public TypedAlgorithm<SpotsInput, Params, SpotsResult> {
  public:
    Algorithm();
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    // The spots program (gpu/spots/recipes.hpp), built by every OpenCL variant.
    std::vector<ProgramRecipe> recipes() const override;
    // Params from the parameter set (UsageError naming what is wrong).
    Params parameters(const ParamSet& params) const override;
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;

  protected:
    Support supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                         const SpotsInput* input, const Params* params) const override;
    std::shared_ptr<SpotsResult> runWith(const RunRequest& request, const SpotsInput& input,
                                         Params params, const Progress& progress) const override;
    Deviation compareWith(const SpotsResult& result, const SpotsResult& reference) const override;
};

// Frames read once, the pixel mask once, one signal byte a pixel written; operations 28 a
// pixel (the three window sums of the summed-area form and DIALS' two tests).
RunWork runWork(const SpotsInput& input);

} // namespace clscope::spots
