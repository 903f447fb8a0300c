#include "ui/kit/panel_run.hpp"

#include "ui/kit/workbench.hpp"

namespace clscope::ui {

void reportPanelError(Workbench& wb, const QString& title, const QString& why) {
    wb.log(LogLevel::Error, QString("%1: %2").arg(title, why));
    emit wb.statusMessage(QString("%1: %2").arg(title, why), 8000);
}

bool submitPanelRun(Workbench& wb, const QString& title, bool busy,
                    const std::function<std::optional<Job>()>& makeJob) {
    if (busy) {
        wb.log(LogLevel::Warning, title + ": a run is in progress; wait for it or cancel it (Esc)");
        return false;
    }
    std::optional<Job> job;
    try {
        job = makeJob();
    } catch (const std::exception& e) {
        reportPanelError(wb, title, e.what());
        return false;
    }
    return job && wb.submit(std::move(*job));
}

} // namespace clscope::ui
