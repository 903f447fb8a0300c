#include "ui/kit/demo_window.hpp"

#include "core/params.hpp"
#include "ui/kit/workbench.hpp"

#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QStandardPaths>
#include <QTabWidget>

namespace clscope::ui {

QString demoPath(const QString& fileName) {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation)).filePath(fileName);
}

void generateDemo(Workbench& wb, GenerateRequest request, const QString& fileName,
                  std::function<void()> then) {
    const QByteArray options = qgetenv("CLSCOPE_DEMO_OPTIONS");
    if (!options.isEmpty())
        request.options.merge(parseParamsText(options.toStdString(), "CLSCOPE_DEMO_OPTIONS"),
                              "CLSCOPE_DEMO_OPTIONS");
    wb.generateAndOpen(request, demoPath(fileName), std::move(then));
}

QDockWidget* demoDock(Workbench& wb, const QString& name) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    return window ? window->findChild<QDockWidget*>(name) : nullptr;
}

QDockWidget* showDockInTheMiddle(Workbench& wb, const QString& name) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    QDockWidget *image = demoDock(wb, "ImagePanel"), *dock = demoDock(wb, name);
    if (!window || !image || !dock) return nullptr;
    window->tabifyDockWidget(image, dock);
    dock->show();
    dock->raise();
    return dock;
}

void widenDocks(Workbench& wb, const QStringList& names, const QList<double>& fractions) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    QList<QDockWidget*> docks;
    for (const QString& name : names)
        docks << demoDock(wb, name);
    if (!window || docks.contains(nullptr)) return;
    QMetaObject::invokeMethod(
        window,
        [window, docks, fractions] {
            QList<int> widths;
            for (double fraction : fractions)
                widths << int(window->width() * fraction);
            window->resizeDocks(docks, widths, Qt::Horizontal);
        },
        Qt::QueuedConnection);
}

void showResultTab(Workbench& wb, const QString& title) {
    QTabWidget* tabs = wb.results().tabWidget();
    for (int i = 0; !title.isEmpty() && i < tabs->count(); ++i)
        if (tabs->tabText(i) == title) tabs->setCurrentIndex(i);
}

} // namespace clscope::ui
