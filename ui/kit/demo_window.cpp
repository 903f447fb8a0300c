#include "ui/kit/demo_window.hpp"

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

void showResultTab(Workbench& wb, const QString& title) {
    QTabWidget* tabs = wb.results().tabWidget();
    for (int i = 0; !title.isEmpty() && i < tabs->count(); ++i)
        if (tabs->tabText(i) == title) tabs->setCurrentIndex(i);
}

} // namespace clscope::ui
