// The main window's menus and the actions behind them (open, recent files, open stream, generate,
// export plot / results / timings, quit, cancel, panels).
#include "ui/app/main_window.hpp"

#include "core/errors.hpp"
#include "gpu/algorithm.hpp"

#include "ui/app/export_plot_dialog.hpp"
#include "ui/app/generate_dialog.hpp"
#include "ui/app/session.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/results/export.hpp"
#include "ui/results/results_panel.hpp"
#include "ui/results/timings_panel.hpp"
#include "ui/stream/live_view.hpp"
#include "ui/stream/open_stream_dialog.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {
constexpr int maxRecentFiles = 10;
} // namespace

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Open…", QKeySequence::Open, this, &MainWindow::openFileDialog);
    recentMenu_ = file->addMenu("Open &recent");
    file->addAction("Open &stream…", this, [this] {
        if (const QString endpoint = askStreamEndpoint(this); !endpoint.isEmpty())
            openLiveWindow(*workbench_, endpoint, this);
    });
    file->addAction("&Generate synthetic dataset…", QKeySequence(Qt::CTRL | Qt::Key_G), this,
                    &MainWindow::generateDialog);
    file->addSeparator();
    file->addAction("Export &plot…", QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    &MainWindow::exportPlotDialog);
    file->addAction("Export &results…", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                    &MainWindow::exportResultsDialog);
    file->addAction("Export &all fresh results…", this, &MainWindow::exportAllFreshDialog);
    file->addAction("Export &timings (CSV)…", this, &MainWindow::exportTimingsDialog);
    file->addSeparator();
    file->addAction("&Save session…", QKeySequence::Save, session_, &SessionManager::saveDialog);
    file->addAction("Open sess&ion…", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), session_,
                    &SessionManager::openDialog);
    QAction* restore = file->addAction("Restore last session on start");
    restore->setCheckable(true);
    restore->setChecked(session_->restoreOnStart());
    connect(restore, &QAction::toggled, session_, &SessionManager::setRestoreOnStart);
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu("&Run");
    // Esc stops both kinds of long work: the algorithm run and the image view's frame reduction.
    run->addAction("&Cancel running job", QKeySequence(Qt::Key_Escape), this, [this] {
        workbench_->jobs().cancel();
        workbench_->image().cancelReduction();
    });

    QMenu* image = menuBar()->addMenu("&Image");
    QSlider* slider = image_->controls()->frameSlider();
    image->addAction("&Next frame", QKeySequence(Qt::Key_PageDown), this,
                     [slider] { slider->setValue(slider->value() + 1); });
    image->addAction("&Previous frame", QKeySequence(Qt::Key_PageUp), this,
                     [slider] { slider->setValue(slider->value() - 1); });
    image->addAction("&Fit image", QKeySequence(Qt::CTRL | Qt::Key_0), image_,
                     &ImageView::fitImage);

    viewMenu_ = menuBar()->addMenu("&View");
    for (QDockWidget* d : findChildren<QDockWidget*>())
        viewMenu_->addAction(d->toggleViewAction());
    viewMenu_->addSeparator();
    viewMenu_->addAction("&Mask editor", QKeySequence(Qt::CTRL | Qt::Key_M), this,
                         &MainWindow::focusMaskPanel);
    viewMenu_->addAction("&Kernel lab", QKeySequence(Qt::CTRL | Qt::Key_L), this,
                         &MainWindow::showLab);
    viewMenu_->addAction("&Reset layout", this, &MainWindow::resetLayout);
    // Rings at a few d values on diffraction images whose geometry is known (kept across
    // restarts); the panel they belong to draws them while it is in front.
    QAction* rings = viewMenu_->addAction("Resolution &rings");
    rings->setObjectName("ResolutionRings");
    rings->setCheckable(true);
    rings->setChecked(QSettings().value("view/resolutionRings", false).toBool());
    workbench_->setResolutionRingsShown(rings->isChecked());
    connect(rings, &QAction::toggled, workbench_, [this](bool on) {
        QSettings().setValue("view/resolutionRings", on);
        workbench_->setResolutionRingsShown(on);
    });
    // A pinned panel keeps its overlays and live work while another panel is in front.
    QMenu* pin = viewMenu_->addMenu("&Pin overlay");
    for (const AlgorithmPanelSpec& spec : AlgorithmPanelRegistry::instance().panels()) {
        QAction* action = pin->addAction(spec.title);
        action->setObjectName(QString::fromStdString("PinOverlay_" + spec.algorithm));
        action->setCheckable(true);
        connect(action, &QAction::toggled, workbench_,
                [this, owner = QString::fromStdString(spec.algorithm)](bool on) {
                    workbench_->setPanelPinned(owner, on);
                });
    }

    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&About clscope", this, [this] {
        QStringList labels; // the registered algorithms, as they describe themselves
        for (const auto& algorithm : AlgorithmRegistry::instance().all())
            labels << QString::fromStdString(algorithm->label());
        QMessageBox::about(this, "About clscope",
                           "clscope — a workbench for GPU algorithms on detector data:\n" +
                               labels.join("\n"));
    });
}

void MainWindow::buildRecentMenu() {
    recentMenu_->clear();
    for (const QString& path : recentFiles_)
        recentMenu_->addAction(path, this, [this, path] { openFile(path); });
    recentMenu_->setEnabled(!recentFiles_.isEmpty());
}

void MainWindow::addRecentFile(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recentFiles_.removeAll(absolute);
    recentFiles_.prepend(absolute);
    while (recentFiles_.size() > maxRecentFiles)
        recentFiles_.removeLast();
    buildRecentMenu();
}

void MainWindow::openFileDialog() {
    const QString start =
        recentFiles_.isEmpty() ? QString() : QFileInfo(recentFiles_.front()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, "Open file", start,
        "Frames and results (*.h5 *.hdf5 *.nxs *.hdf *.bin);;HDF5 files (*.h5 *.hdf5 *.nxs *.hdf);;"
        "Rigaku 500k event files (*.bin);;All files (*)");
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::generateDialog() {
    GenerateDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    workbench_->generateAndOpen(dialog.request(), dialog.outputPath());
}

// Run an export; its error goes to the Log and a message box, success to the status bar.
static void tryExport(MainWindow* window, Workbench& workbench, const QString& what,
                      const std::function<void()>& f) {
    try {
        f();
        workbench.log(LogLevel::Info, "exported " + what);
        window->statusBar()->showMessage("Exported " + what, 6000);
    } catch (const std::exception& e) {
        workbench.log(LogLevel::Error, QString("export of %1 failed: %2").arg(what, e.what()));
        QMessageBox::warning(window, "Export failed", e.what());
    }
}

// The plot chosen, at its size on screen by default; a result's plot with its provenance.
void MainWindow::exportPlotDialog() {
    const auto plots = exportablePlots();
    QStringList names;
    for (const auto& [name, plot] : plots)
        names << name;
    const ResultTab* current = results_->currentTab();
    const QString shown = current && current->plot ? "Result: " + current->title : "Image";
    ExportPlotDialog dialog(names, shown, this);
    if (const QSize size = plots.at(shown)->size(); size.width() >= 100 && size.height() >= 100)
        dialog.setSize(size.width(), size.height());
    if (dialog.exec() != QDialog::Accepted) return;
    QCustomPlot* plot = plots.at(dialog.plotName());
    ProvenanceFields fields = provenanceFields(dialog.plotName(), {}, {});
    for (const ResultTab& tab : results_->tabs())
        if (tab.plot == plot) fields = results_->provenance(tab);
    tryExport(this, *workbench_, dialog.path(), [&] {
        exportPlot(*plot, dialog.path(), dialog.plotWidth(), dialog.plotHeight(), fields,
                   "clscope: " + dialog.plotName());
    });
}

// The file dialog's filter of each layout the result offers, with its layout's name.
static std::vector<std::pair<QString, std::string>> layoutFilters(const LayoutExport& layouts) {
    std::vector<std::pair<QString, std::string>> out;
    for (const OutputLayout& l : layouts.layouts)
        out.emplace_back(QString("%1, --layout %2 (*.%3)")
                             .arg(QString::fromStdString(l.help), QString::fromStdString(l.name),
                                  QString::fromStdString(layouts.suffix(l.name))),
                         l.name);
    return out;
}

// The tab shown, in the format of the suffix (or the layout of the filter chosen), never held
// back by another tab.
void MainWindow::exportResultsDialog() {
    if (!results_->currentTab()) {
        statusBar()->showMessage("There are no results to export yet: run an algorithm first",
                                 6000);
        return;
    }
    const auto layouts = layoutFilters(results_->layoutsShown());
    QStringList filters{"HDF5, clscope's layout (*.h5)"};
    for (const auto& [filter, name] : layouts)
        filters << filter;
    filters << "CSV (*.csv)"
            << "PNG (*.png)"
            << "PDF (*.pdf)";
    QString chosen;
    const QString path = QFileDialog::getSaveFileName(this, "Export the result shown", "results.h5",
                                                      filters.join(";;"), &chosen);
    if (path.isEmpty()) return;
    for (const auto& [filter, name] : layouts)
        if (filter == chosen)
            return tryExport(this, *workbench_, path,
                             [&, name = name] { results_->exportShownAs(path, name); });
    tryExport(this, *workbench_, path, [&] { results_->exportShown(path); });
}

// One file per fresh tab into a folder; the stale ones are listed, not written.
void MainWindow::exportAllFreshDialog() {
    const QString folder = QFileDialog::getExistingDirectory(this, "Export all fresh results");
    if (folder.isEmpty()) return;
    tryExport(this, *workbench_, folder, [&] {
        const ExportSummary summary = results_->exportAllFresh(folder);
        if (summary.written.isEmpty())
            throw UsageError("no fresh result to export" +
                             (summary.skipped.isEmpty()
                                  ? std::string()
                                  : " (stale: " + summary.skipped.join(", ").toStdString() + ")"));
        QString text = QString("%1 files written").arg(summary.written.size());
        if (!summary.skipped.isEmpty())
            text += "; skipped (stale or nothing to write): " + summary.skipped.join(", ");
        workbench_->log(LogLevel::Info, text);
    });
}

void MainWindow::exportTimingsDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, "Export timings", "timings.csv", "CSV (*.csv)");
    if (!path.isEmpty()) tryExport(this, *workbench_, path, [&] { timings_->exportCsv(path); });
}

} // namespace clscope::ui
