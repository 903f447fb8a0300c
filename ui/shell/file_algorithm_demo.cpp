// `clscope --demo ID` for an algorithm without a panel of its own (none of the four; a new one
// until its panel exists): its first synthetic kind generated and opened, then every variant the
// current devices can run compared in the Compare dock, with the generic parameter form's
// values. Names no algorithm.
#include "gpu/algorithm.hpp"
#include "ui/compare/comparison_view.hpp"
#include "ui/data/generate_request.hpp"
#include "ui/shell/algorithm_panels.hpp"
#include "ui/shell/workbench.hpp"

#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QStandardPaths>

namespace clscope::ui {

namespace {

// The Compare dock where the image was, so that the table has the middle of the window.
void raiseCompareDock(Workbench& wb) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    if (!window) return;
    auto *image = window->findChild<QDockWidget*>("ImagePanel"),
         *dock = window->findChild<QDockWidget*>("ComparePanel");
    if (!image || !dock) return;
    window->tabifyDockWidget(image, dock);
    dock->show();
    dock->raise();
}

} // namespace

void compareEveryVariant(Workbench& wb, const std::string& id) {
    auto* view = wb.parent() ? wb.parent()->findChild<ComparisonView*>() : nullptr;
    if (!view) return emit wb.demoFinished(false);
    raiseCompareDock(wb);
    view->setAlgorithm(id);
    if (!view->refreshInput()) return emit wb.demoFinished(false);
    view->presenter()->checkAllSupported();
    QObject::connect(
        view, &ComparisonView::runFinished, view,
        [&wb, view](bool completed) {
            bool ok = completed;
            for (const ComparisonRow& row : view->presenter()->rows())
                ok = ok && row.error.empty();
            emit wb.demoFinished(ok);
        },
        Qt::SingleShotConnection);
    if (!view->run()) emit wb.demoFinished(false);
}

void startFileAlgorithmDemo(Workbench& wb, const std::string& id) {
    const QString path = QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation))
                             .filePath(QString::fromStdString("clscope-demo-" + id + ".h5"));
    wb.generateAndOpen(demoRequest(id), path, [&wb, id] { compareEveryVariant(wb, id); });
}

} // namespace clscope::ui
