#include "gpu/variant.hpp"

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

} // namespace clscope
