#include "ui/device/device_presenter.hpp"

#include "gpu/runtime/devices.hpp"
#include "gpu/variant/user_variants.hpp"

#include <cstdlib>
#include <sstream>

namespace clscope::ui {

DevicePresenter::DevicePresenter(std::vector<DeviceInfo> devices) : devices_(std::move(devices)) {
    if (devices_.empty()) devices_.push_back(hostDevice());
    current_ = defaultIndex();
}

std::size_t DevicePresenter::defaultIndex() const {
    // CLSCOPE_DEVICE (cpu, ocl:N, ocl:TEXT) overrides the default, as in the CLI.
    if (const char* spec = std::getenv("CLSCOPE_DEVICE"); spec && *spec) {
        try {
            const std::string key = resolveDevice(spec).key();
            for (std::size_t i = 0; i < devices_.size(); ++i)
                if (devices_[i].key() == key) return i;
        } catch (const std::exception&) {
            // an unknown spec falls back to the usual default
        }
    }
    for (std::size_t i = 0; i < devices_.size(); ++i)
        if (devices_[i].type == "GPU") return i;
    for (std::size_t i = 0; i < devices_.size(); ++i)
        if (!devices_[i].isHost()) return i;
    return 0;
}

std::size_t DevicePresenter::selectByKey(const std::string& key) {
    current_ = defaultIndex();
    for (std::size_t i = 0; i < devices_.size(); ++i)
        if (!key.empty() && devices_[i].key() == key) current_ = i;
    return current_;
}

void DevicePresenter::select(std::size_t index) {
    if (index < devices_.size()) current_ = index;
}

std::vector<VariantChoice>
DevicePresenter::variantChoices(const std::vector<VariantEntry>& variants) const {
    std::vector<VariantChoice> out;
    for (const VariantEntry& v : variants) {
        const Support s = v.supports(current());
        out.push_back({v.info.id, v.info.label, s.ok, s.reason});
    }
    return out;
}

std::string DevicePresenter::chooseVariant(const std::string& algorithm,
                                           const std::vector<VariantEntry>& variants) const {
    const auto choices = variantChoices(variants);
    const auto remembered = variants_.find(algorithm);
    // A user's variant (user:NAME) is not among the registry's: the panel checks it can run.
    if (remembered != variants_.end() && isUserVariantId(remembered->second))
        return remembered->second;
    // The one chosen before; a host variant runs on the host whatever the device.
    if (remembered != variants_.end())
        for (std::size_t i = 0; i < choices.size(); ++i)
            if (choices[i].id == remembered->second &&
                (choices[i].enabled || variants[i].info.kind == VariantKind::Host))
                return choices[i].id;
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (choices[i].enabled && variants[i].info.preferred) return choices[i].id;
    for (const VariantChoice& c : choices)
        if (c.enabled) return c.id;
    return {};
}

std::vector<std::pair<std::string, std::string>> DevicePresenter::describe(const DeviceInfo& d) {
    const auto mib = [](std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; };
    std::ostringstream sizes;
    for (std::size_t i = 0; i < d.maxWorkItemSizes.size(); ++i)
        sizes << (i ? " × " : "") << d.maxWorkItemSizes[i];
    return {{"spec", d.spec},
            {"name", d.name},
            {"platform", d.platform},
            {"vendor", d.vendor},
            {"type", d.type},
            {"OpenCL version", d.version.empty() ? "—" : d.version},
            {"driver", d.driver.empty() ? "—" : d.driver},
            {"compute units", std::to_string(d.computeUnits)},
            {"global memory", mib(d.globalMemBytes)},
            {"max allocation", mib(d.maxAllocBytes)},
            {"local memory", std::to_string(d.localMemBytes >> 10) + " KiB"},
            {"max work-group", std::to_string(d.maxWorkGroupSize)},
            {"max work-item sizes", sizes.str().empty() ? "—" : sizes.str()},
            {"fp64", d.fp64 ? "yes" : "no"}};
}

} // namespace clscope::ui
