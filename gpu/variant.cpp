#include "gpu/variant.hpp"

#include "core/errors.hpp"
#include "gpu/algorithm.hpp"

namespace clscope {

Support VariantEntry::supports(const DeviceInfo& device) const {
    if (info.kind == VariantKind::Host && !device.isHost())
        return {false, "runs on the host CPU only: choose device 'cpu'"};
    if (info.kind == VariantKind::OpenCL && device.isHost())
        return {false, "needs an OpenCL device, not the host reference 'cpu'"};
    if (extraCheck) return extraCheck(device);
    return {};
}

VariantRegistry& VariantRegistry::instance() {
    static VariantRegistry registry;
    return registry;
}

const std::vector<std::string>& knownAlgorithms() {
    static const std::vector<std::string> names{"xpcs", "spots", "cluster", "rbf"};
    return names;
}

std::vector<std::string> VariantRegistry::algorithms() const {
    return AlgorithmRegistry::instance().ids();
}

bool VariantRegistry::hasAlgorithm(const std::string& algorithm) const {
    return AlgorithmRegistry::instance().get(algorithm) != nullptr;
}

std::vector<VariantEntry> VariantRegistry::variants(const std::string& algorithm) const {
    const Algorithm* a = AlgorithmRegistry::instance().get(algorithm);
    return a ? a->variants() : std::vector<VariantEntry>{};
}

VariantEntry VariantRegistry::find(const std::string& algorithm, const std::string& id) const {
    return AlgorithmRegistry::instance().find(algorithm).variant(id);
}

} // namespace clscope
