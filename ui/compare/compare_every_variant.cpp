#include "ui/compare/compare_every_variant.hpp"

#include "ui/compare/comparison_view.hpp"
#include "ui/kit/demo_window.hpp"
#include "ui/kit/workbench.hpp"

namespace clscope::ui {

void compareEveryVariant(Workbench& wb, const std::string& id) {
    auto* view = wb.parent() ? wb.parent()->findChild<ComparisonView*>() : nullptr;
    if (!view) return emit wb.demoFinished(false);
    showDockInTheMiddle(wb, "ComparePanel"); // the table gets the middle of the window
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
