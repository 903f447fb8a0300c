// One variant chooser for every algorithm panel: the registry's variants of an algorithm on the
// chosen device (host variants on the host), each with Algorithm::supports()'s verdict, shown in
// a QComboBox with the unusable ones greyed and their reason as tooltip.
#pragma once
#include "gpu/algorithm.hpp"
#include "ui/device/device_presenter.hpp" // VariantChoice

#include <string>
#include <vector>

class QComboBox;
class QWidget;

namespace clscope::ui {

class Workbench;

// Every variant of the algorithm on `device` (host variants checked on the host), with the
// input and parameters when given, then the user's variants (user:NAME, as their base).
std::vector<VariantChoice> variantChoices(const Algorithm& algorithm, const DeviceInfo& device,
                                          const AlgorithmInput* input = nullptr,
                                          const ParamSet* params = nullptr);

// Refill the combo (signals blocked): id as item data, "(on the host)" after host variants,
// unusable ones greyed with "label — cannot run here: reason". Keeps `previous` when it is
// still usable, else selects `fallback`, else the first usable one (on the device before on
// the host); returns whether `previous` was kept.
bool fillVariantCombo(QComboBox& combo, const std::vector<VariantChoice>& choices,
                      const std::string& previous, const std::string& fallback);
// A panel's variant chooser for `algorithm`: the user's choice is remembered by the workbench
// (per algorithm, across restarts) and offered first the next time the device can run it.
QComboBox* makeVariantCombo(Workbench& wb, const std::string& algorithm, QWidget* parent);
// A panel's chooser refilled for the workbench's device and these parameters: the choice kept
// while usable (the remembered one on the first fill), else the algorithm's default there.
void refillVariants(QComboBox& combo, const Workbench& wb, const Algorithm& algorithm,
                    const ParamSet& params);
// The chosen id; and choosing one by id (an id not listed is added as "ID (unknown)").
std::string comboVariant(const QComboBox& combo);
void selectComboVariant(QComboBox& combo, const std::string& id);
// Choose `id` as the user would (the choice is remembered); false when the combo does not offer
// it usable (another device's, a user variant that is gone).
bool chooseComboVariant(QComboBox& combo, const std::string& id);

} // namespace clscope::ui
