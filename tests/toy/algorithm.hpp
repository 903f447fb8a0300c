// The toy algorithm, a test fixture and the worked example of adding one: the sum of each frame,
// with a host `cpu` variant and an OpenCL `ocl` variant. It is built only with the tests
// (tests/toy/, library clscope_toy) and registered by the suites that run it
// (registerForTests), never in the product: clscope-cli and the GUI list the five algorithms.
// Its `fault` parameter makes the OpenCL variant wrong on purpose (NaN or off by one), so the
// tests can see that comparisons fail.
#pragma once
#include "gpu/algorithm.hpp"

namespace clscope::toy {

struct FrameSumsInput : AlgorithmInput {
    Array frames;
    std::string describe() const override;
};

struct FrameSumsResult : AlgorithmResult {
    std::vector<double> sums;
    void write(H5Writer& out, const std::string& group) const override;
    std::string summary() const override;
};

// Untyped (it casts its own input and result); its facets (toy/facets.hpp): frame ranges for
// several devices and for a memory budget, a synthetic dataset and bench cases.
class FrameSums : public Algorithm {
  public:
    FrameSums();
    std::string id() const override { return "toy"; }
    std::string label() const override { return "sum of each frame (toy)"; }
    std::vector<InputRole> inputRoles() const override;
    std::vector<ParamSpec> parameterSpecs() const override;
    std::vector<VariantEntry> variants() const override;
    std::vector<ProgramRecipe> recipes() const override;
    std::shared_ptr<const AlgorithmInput> read(const InputSources& sources,
                                               const ParamSet& params) const override;
    std::shared_ptr<AlgorithmResult> run(const RunRequest& request,
                                         const Progress& progress) const override;
    Deviation compare(const AlgorithmResult& result,
                      const AlgorithmResult& reference) const override;
};

// The provenance of an input read from these sources (file, frames dataset, frame range).
nlohmann::json provenanceOf(const InputSources& sources);

std::shared_ptr<FrameSumsInput> makeFrameSumsInput(Array frames);

// Adds the toy to AlgorithmRegistry::instance() beside the five algorithms (a suite calls it
// before it lists the registry); calling it again changes nothing.
void registerForTests();

// The program of the `ocl` variant (tests/toy/toy_frame_sums.cl).
ProgramRecipe frameSumsRecipe();

} // namespace clscope::toy
