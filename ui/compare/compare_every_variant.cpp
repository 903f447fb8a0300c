#include "ui/compare/compare_every_variant.hpp"

#include "ui/compare/comparison_view.hpp"
#include "ui/kit/workbench.hpp"

#include <QDockWidget>
#include <QMainWindow>

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

} // namespace clscope::ui
