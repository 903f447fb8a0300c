#include "ui/data/generate_request.hpp"

#include "core/errors.hpp"
#include "gpu/algorithm.hpp"

namespace clscope::ui {

GenerateRequest generateRequest(const std::string& kind) {
    const auto [algorithm, found] = AlgorithmRegistry::instance().synthetic(kind);
    return {found.name, ParamSet(found.specs)};
}

GenerateRequest demoRequest(const std::string& algorithm) {
    const std::vector<SyntheticKind> kinds =
        AlgorithmRegistry::instance().find(algorithm).syntheticKinds();
    if (kinds.empty())
        throw UsageError("algorithm '" + algorithm + "' generates no synthetic dataset");
    return {kinds.front().name, ParamSet(kinds.front().specs)};
}

std::string writeGenerated(const GenerateRequest& request, const std::string& path) {
    const auto [algorithm, kind] = AlgorithmRegistry::instance().synthetic(request.kind);
    return kind.write(request.options, request.seed, request.compression, path);
}

} // namespace clscope::ui
