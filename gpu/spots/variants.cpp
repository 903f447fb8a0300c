// The variants of spots: which exist, what they need and which one a device prefers.
#include "gpu/spots/recipes.hpp"
#include "gpu/spots/spots_gpu.hpp"

namespace clscope::spots {

const std::vector<std::string>& variantIds() {
    static const std::vector<std::string> ids = {"cpu", "local", "direct", "sat", "extended"};
    return ids;
}

std::string variantLabel(const std::string& variant) {
    if (variant == "cpu") return "host reference, C++ threads (dispersion and dispersion_extended)";
    if (variant == "local")
        return "dispersion, window sums from a tile in local memory (the seed's kernel, fixed)";
    if (variant == "direct") return "dispersion, window sums read straight from global memory";
    if (variant == "sat") return "dispersion, summed-area tables (integer, wrap-safe)";
    if (variant == "extended")
        return "dispersion_extended: dispersive pixels, erosion, background mean";
    return "";
}

Support supportsVariant(const std::string& variant, const DeviceInfo& device,
                        const Params* params) {
    if (variant == "cpu")
        return device.isHost() ? Support{} : Support{false, "runs on the host only (--device cpu)"};
    if (device.isHost()) return {false, "an OpenCL variant: pick an ocl:N device"};
    if (!params) return {};
    const bool extended = params->method == Method::DispersionExtended;
    if (variant == "extended" && !extended)
        return {false,
                "extended computes dispersion_extended; use local, direct or sat for dispersion"};
    if (variant != "extended" && extended)
        return {false, variant + " computes dispersion; use extended for dispersion_extended"};
    if (variant == "local" || variant == "extended") { // both read windows from a tile
        auto tuned = [&](const char* name) {           // the tuning's, else the recipe's default
            const auto it = params->tuning.find(name);
            return it == params->tuning.end() ? std::stoi(spotsRecipe().tunable(name).defaultValue)
                                              : it->second;
        };
        // The tile (int + flag per pixel) and the column sums of the tile's rows (int count,
        // up to 8-byte sum, 8-byte sum of squares).
        const std::uint64_t width = std::uint64_t(tuned("TILE_X") + 2 * params->kernelX);
        const std::uint64_t bytes =
            width * (tuned("TILE_Y") + 2 * params->kernelY) * 5 + width * tuned("TILE_Y") * 20;
        if (bytes > device.localMemBytes)
            return {false, "its tile needs " + std::to_string(bytes) +
                               " bytes of local memory, the device has " +
                               std::to_string(device.localMemBytes)};
    }
    return {};
}

std::string preferredVariant(const DeviceInfo& device, Method method) {
    if (device.isHost()) return "cpu";
    return method == Method::DispersionExtended ? "extended" : "local";
}

} // namespace clscope::spots
