#include "ui/app/window_summary.hpp"

#include "ui/app/main_window.hpp"
#include "ui/data/dataset_roles.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui/results/results_panel.hpp"

#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
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

bool holds(QLayoutItem* item, const QWidget* w) {
    if (!item) return false;
    if (item->widget() == w) return true;
    if (QLayout* inner = item->layout())
        for (int i = 0; i < inner->count(); ++i)
            if (holds(inner->itemAt(i), w)) return true;
    return false;
}

// A field's name as the form shows it ("Frame time (s)", "First frame": the row's label, the
// field alone or in a row of fields), else its object name.
QString fieldName(const QWidget& field) {
    for (const QWidget* w = &field; w && w->parentWidget(); w = w->parentWidget()) {
        auto* form = qobject_cast<QFormLayout*>(w->parentWidget()->layout());
        for (int r = 0; form && r < form->rowCount(); ++r) {
            if (!holds(form->itemAt(r, QFormLayout::FieldRole), w)) continue;
            QLayoutItem* label = form->itemAt(r, QFormLayout::LabelRole);
            if (auto* text = label ? qobject_cast<QLabel*>(label->widget()) : nullptr)
                return text->text().remove('&');
        }
    }
    return field.objectName().isEmpty() ? QString(field.metaObject()->className())
                                        : field.objectName();
}

// "spin box: NAME = VALUE at (SX, SY)": the first spin box shown and enabled on the panel in
// front, the screen point a click there puts the cursor in its text (scripts/gui_check wheels
// over it).
QString spinBoxLine(MainWindow& window) {
    const QString front = window.workbench().frontPanel();
    QDockWidget* dock = front.isEmpty() ? nullptr : window.dock("AlgorithmPanel_" + front);
    if (!dock) return "spin box: none (no panel in front)";
    for (QAbstractSpinBox* box : dock->findChildren<QAbstractSpinBox*>()) {
        if (!box->isVisible() || !box->isEnabled() || box->isReadOnly()) continue;
        const QPoint at = box->mapToGlobal(QPoint(8, box->height() / 2));
        return QString("spin box: %1 = %2 at (%3, %4)")
            .arg(fieldName(*box), box->text())
            .arg(at.x())
            .arg(at.y());
    }
    return "spin box: none on the " + front + " panel";
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
           << QString("result tabs: %1: %2").arg(titles.size()).arg(titles.join(", "))
           << spinBoxLine(window);
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
    QObject::connect(&wb.jobs(), &JobRunner::started, &window,
                     [](const QString& title) { print({"job started: " + title}); });
    // Every edit of a panel's number, however made (typed, arrows, the wheel): "field changed:
    // NAME = VALUE" (scripts/gui_check: the wheel over a field without focus changes nothing).
    for (QAbstractSpinBox* box : window.findChildren<QAbstractSpinBox*>()) {
        const auto changed = [box] {
            print({"field changed: " + fieldName(*box) + " = " + box->text()});
        };
        if (auto* spin = qobject_cast<QSpinBox*>(box))
            QObject::connect(spin, &QSpinBox::valueChanged, box, changed);
        else if (auto* real = qobject_cast<QDoubleSpinBox*>(box))
            QObject::connect(real, &QDoubleSpinBox::valueChanged, box, changed);
    }
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
