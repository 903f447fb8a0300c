#include "ui/app/main_window.hpp"
#include "ui/base/scrollable.hpp"

#include "core/errors.hpp"
#include "gpu/algorithm.hpp"
#include "ui/app/session.hpp"
#include "ui/compare/comparison_view.hpp"
#include "ui/data/data_browser.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/log_panel.hpp"
#include "ui/kit/wheel_guard.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/lab/lab_window.hpp"
#include "ui/mask/mask_panel.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui/results/results_panel.hpp"
#include "ui/results/timings_panel.hpp"
#include "ui/roi/roi_view.hpp"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QLayout>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {
// Bump when the panels change so an old saved layout is not applied to new docks.
constexpr int layoutVersion = 3;
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("clscope");
    setObjectName("clscopeMainWindow");
    setDockNestingEnabled(true);
    WheelGuard::install();
    buildPanels();
    session_ = new SessionManager(*this);
    buildStatusBar();
    buildMenus();
    arrangeDefaultLayout();
    defaultState_ = saveState(layoutVersion);
    restoreSettings();
    session_->restoreLastIfWanted();
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addPanel(const QString& objectName, const QString& title,
                                  QWidget* widget) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    return dock;
}

void MainWindow::buildPanels() {
    log_ = new LogPanel(this);
    image_ = new ImageView(this);
    devices_ = new DevicePicker({}, this);
    {
        QSettings settings; // the device and variants before the panels fill their choosers
        devices_->restoreSettings(settings);
    }
    results_ = new ResultsPanel(this);
    timings_ = new TimingsPanel(this);
    // The browser shows the workbench's dataset roles, so it is attached after.
    workbench_ = new Workbench(WorkbenchViews{image_, devices_, results_, timings_, log_}, this);
    data_ = new DataBrowser(workbench_->dataset(), this);
    workbench_->attachDataBrowser(data_);
    QBinLabels::of(*workbench_); // the labels in force, drawn from the first file opened
    addPanel("DataPanel", "Data", data_);
    addPanel("ImagePanel", "Image", image_);
    addPanel("DevicePanel", "Device", devices_);
    mask_ = new MaskPanel(*workbench_, this);
    addPanel("MaskPanel", "Mask", scrollable(mask_));
    for (const AlgorithmPanelSpec& spec : AlgorithmPanelRegistry::instance().panels()) {
        const QString owner = QString::fromStdString(spec.algorithm);
        QDockWidget* dock = addPanel("AlgorithmPanel_" + owner, spec.title,
                                     scrollable(spec.createPanel(*workbench_, this)));
        // In front (shown and raised): the panel's overlays and live work run.
        connect(dock, &QDockWidget::visibilityChanged, workbench_,
                [this, owner](bool shown) { workbench_->setPanelShown(owner, shown); });
        algorithmDocks_.push_back(dock);
    }
    compare_ = new ComparisonView(*workbench_, this);
    addPanel("ComparePanel", "Compare", scrollable(compare_));
    addPanel("ResultsPanel", "Results", results_);
    addPanel("TimingsPanel", "Timings", timings_);
    addPanel("LogPanel", "Log", log_);
    auto* roi = new RoiView(*workbench_, this);
    // Behind another dock, the ROI view stops drawing: clicks on the image pan again.
    connect(addPanel("RoiPanel", "ROI", scrollable(roi)), &QDockWidget::visibilityChanged, roi,
            [roi](bool shown) {
                if (!shown) roi->stopDrawing();
            });
    connect(workbench_, &Workbench::demoFinished, this, [this](bool ok) { demoOk_ = ok; });
    connect(workbench_, &Workbench::statusMessage, this,
            [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });
    // A file opened: its algorithm's panel in front, and the image when the file has frames.
    connect(workbench_, &Workbench::panelWanted, this, [this](const QString& algorithm) {
        if (QDockWidget* panel = dock("AlgorithmPanel_" + algorithm)) {
            panel->show();
            panel->raise();
        }
        if (workbench_->dataset().path(DataRole::Frames)) showImage();
    });
    connect(workbench_, &Workbench::fileOpened, this, [this](const QString& path) {
        addRecentFile(path);
        setWindowTitle("clscope — " + path);
    });
}

// 1600×1000, or less where the screen has less room (at 1280×800 the window overran it and
// the right dock was cut off).
namespace {
QSize defaultWindowSize(const QScreen* screen) {
    const QSize wanted(1600, 1000);
    // The offscreen platform (tests) has no screen to fit: the size the layout is made for.
    if (!screen || QGuiApplication::platformName() == "offscreen") return wanted;
    return wanted.boundedTo(screen->availableGeometry().size());
}
} // namespace

// Data over Device on the left; the Image (Compare tabbed behind it) in the middle with Log and
// Timings tabbed under it; algorithm panels (tabbed with the Mask editor) over Results on the
// right, so that an image and a result are seen side by side. Sizes read at 1600×1000 and up.
void MainWindow::arrangeDefaultLayout() {
    QDockWidget *data = dock("DataPanel"), *image = dock("ImagePanel"),
                *device = dock("DevicePanel");
    QDockWidget* mask = dock("MaskPanel");
    QDockWidget *results = dock("ResultsPanel"), *timings = dock("TimingsPanel"),
                *log = dock("LogPanel");
    QDockWidget* compare = dock("ComparePanel");
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        d->setFloating(false);
        d->show();
    }
    addDockWidget(Qt::LeftDockWidgetArea, data);
    addDockWidget(Qt::RightDockWidgetArea, results);
    splitDockWidget(data, image, Qt::Horizontal);
    splitDockWidget(data, device, Qt::Vertical);
    splitDockWidget(image, log, Qt::Vertical);
    tabifyDockWidget(image, compare);
    image->raise();
    tabifyDockWidget(log, timings);
    tabifyDockWidget(log, dock("RoiPanel"));
    log->raise();
    addDockWidget(Qt::RightDockWidgetArea, mask);
    splitDockWidget(mask, results, Qt::Vertical);
    for (QDockWidget* algorithm : algorithmDocks_)
        tabifyDockWidget(mask, algorithm);
    (algorithmDocks_.empty() ? mask : algorithmDocks_.front())->raise();
    // The docks stacked one under another while being placed made a window not yet shown
    // taller (1055 px): back to the default size before the fractions below.
    // So did the least size the layout gave the window then (887 px: the window overran a
    // 1280×800 screen whatever it was resized to): it is made again from the final arrangement.
    layout()->invalidate();
    layout()->activate();
    if (!isVisible()) resize(defaultWindowSize(screen()));
    // Fractions of the room the docks have (the window less menu, status bar and separators).
    const int w = std::max(width(), 1200) - 24, h = std::max(height(), 800) - 90;
    // Data at 24 %: its tree's names stay readable beside Shape, Type and Role (at 19 % the name
    // column, which takes what they leave, shrank to nothing).
    resizeDocks({data, image, results}, {w * 24 / 100, w * 43 / 100, w * 33 / 100}, Qt::Horizontal);
    resizeDocks({mask, results}, {h * 48 / 100, h * 52 / 100}, Qt::Vertical);
    resizeDocks({data, device}, {h * 45 / 100, h * 55 / 100}, Qt::Vertical);
    resizeDocks({image, log}, {h * 74 / 100, h * 26 / 100}, Qt::Vertical);
}

void MainWindow::resetLayout() {
    restoreState(defaultState_, layoutVersion);
    arrangeDefaultLayout();
}

void MainWindow::buildStatusBar() {
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    progress_->setTextVisible(true);
    progress_->hide();
    cancelButton_ = new QToolButton(this);
    cancelButton_->setText("Cancel");
    cancelButton_->setToolTip("Cancel the running job (Esc)");
    cancelButton_->hide();
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);
    JobRunner& runner = workbench_->jobs();
    connect(cancelButton_, &QToolButton::clicked, &runner, &JobRunner::cancel);
    // A job that reports no progress (generating a dataset) shows a busy bar and the seconds
    // it has run, not a percentage stuck at 0 %; its first report makes it a percentage.
    auto clock = std::make_shared<QElapsedTimer>();
    auto* tick = new QTimer(this);
    tick->setInterval(1000);
    auto title = std::make_shared<QString>();
    connect(tick, &QTimer::timeout, this, [this, clock, title] {
        if (progress_->maximum() == 0)
            progress_->setToolTip(QString("%1 — %2 s").arg(*title).arg(clock->elapsed() / 1000));
    });
    connect(&runner, &JobRunner::started, this, [this, clock, tick, title](const QString& text) {
        *title = text;
        clock->start();
        tick->start();
        progress_->setRange(0, 0);
        progress_->setFormat(text.left(40));
        progress_->setToolTip(text);
        progress_->show();
        cancelButton_->show();
    });
    connect(&runner, &JobRunner::progressed, this, [this, title](double fraction) {
        if (progress_->maximum() == 0) {
            if (fraction <= 0) return; // the runner's own 0 at the start is no report
            progress_->setRange(0, 1000);
            progress_->setFormat(title->left(40) + "  %p%");
        }
        progress_->setValue(static_cast<int>(fraction * 1000.0));
    });
    connect(&runner, &JobRunner::finished, this, [this, tick] {
        tick->stop();
        progress_->hide();
        cancelButton_->hide();
    });
    statusBar()->showMessage("Ready — File ▸ Open (Ctrl+O) or Generate synthetic dataset (Ctrl+G)");
}

QDockWidget* MainWindow::dock(const QString& objectName) const {
    return findChild<QDockWidget*>(objectName, Qt::FindDirectChildrenOnly);
}

bool MainWindow::openFile(const QString& path) {
    return workbench_->openFile(path);
}

void MainWindow::focusMaskPanel() {
    showImage(); // the editor draws on it
    QDockWidget* mask = dock("MaskPanel");
    mask->show();
    mask->raise();
    mask_->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::showImage() {
    QDockWidget *image = dock("ImagePanel"), *results = dock("ResultsPanel");
    if (tabifiedDockWidgets(image).contains(results)) {
        removeDockWidget(results);
        addDockWidget(Qt::RightDockWidgetArea, results, Qt::Vertical);
        results->show();
    }
    image->show();
    image->raise();
}

LabWindow* MainWindow::showLab() {
    if (!lab_) {
        lab_ = new LabWindow(this);
        // A saved user variant changes what the panels offer: they refill their variant
        // pickers as on a device change.
        connect(lab_, &LabWindow::userVariantSaved, workbench_, &Workbench::deviceChanged);
        // Opened first on the panel in front: its algorithm and chosen variant.
        if (const QString front = workbench_->frontPanel(); !front.isEmpty())
            lab_->choose(front, QString::fromStdString(workbench_->variant(front.toStdString())));
    }
    lab_->show();
    lab_->raise();
    lab_->activateWindow();
    return lab_;
}

// A demo started; false with the reason where its set-up refused (a bad CLSCOPE_DEMO_OPTIONS).
bool MainWindow::startedDemo(const std::function<void(Workbench&)>& start, QString* error) {
    try {
        start(*workbench_);
        return true;
    } catch (const UsageError& e) {
        *error = e.what();
        return false;
    }
}

bool MainWindow::startDemo(const QString& algorithm, QString* error) {
    const std::string name = algorithm.toStdString();
    if (name == "compare") {
        for (const AlgorithmPanelSpec& spec : AlgorithmPanelRegistry::instance().panels())
            if (spec.startCompareDemo) return startedDemo(spec.startCompareDemo, error);
        *error = "no algorithm has a comparison demo";
        return false;
    }
    if (!AlgorithmRegistry::instance().get(name)) {
        std::string ids;
        for (const std::string& id : AlgorithmRegistry::instance().ids())
            ids += id + ", ";
        *error = "unknown algorithm '" + algorithm + "'; expected " + QString::fromStdString(ids) +
                 "or compare";
        return false;
    }
    const AlgorithmPanelSpec* spec = AlgorithmPanelRegistry::instance().find(name);
    if (!spec || !spec->startDemo) {
        *error =
            "the " + algorithm + " algorithm is not implemented yet, so there is no demo to run";
        return false;
    }
    return startedDemo(spec->startDemo, error);
}

void MainWindow::screenshotWhenSettled(const QString& path, std::function<void(bool)> done) {
    // Settled: no job for a few consecutive ticks (a demo may queue a run after generating).
    auto* timer = new QTimer(this);
    auto idleTicks = std::make_shared<int>(0);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    connect(timer, &QTimer::timeout, this, [this, timer, idleTicks, clock, path, done] {
        *idleTicks = workbench_->jobs().isBusy() ? 0 : *idleTicks + 1;
        if (*idleTicks < 4 && clock->elapsed() < 600000) return;
        timer->stop();
        timer->deleteLater();
        raiseDocksNamedInEnvironment();
        done(grab().save(path, "PNG"));
    });
    timer->start(250);
}

// CLSCOPE_SCREENSHOT_DOCKS="TimingsPanel,ComparePanel": docks brought to the front before a
// screenshot (docs/screenshots, scripts/gui_walk).
void MainWindow::raiseDocksNamedInEnvironment() {
    for (const QString& name :
         qEnvironmentVariable("CLSCOPE_SCREENSHOT_DOCKS").split(',', Qt::SkipEmptyParts))
        if (QDockWidget* d = dock(name.trimmed())) {
            d->show();
            d->raise();
        }
    QCoreApplication::processEvents();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!session_->confirmClose()) {
        event->ignore();
        return;
    }
    workbench_->jobs().cancel();
    saveSettings();
    event->accept();
}

void MainWindow::saveSettings() const {
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState(layoutVersion));
    s.setValue("files/recent", recentFiles_);
    image_->saveSettings(s);
    devices_->saveSettings(s);
}

void MainWindow::restoreSettings() {
    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    // A size saved on a larger screen is not kept past this one's room (at 1280x800 a saved
    // 1600x1000 window overran it).
    if (screen() && QGuiApplication::platformName() != "offscreen")
        resize(size().boundedTo(screen()->availableGeometry().size()));
    restoreState(s.value("window/state").toByteArray(), layoutVersion);
    recentFiles_ = s.value("files/recent").toStringList();
    buildRecentMenu();
    image_->restoreSettings(s);
    devices_->restoreSettings(s);
}

std::map<QString, QCustomPlot*> MainWindow::exportablePlots() const {
    std::map<QString, QCustomPlot*> plots{{"Image", image_->plot()},
                                          {"Timings", timings_->chart()}};
    for (const ResultTab& tab : results_->tabs())
        if (tab.plot) plots["Result: " + tab.title] = tab.plot;
    return plots;
}

} // namespace clscope::ui
