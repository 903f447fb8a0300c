#include "ui/rbf/rbf_run.hpp"

#include "core/input/provenance.hpp"
#include "core/rbf/rbf_io.hpp"
#include "core/rbf/synthetic.hpp"
#include "gpu/runtime/devices.hpp"
#include "ui/jobs/algorithm_run.hpp"

#include <algorithm>

namespace clscope::ui {

const clscope::Algorithm& rbfAlgorithm() {
    return AlgorithmRegistry::instance().find("rbf");
}

RbfSources generatedSources(std::size_t count, std::uint64_t seed, bool complexWeights) {
    synthetic::ParticlesParams p;
    p.sources = count;
    p.seed = seed;
    p.complexWeights = complexWeights;
    p.gridPoints = 1; // the targets are the panel's planes
    RbfSources out;
    out.problem = rbf::makeProblem(synthetic::generateParticles(p), 1);
    out.problem.targets.planes = 0;
    out.origin = "generated: " + std::to_string(count) + " sources, seed " + std::to_string(seed) +
                 (complexWeights ? ", complex weights" : "");
    return out;
}

RbfSources fileSources(const H5Reader& file, const std::string& group) {
    RbfSources out;
    out.problem = rbf::readProblem(file, group, 1); // sources and weights only
    out.problem.targets.planes = 0;
    out.origin = file.fileName() + ":" + group;
    return out;
}

ParamSet RbfRunRequest::params() const {
    ParamSet p = form.specs().empty() ? rbfAlgorithm().defaultParams() : form;
    p.set("kernel", rbf::kernelName(kernel));
    p.set("sigma", sigma);
    p.set("wavenumber", wavenumber);
    p.set("planes", static_cast<long long>(grid));
    return p;
}

RunCommand RbfRunRequest::command() const {
    RunCommand c;
    c.algorithm = "rbf";
    const std::string origin = sources ? sources->origin : std::string();
    const std::size_t colon = origin.rfind(":/");
    if (colon != std::string::npos && origin.rfind("generated", 0) != 0) {
        c.sources.file = origin.substr(0, colon);
        c.sources.overrides["particles"] = origin.substr(colon + 1);
    } else {
        c.sources.arrays["particles"] = nullptr;
    }
    c.device = runDevice().spec, c.variant = variant;
    c.params = params();
    return c;
}

std::shared_ptr<rbf::RbfInput> RbfRunRequest::input() const {
    if (!sources) throw InputError("rbf: no sources — open a file with /particles or generate");
    rbf::Problem problem = sources->problem;
    problem.targets.points.clear();
    problem.targets.planes = grid;
    // A file's sources recorded as clscope-cli records them (the same `parameters`).
    const RunCommand run = command();
    if (run.sources.arrays.empty())
        return rbf::makeInput(std::move(problem),
                              inputProvenance(run.sources, {rbfAlgorithm().role("particles")}));
    return rbf::makeInput(std::move(problem), {{"sources", sources->origin}});
}

DeviceInfo RbfRunRequest::runDevice() const {
    return variantDevice(rbfAlgorithm(), variant, device);
}

std::vector<VariantChoice> rbfVariantOptions(const RbfRunRequest& request) {
    std::shared_ptr<rbf::RbfInput> input;
    if (request.sources) input = request.input();
    const ParamSet params = request.params();
    return variantChoices(rbfAlgorithm(), request.device, input.get(), input ? &params : nullptr);
}

} // namespace clscope::ui
