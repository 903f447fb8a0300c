#include "ui/kit/variant_combo.hpp"
#include "ui/base/qstring.hpp"

#include "gpu/runtime/devices.hpp"
#include "gpu/variant/user_variants.hpp"
#include "ui/kit/workbench.hpp"

#include <QComboBox>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <algorithm>

namespace clscope::ui {

std::vector<VariantChoice> variantChoices(const Algorithm& algorithm, const DeviceInfo& device,
                                          const AlgorithmInput* input, const ParamSet* params) {
    std::vector<VariantChoice> out;
    for (const VariantEntry& v : algorithm.variants()) {
        const bool onHost = v.info.kind == VariantKind::Host && !device.isHost();
        const Support s = algorithm.supports(v, onHost ? hostDevice() : device, input, params);
        out.push_back({v.info.id, v.info.label, s.ok, s.reason, onHost});
    }
    // The user's variants (the kernel lab's forks) run as their base variant, checked as it is.
    for (const UserVariant& u : listUserVariants(algorithm.id())) {
        const auto base = std::find_if(out.begin(), out.end(),
                                       [&](const VariantChoice& c) { return c.id == u.base; });
        if (base == out.end()) continue;
        out.push_back({u.id(), "the user's fork of " + u.base + " (" + u.program + ")",
                       base->enabled, base->reason, base->onHost});
    }
    return out;
}

bool fillVariantCombo(QComboBox& combo, const std::vector<VariantChoice>& choices,
                      const std::string& previous, const std::string& fallback) {
    const QSignalBlocker block(&combo);
    combo.clear();
    auto* model = qobject_cast<QStandardItemModel*>(combo.model());
    for (const VariantChoice& v : choices) {
        combo.addItem(q(v.id + (v.onHost ? " (on the host)" : "")), q(v.id));
        QStandardItem* item = model->item(combo.count() - 1);
        item->setEnabled(v.enabled);
        item->setToolTip(v.enabled ? q(v.label) : q(v.label + " — cannot run here: " + v.reason));
    }
    const auto usable = [&](int i) { return i >= 0 && model->item(i)->isEnabled(); };
    const int index = combo.findData(q(previous));
    const bool kept = usable(index);
    int chosen = kept ? index : combo.findData(q(fallback));
    // Neither usable (e.g. a dense variant once multi-tau is ticked): the first that can run
    // here, one on the device before one on the host.
    for (int pass = 0; pass < 2 && !usable(chosen); ++pass)
        for (int i = 0; i < combo.count() && !usable(chosen); ++i)
            if (usable(i) && (pass == 1 || !choices[std::size_t(i)].onHost)) chosen = i;
    combo.setCurrentIndex(std::max(0, chosen));
    return kept;
}

std::string comboVariant(const QComboBox& combo) {
    return combo.currentData().toString().toStdString();
}

void selectComboVariant(QComboBox& combo, const std::string& id) {
    if (combo.findData(q(id)) < 0) combo.addItem(q(id + " (unknown)"), q(id));
    combo.setCurrentIndex(combo.findData(q(id)));
}

bool chooseComboVariant(QComboBox& combo, const std::string& id) {
    const int index = combo.findData(q(id));
    const auto* model = qobject_cast<QStandardItemModel*>(combo.model());
    if (index < 0 || !model->item(index)->isEnabled()) return false;
    combo.setCurrentIndex(index);
    return true;
}

QComboBox* makeVariantCombo(Workbench& wb, const std::string& algorithm, QWidget* parent) {
    auto* combo = new QComboBox(parent);
    combo->setObjectName(q("variant:" + algorithm));
    combo->setToolTip("Variant Run uses; greyed ones cannot run on this device (tooltip says why)");
    // Refills block the signals: only the user's choice (or a panel's setVariant) is remembered.
    QObject::connect(combo, &QComboBox::currentIndexChanged, combo, [&wb, algorithm, combo] {
        wb.rememberVariant(algorithm, comboVariant(*combo));
    });
    return combo;
}

void refillVariants(QComboBox& combo, const Workbench& wb, const Algorithm& algorithm,
                    const ParamSet& params) {
    const DeviceInfo& device = wb.device();
    const std::string previous = combo.count() ? comboVariant(combo) : wb.variant(algorithm.id());
    fillVariantCombo(combo, variantChoices(algorithm, device, nullptr, &params), previous,
                     algorithm.defaultVariant(device, nullptr, &params));
}

} // namespace clscope::ui
