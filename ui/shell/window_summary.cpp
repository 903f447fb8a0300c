#include "ui/shell/window_summary.hpp"

#include "ui/data/dataset_roles.hpp"
#include "ui/image/image_view.hpp"
#include "ui/results/results_panel.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/workbench.hpp"

#include <cmath>

namespace clscope::ui {

namespace {

QString labelsLine(const CurrentLabels& labels) {
    if (!labels.mask) return "labels: none";
    const QString count =
        labels.centres ? QString::number(labels.centres->labelIds.size()) : QString("?");
    return QString("labels: %1 from %2").arg(count, labels.origin);
}

QString readoutLine(ImageView& image) {
    if (!image.presenter().hasImage()) return "readout: no image";
    const Image& shown = image.presenter().image();
    const double x = std::floor(0.75 * static_cast<double>(shown.width)) + 0.5;
    const double y = std::floor(0.5 * static_cast<double>(shown.height)) + 0.5;
    return QString("readout at (%1, %2): %3").arg(x).arg(y).arg(image.readoutAt(x, y));
}

} // namespace

QStringList windowSummary(MainWindow& window) {
    Workbench& wb = window.workbench();
    QStringList titles;
    for (const ResultTab& tab : wb.results().tabs())
        titles << tab.title;
    return {"file: " + QString::fromStdString(wb.dataset().fileName()),
            labelsLine(wb.currentLabels()), "overlays: " + wb.image().overlayNames().join(", "),
            readoutLine(wb.image()),
            QString("result tabs: %1: %2").arg(titles.size()).arg(titles.join(", "))};
}

} // namespace clscope::ui
