#include "gpu/variant.hpp"

#include "core/errors.hpp"

#include <algorithm>

namespace clscope {

// Each algorithm's registration function (gpu/<algo>/variants.cpp); listed in registry.cpp.
void registerAllVariants(VariantRegistry& registry);

Support VariantEntry::supports(const DeviceInfo& device) const {
    if (info.kind == VariantKind::Host && !device.isHost())
        return {false, "runs on the host CPU only: choose device 'cpu'"};
    if (info.kind == VariantKind::OpenCL && device.isHost())
        return {false, "needs an OpenCL device, not the host reference 'cpu'"};
    if (extraCheck) return extraCheck(device);
    return {};
}

VariantRegistry& VariantRegistry::instance() {
    static VariantRegistry registry = [] {
        VariantRegistry r;
        registerAllVariants(r);
        return r;
    }();
    return registry;
}

void VariantRegistry::add(VariantEntry entry) { entries_.push_back(std::move(entry)); }

const std::vector<std::string>& knownAlgorithms() {
    static const std::vector<std::string> names{"xpcs", "spots", "cluster", "rbf"};
    return names;
}

std::vector<std::string> VariantRegistry::algorithms() const {
    std::vector<std::string> out;
    for (const auto& e : entries_)
        if (std::find(out.begin(), out.end(), e.info.algorithm) == out.end())
            out.push_back(e.info.algorithm);
    return out;
}

bool VariantRegistry::hasAlgorithm(const std::string& algorithm) const {
    return std::any_of(entries_.begin(), entries_.end(),
                       [&](const auto& e) { return e.info.algorithm == algorithm; });
}

std::vector<VariantEntry> VariantRegistry::variants(const std::string& algorithm) const {
    std::vector<VariantEntry> out;
    for (const auto& e : entries_)
        if (e.info.algorithm == algorithm) out.push_back(e);
    return out;
}

const VariantEntry& VariantRegistry::find(const std::string& algorithm, const std::string& id) const {
    std::string ids;
    for (const auto& e : entries_) {
        if (e.info.algorithm != algorithm) continue;
        if (e.info.id == id) return e;
        ids += (ids.empty() ? "" : ", ") + e.info.id;
    }
    throw UsageError(algorithm + ": no variant '" + id + "'" +
                     (ids.empty() ? " (no variants registered)" : "; variants: " + ids));
}

} // namespace clscope
