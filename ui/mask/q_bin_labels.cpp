#include "ui/mask/q_bin_labels.hpp"

#include "core/input/units.hpp"
#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "ui/base/q_unit.hpp"
#include "ui/base/qstring.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/workbench.hpp"

#include <cmath>

namespace clscope::ui {

QString labelCentreText(std::int32_t label, const mask::LabelCenters* centres) {
    QString text = QString("q bin %1").arg(label);
    if (!centres) return text;
    for (std::size_t k = 0; k < centres->labelIds.size(); ++k) {
        if (centres->labelIds[k] != label) continue;
        if (k < centres->q.size()) text += ": q̄ " + qText(centres->q[k]);
        if (k < centres->phi.size() && !std::isnan(centres->phi[k]))
            text += QString(", φ̄ %1°").arg(centres->phi[k], 0, 'f', 1);
        break;
    }
    return text;
}

QBinLabels& QBinLabels::of(Workbench& workbench) {
    auto* labels = workbench.findChild<QBinLabels*>(QString(), Qt::FindDirectChildrenOnly);
    return labels ? *labels : *new QBinLabels(workbench);
}

QBinLabels::QBinLabels(Workbench& workbench) : QObject(&workbench), wb_(workbench) {
    // The labels in force are the ones drawn and read under the cursor (the mask editor's once
    // it has applied a partition); results made with others are stale.
    connect(this, &QBinLabels::changed, this, [this] {
        wb_.results().markStale();
        show();
    });
    connect(&wb_, &Workbench::roleChanged, this, &QBinLabels::roleShown);
}

// Frames shown: the labels drawn over them; the file's labels changed: they are in force
// unless the mask editor's are.
void QBinLabels::roleShown(DataRole role) {
    if (!wb_.dataset().path(role)) return;
    try {
        if (role == DataRole::Frames) show();
        if (role == DataRole::Labels && !edited_.mask) emit changed();
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("cannot show %1: %2").arg(q(roleName(role)), e.what()));
    }
}

// The current labels as the "q bins" overlay with contours, when they fit the image.
void QBinLabels::show() {
    const CurrentLabels labels = current();
    ImageView& image = wb_.image();
    ImagePresenter& shown = image.presenter();
    if (!labels.mask || !shown.hasImage() || shown.image().width != labels.mask->width ||
        shown.image().height != labels.mask->height) {
        if (image.overlay("q bins")) image.removeOverlay("q bins");
        return;
    }
    OverlayData overlay;
    overlay.name = "q bins";
    overlay.width = labels.mask->width;
    overlay.height = labels.mask->height;
    overlay.labels = labels.mask->labels;
    overlay.opacity = 0.3;
    overlay.contours = true;
    overlay.labelText = [centres = labels.centres](std::int32_t label) {
        return labelCentreText(label, centres ? &*centres : nullptr);
    };
    wb_.setOverlay(std::move(overlay));
}

void QBinLabels::setEdited(CurrentLabels labels) {
    edited_ = std::move(labels);
    emit changed();
}

CurrentLabels QBinLabels::current() const {
    if (edited_.mask) return edited_;
    const auto& roles = wb_.dataset();
    const auto path = roles.path(DataRole::Labels);
    const std::shared_ptr<const H5Reader> file = roles.file();
    if (!path || !file) return {};
    const std::string key = file->where(*path);
    if (fileLabels_ && fileLabels_->file.lock() == file && fileLabels_->key == key)
        return fileLabels_->labels;
    CurrentLabels labels{std::make_shared<const LabelMask>(readLabels(*file, *path)), std::nullopt,
                         q(key)};
    if (*path == paths::qmask) labels.centres = mask::readLabelCenters(*file);
    if (labels.centres) { // q in nm⁻¹ (the mask editor's unit) from qmask_q's units, as read()
        const double toInverseAngstrom = units::datasetFactor(
            *file, mask::paths::qmaskQ, units::Quantity::InverseLength, 0.1, "1/nm (pyFAI)");
        for (double& v : labels.centres->q)
            v = v * toInverseAngstrom * 10;
    }
    fileLabels_ = FileLabels{file, key, labels};
    return labels;
}

} // namespace clscope::ui
