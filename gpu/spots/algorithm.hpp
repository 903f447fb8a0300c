// spots as a clscope::Algorithm (the generic CLI, bench, GUI runner and comparison use it).
#pragma once
#include "core/spots/spots.hpp"
#include "gpu/spots/run_types.hpp"
#include "gpu/typed_algorithm.hpp"

namespace clscope::spots {

class SpotsAlgorithm : public TypedAlgorithm<SpotsInput, Params, SpotsResult> {
  public:
    SpotsAlgorithm()
        : TypedAlgorithm({"spots", "DIALS dispersion spot finding: signal pixels, then spots"}) {}
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    // The spots program (gpu/spots/recipes.hpp), built by every OpenCL variant.
    std::vector<ProgramRecipe> recipes() const override;
    // Params from the parameter set (UsageError naming what is wrong).
    Params parameters(const ParamSet& params) const override;
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;
    std::vector<std::string> benchSizes() const override; // seed, large, stream, stream4m
    BenchCase benchCase(const std::string& size) const override;
    // Within a memory budget (passes.cpp).
    std::unique_ptr<PassPlan> planPasses(const InputSources& sources, const ParamSet& params,
                                         std::uint64_t budgetBytes) const override;
    // A live run on one OpenCL device, 2-D spots (stream_stage.cpp).
    std::unique_ptr<pipeline::FrameStage>
    streamStage(const RunRequest& request, const std::vector<DeviceInfo>& devices) const override;
    std::vector<SyntheticKind> syntheticKinds() const override; // synthetic.cpp
    std::vector<std::pair<std::string, std::string>>
    sideOutputs(const AlgorithmResult& result, const ParamSet& params) const override;

  protected:
    Support supportsWith(const VariantEntry& variant, const DeviceInfo& device,
                         const SpotsInput* input, const Params* params) const override;
    std::shared_ptr<SpotsResult> runWith(const RunRequest& request, const SpotsInput& input,
                                         Params params, const Progress& progress) const override;
    Deviation compareWith(const SpotsResult& result, const SpotsResult& reference) const override;
    // Frames read once, the pixel mask once, one signal byte a pixel written; operations 28 a
    // pixel (the three window sums of the summed-area form and DIALS' two tests).
    RunWork workWith(const SpotsInput& input, const Params& params) const override;
    // Several devices: contiguous frame ranges (2D spots only; global_threshold = auto is
    // estimated on the whole input first), joined identical to one run.
    SplitWork splitWorkWith(const SpotsInput& input, const Params& params) const override;
    std::vector<Part> splitWith(const SpotsInput& input, const ParamSet& params,
                                std::size_t parts) const override;
    std::shared_ptr<AlgorithmResult>
    joinWith(const std::vector<std::shared_ptr<SpotsResult>>& parts) const override;
};

} // namespace clscope::spots
