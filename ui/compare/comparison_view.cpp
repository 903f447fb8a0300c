// ComparisonView: the grid side (algorithm, input, grid, Run/Cancel, progress). The results
// side (table, chart, difference view, export): comparison_results.cpp.
#include "ui/compare/comparison_view.hpp"
#include "ui/base/qstring.hpp"

#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui/results/timings_panel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace clscope::ui {

ComparisonView::ComparisonView(Workbench& workbench, QWidget* parent)
    : QWidget(parent), wb_(workbench) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    stale_ = new QLabel(
        "These results are stale: the file, dataset, labels or parameters changed since they "
        "ran. Run again to refresh them; Export refuses stale results.",
        this);
    stale_->setWordWrap(true);
    stale_->setStyleSheet(
        "background: #fff3c4; color: #5c4400; padding: 4px; border: 1px solid #e0c060");
    stale_->hide();
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(buildGridSide());
    splitter->addWidget(buildResultsSide());
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 4);
    splitter->setSizes({230, 920});
    keepResultsReadable();
    layout->addWidget(stale_);
    layout->addWidget(splitter, 1);
    auto* runKey = new QShortcut(QKeySequence("Ctrl+R"), this, [this] { run(); });
    runKey->setContext(Qt::WidgetWithChildrenShortcut);
    for (const AlgorithmPanelSpec& s : AlgorithmPanelRegistry::instance().panels())
        if (s.comparisonInput) algorithmBox_->addItem(s.title, q(s.algorithm));
    connect(algorithmBox_, &QComboBox::currentIndexChanged, this,
            [this] { setAlgorithm(algorithmBox_->currentData().toString().toStdString()); });
    // Results are bound to their input: anything that changes it makes them stale, and the
    // grid shows what the new input lets each cell run (the panel's mode: multi-tau or dense).
    gridTimer_ = new QTimer(this);
    gridTimer_->setSingleShot(true);
    gridTimer_->setInterval(200);
    connect(gridTimer_, &QTimer::timeout, this, [this] {
        if (!presenter_ || presenter_->isRunning()) return;
        inputOutdated_ = false;
        refreshInput(true);
    });
    connect(&wb_, &Workbench::fileOpened, this, &ComparisonView::inputChanged);
    connect(&wb_, &Workbench::roleChanged, this, &ComparisonView::inputChanged);
    connect(&QBinLabels::of(wb_), &QBinLabels::changed, this, &ComparisonView::inputChanged);
    connect(&wb_, &Workbench::parametersChanged, this, [this](const QString& algorithm) {
        if (presenter_ && algorithm.toStdString() == presenter_->algorithm().id()) inputChanged();
    });
    // The panel in front chooses what is compared (not while a comparison runs).
    connect(&wb_, &Workbench::panelActiveChanged, this, [this](const QString& owner, bool active) {
        if (active && owner == wb_.frontPanel()) followPanel(owner);
    });
    followPanel(wb_.frontPanel());
    if (algorithmBox_->count() > 0)
        setAlgorithm(algorithmBox_->currentData().toString().toStdString());
}

void ComparisonView::followPanel(const QString& algorithm) {
    const int index = algorithmBox_->findData(algorithm);
    if (index < 0 || (presenter_ && presenter_->isRunning())) return;
    algorithmBox_->setCurrentIndex(index);
}

void ComparisonView::inputChanged() {
    if (presenter_) presenter_->markStale();
    inputOutdated_ = true;
    if (isVisible()) gridTimer_->start();
}

void ComparisonView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (inputOutdated_) gridTimer_->start();
}

// Six rows of the results table and a difference view tall enough for its axes stay on
// screen; a shorter dock scrolls (the view sits in a scroll area) rather than squashing them.
void ComparisonView::keepResultsReadable() {
    constexpr int rowsShown = 6, differenceHeight = 340;
    const int frame = 2 * results_->frameWidth();
    const int header = results_->horizontalHeader()->sizeHint().height();
    const int scrollBar = results_->horizontalScrollBar()->sizeHint().height();
    results_->setMinimumHeight(
        header + rowsShown * results_->verticalHeader()->defaultSectionSize() + frame + scrollBar);
    differenceLayout_->parentWidget()->setMinimumHeight(differenceHeight);
}

QWidget* ComparisonView::buildGridSide() {
    auto* side = new QWidget(this);
    auto* layout = new QVBoxLayout(side);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    algorithmBox_ = new QComboBox(side);
    algorithmBox_->setToolTip("Algorithm whose variants are compared");
    top->addWidget(new QLabel("Algorithm", side));
    top->addWidget(algorithmBox_, 1);
    inputInfo_ = new QLabel("Input: taken from the algorithm's panel when you press Run", side);
    inputInfo_->setWordWrap(true);
    grid_ = new QTableWidget(side);
    grid_->setToolTip("Check the variant × device cells to run; greyed cells cannot run there (see "
                      "their tooltip)");
    grid_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    grid_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    grid_->setSelectionMode(QAbstractItemView::NoSelection);
    grid_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(grid_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (!presenter_) return;
        const bool on = item->checkState() == Qt::Checked;
        presenter_->setChecked(std::size_t(item->row()), std::size_t(item->column()), on);
    });
    // Check all on its own row: with Run and Cancel beside it the side would be too wide for
    // the results to keep 450 px in the Image's place at 1600×1000.
    auto* checks = new QHBoxLayout;
    auto* buttons = new QHBoxLayout;
    checkAll_ = new QPushButton("Check all", side);
    checkAll_->setToolTip("Check every cell its device can run");
    runButton_ = new QPushButton("Run (Ctrl+R)", side);
    runButton_->setToolTip("Run the checked cells as one job: the reference on the host first");
    cancelButton_ = new QPushButton("Cancel (Esc)", side);
    cancelButton_->setEnabled(false);
    checks->addWidget(checkAll_);
    checks->addStretch(1);
    buttons->addStretch(1);
    buttons->addWidget(runButton_);
    buttons->addWidget(cancelButton_);
    progress_ = new QProgressBar(side);
    progress_->setRange(0, 1000);
    progress_->setFormat("%p %");
    status_ = new QLabel("Check cells and press Run.", side);
    status_->setWordWrap(true);
    layout->addLayout(top);
    layout->addWidget(inputInfo_);
    layout->addWidget(grid_, 1);
    layout->addLayout(checks);
    layout->addLayout(buttons);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    connect(checkAll_, &QPushButton::clicked, this, [this] {
        if (presenter_) presenter_->checkAllSupported();
    });
    connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
    connect(cancelButton_, &QPushButton::clicked, this, [this] { cancel(); });
    connect(&wb_.jobs(), &JobRunner::progressed, this, [this](double f) {
        if (presenter_ && presenter_->isRunning()) progress_->setValue(int(f * 1000));
    });
    return side;
}

const AlgorithmPanelSpec* ComparisonView::spec() const {
    return presenter_ ? AlgorithmPanelRegistry::instance().find(presenter_->algorithm().id())
                      : nullptr;
}

void ComparisonView::setAlgorithm(const std::string& algorithm) {
    if (presenter_ && presenter_->algorithm().id() == algorithm) return;
    if (presenter_ && presenter_->isRunning()) return;
    presenter_ = std::make_unique<ComparisonPresenter>(algorithm);
    ComparisonPresenter* p = presenter_.get();
    connect(p, &ComparisonPresenter::gridChanged, this, &ComparisonView::fillGrid);
    connect(p, &ComparisonPresenter::rowAdded, this, &ComparisonView::onRowAdded);
    connect(p, &ComparisonPresenter::finished, this, &ComparisonView::onFinished);
    connect(p, &ComparisonPresenter::runTimings, &wb_.timings(), &TimingsPanel::addRun);
    connect(p, &ComparisonPresenter::staleChanged, stale_, &QLabel::setVisible);
    connect(p, &ComparisonPresenter::cellStarted, this, [this](int i, int n, const QString& label) {
        if (!presenter_->isCancelling())
            status_->setText(QString("Running %1 of %2: %3").arg(i + 1).arg(n).arg(label));
    });
    connect(p, &ComparisonPresenter::cancelling, this, [this] {
        status_->setText("Cancelling… (the running cell stops at its next check, within a second)");
        cancelButton_->setEnabled(false);
    });
    const int index = algorithmBox_->findData(q(algorithm));
    if (index >= 0 && index != algorithmBox_->currentIndex()) algorithmBox_->setCurrentIndex(index);
    fillGrid();
    refreshResults();
    inputOutdated_ = true;
    if (isVisible()) gridTimer_->start();
}

// Rows are variants, columns devices; a cell is a checkbox, greyed with the reason where the
// device cannot run the variant.
void ComparisonView::fillGrid() {
    const QSignalBlocker block(grid_);
    const auto& variants = presenter_->variants();
    const auto& devices = presenter_->devices();
    grid_->clear();
    grid_->setRowCount(int(variants.size()));
    grid_->setColumnCount(int(devices.size()));
    const std::string reference = presenter_->algorithm().referenceVariant();
    for (std::size_t v = 0; v < variants.size(); ++v) {
        const auto& info = variants[v].info;
        auto* header =
            new QTableWidgetItem(q(info.id + (info.id == reference ? " (reference)" : "")));
        header->setToolTip(q(info.label + " — needs " + info.needs));
        grid_->setVerticalHeaderItem(int(v), header);
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
        const DeviceInfo& dev = devices[d];
        auto* header =
            new QTableWidgetItem(q(dev.spec) + "\n" + q(dev.isHost() ? "host" : dev.name).left(28));
        header->setToolTip(q(dev.summary()));
        grid_->setHorizontalHeaderItem(int(d), header);
        for (std::size_t v = 0; v < variants.size(); ++v) {
            const Support s = presenter_->support(v, d);
            auto* item = new QTableWidgetItem(s.ok ? QString() : QString("—"));
            item->setTextAlignment(Qt::AlignCenter);
            if (s.ok) {
                item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
                item->setCheckState(presenter_->isChecked(v, d) ? Qt::Checked : Qt::Unchecked);
                item->setToolTip(q(variants[v].info.id + " on " + dev.spec));
            } else {
                item->setFlags(Qt::NoItemFlags);
                item->setBackground(QColor(235, 235, 235));
                item->setToolTip(q("Cannot run here: " + s.reason));
            }
            grid_->setItem(int(v), int(d), item);
        }
    }
}

bool ComparisonView::refreshInput(bool quiet) {
    const AlgorithmPanelSpec* s = spec();
    if (!s || !s->comparisonInput) return false;
    try {
        ComparisonInput in = s->comparisonInput(wb_);
        inputInfo_->setText("Input: " + q(in.input->describe()));
        presenter_->setInput(std::move(in.input), std::move(in.params), std::move(in.command));
        return true;
    } catch (const std::exception& e) {
        if (quiet) {
            inputInfo_->setText(QString("Input: not ready (%1)").arg(e.what()));
            return false;
        }
        status_->setText(QString("Cannot compare: %1").arg(e.what()));
        wb_.log(LogLevel::Error, QString("Compare: %1").arg(e.what()));
        return false;
    }
}

bool ComparisonView::run() {
    if (!presenter_ || presenter_->isRunning()) return false;
    if (!refreshInput()) return false;
    gridTimer_->stop(); // the input is taken: no later refresh marks the new rows stale
    inputOutdated_ = false;
    try {
        if (!presenter_->run(wb_.jobs())) {
            status_->setText(wb_.jobs().refusal());
            return false;
        }
    } catch (const std::exception& e) {
        status_->setText(QString("Cannot compare: %1").arg(e.what()));
        wb_.log(LogLevel::Error, QString("Compare: %1").arg(e.what()));
        return false;
    }
    refreshResults();
    progress_->setValue(0);
    runButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    grid_->setEnabled(false);
    status_->setText("Starting…");
    return true;
}

void ComparisonView::cancel() {
    if (!presenter_ || !presenter_->isRunning()) return;
    presenter_->cancel();
    wb_.jobs().cancel();
}

void ComparisonView::onFinished(bool completed) {
    runButton_->setEnabled(true);
    cancelButton_->setEnabled(false);
    grid_->setEnabled(true);
    const std::size_t rows = presenter_->rows().size();
    std::size_t failed = 0;
    for (const ComparisonRow& r : presenter_->rows())
        failed += r.pass() ? 0 : 1;
    if (completed) progress_->setValue(1000);
    status_->setText(
        completed ? QString("Done: %1 runs, %2 failed").arg(rows).arg(failed)
                  : QString("Stopped after %1 runs (cancelled or failed); their rows are kept")
                        .arg(rows));
    emit runFinished(completed);
}

} // namespace clscope::ui
