// Device and variant choice, kept apart from the widgets: which device is current (remembered
// by platform + device + driver name, never by index) and which variant of each algorithm.
#pragma once
#include "gpu/runtime/device_info.hpp"
#include "gpu/variant/variant.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope::ui {

// One variant as a chooser shows it (the Device presenter, the panels' variant combos).
struct VariantChoice {
    std::string id, label;
    bool enabled = true;
    std::string reason;  // why the current device cannot run it
    bool onHost = false; // runs on the host rather than the chosen device
};

class DevicePresenter {
  public:
    // devices: cpu first, then OpenCL devices (listDevices() order).
    explicit DevicePresenter(std::vector<DeviceInfo> devices = {});

    const std::vector<DeviceInfo>& devices() const { return devices_; }
    // Select by DeviceInfo::key(); an unknown or empty key selects the default device
    // (the first GPU, else the first OpenCL device, else cpu). Returns the index chosen.
    std::size_t selectByKey(const std::string& key);
    void select(std::size_t index);
    std::size_t currentIndex() const { return current_; }
    const DeviceInfo& current() const { return devices_.at(current_); }
    std::string currentKey() const { return current().key(); }
    std::size_t defaultIndex() const;

    // Variants of an algorithm on the current device, greyed out with the reason.
    std::vector<VariantChoice> variantChoices(const std::vector<VariantEntry>& variants) const;
    // The remembered variant if the current device can run it, else the first that it can.
    std::string chooseVariant(const std::string& algorithm,
                              const std::vector<VariantEntry>& variants) const;
    void rememberVariant(const std::string& algorithm, const std::string& id) {
        variants_[algorithm] = id;
    }
    const std::map<std::string, std::string>& rememberedVariants() const { return variants_; }

    // The lines `clscope-cli devices --json` shows, as (name, value) pairs.
    static std::vector<std::pair<std::string, std::string>> describe(const DeviceInfo& d);

  private:
    std::vector<DeviceInfo> devices_;
    std::size_t current_ = 0;
    std::map<std::string, std::string> variants_;
};

} // namespace clscope::ui
