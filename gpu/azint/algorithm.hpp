// azint as a clscope::Algorithm (the generic CLI `clscope-cli azint`, bench, GUI runner and
// comparison use it): azimuthal integration of each frame (DESIGN.md §5 "azint").
#pragma once
#include "gpu/azint/run_types.hpp"
#include "gpu/typed_algorithm.hpp"

namespace clscope::azint {

// Its facets (gpu/azint/facets.hpp): frame ranges over devices and within a budget, the powder
// synthetic dataset, the bench cases and the kernel lab's figures.
class Algorithm : public TypedAlgorithm<AzintInput, Params, AzintResult> {
  public:
    Algorithm();
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    // azint_histogram, azint_csr, azint_sorted, azint_tiled (gpu/azint/recipes.hpp).
    std::vector<ProgramRecipe> recipes() const override;
    // Params from the parameter set (UsageError naming what is wrong).
    Params parameters(const ParamSet& params) const override;
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;

  protected:
    Support supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                         const AzintInput* input, const Params* params) const override;
    std::shared_ptr<AzintResult> runWith(const RunRequest& request, const AzintInput& input,
                                         Params params, const Progress& progress) const override;
    // Counts exact, then the intensities within 1e-9 relative (NaN where the reference's).
    Deviation compareWith(const AzintResult& result, const AzintResult& reference) const override;
};

// An input with everything but its frames read: the mask (when given), the pixel mask (the
// input's when present), the geometry (geometry_source.hpp) checked against height x width,
// and the provenance of every role (read() and the passes fill the frames).
std::shared_ptr<AzintInput> readBesideFrames(const clscope::Algorithm& algorithm,
                                             const InputSources& sources, const ParamSet& params,
                                             std::size_t height, std::size_t width);

} // namespace clscope::azint
