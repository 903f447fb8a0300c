#include "ui/app/window_summary.hpp"

#include "ui/app/main_window.hpp"
#include "ui/data/dataset_roles.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui/results/results_panel.hpp"

#include <QTimer>
#include <cmath>
#include <iostream>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

QString labelsLine(const CurrentLabels& labels) {
    if (!labels.mask) return "labels: none";
    const QString count =
        labels.centres ? QString::number(labels.centres->labelIds.size()) : QString("?");
    return QString("labels: %1 from %2").arg(count, labels.origin);
}

QString overlaysLine(ImageView& image) {
    QStringList names;
    for (const QString& name : image.overlayNames()) {
        const OverlayLayer* layer = image.overlay(name);
        names << name + (layer && !layer->isVisible() ? " (hidden)" : "");
    }
    return "overlays: " + names.join(", ");
}

// The image point the summary reads: three quarters of the width, half the height.
QPointF readoutPoint(const Image& shown) {
    return {std::floor(0.75 * static_cast<double>(shown.width)) + 0.5,
            std::floor(0.5 * static_cast<double>(shown.height)) + 0.5};
}

QStringList readoutLines(ImageView& image) {
    if (!image.presenter().hasImage()) return {"readout: no image"};
    const QPointF p = readoutPoint(image.presenter().image());
    const QString pixel = QString("(%1, %2)").arg(p.x()).arg(p.y());
    const QString readout = "readout at " + pixel + ": " + image.readoutAt(p.x(), p.y());
    QCustomPlot* plot = image.plot();
    if (!plot->isVisible()) return {readout, "pixel " + pixel + " not on the screen"};
    const QPoint screen = plot->mapToGlobal(
        QPoint(qRound(plot->xAxis->coordToPixel(p.x())), qRound(plot->yAxis->coordToPixel(p.y()))));
    return {
        readout,
        QString("pixel %1 on the screen at (%2, %3)").arg(pixel).arg(screen.x()).arg(screen.y())};
}

void print(const QStringList& lines) {
    for (const QString& line : lines)
        std::cout << "window: " << line.toStdString() << "\n";
    std::cout << std::flush;
}

// "window: EVENT" and the summary, once the events of the change have been handled.
void printLater(MainWindow& window, const QString& event) {
    QTimer::singleShot(0, &window,
                       [&window, event] { print(QStringList{event} + windowSummary(window)); });
}

} // namespace

QStringList windowSummary(MainWindow& window) {
    Workbench& wb = window.workbench();
    QStringList titles;
    for (const ResultTab& tab : wb.results().tabs())
        titles << tab.title + (tab.stale ? " (stale)" : "");
    return QStringList{"file: " + QString::fromStdString(wb.dataset().fileName()),
                       labelsLine(QBinLabels::of(wb).current()), overlaysLine(wb.image())}
           << readoutLines(wb.image())
           << QString("result tabs: %1: %2").arg(titles.size()).arg(titles.join(", "));
}

void logWindowChanges(MainWindow& window) {
    Workbench& wb = window.workbench();
    QObject::connect(&wb, &Workbench::demoFinished, &window, [&window](bool ok) {
        printLater(window, QString("demo finished: ") + (ok ? "ok" : "failed"));
    });
    QObject::connect(&QBinLabels::of(wb), &QBinLabels::changed, &window,
                     [&window] { printLater(window, "labels changed"); });
    QObject::connect(&wb, &Workbench::fileOpened, &window,
                     [&window] { printLater(window, "file opened"); });
    QObject::connect(&wb.jobs(), &JobRunner::succeeded, &window,
                     [&window](const QString& title) { printLater(window, "job done: " + title); });
    QObject::connect(&wb, &Workbench::panelActiveChanged, &window,
                     [&window](const QString& owner, bool active) {
                         printLater(window, "panel " + owner + (active ? " active" : " inactive"));
                     });
    QObject::connect(&wb.image(), &ImageView::readoutChanged, &window,
                     [](const QString& text) { print({"readout under the cursor: " + text}); });
}

} // namespace clscope::ui
