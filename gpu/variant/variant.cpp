#include "gpu/variant/variant.hpp"

#include "core/errors.hpp"

namespace clscope {

Support VariantEntry::supports(const DeviceInfo& device) const {
    if (info.kind == VariantKind::Host && !device.isHost())
        return {false, "runs on the host CPU only: choose device 'cpu'"};
    if (info.kind == VariantKind::OpenCL && device.isHost())
        return {false, "needs an OpenCL device, not the host reference 'cpu'"};
    if (extraCheck) return extraCheck(device);
    return {};
}

bool VariantEntry::emulatedOn(const DeviceInfo& device,
                              const std::map<std::string, int>& tuning) const {
    if (emulation.empty() || device.isHost() || info.kind != VariantKind::OpenCL) return false;
    const auto it = tuning.find(emulation);
    return it != tuning.end() && it->second != 0;
}

} // namespace clscope
