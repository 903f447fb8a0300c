#include "ui/lab/lab_window.hpp"
#include "ui/base/qstring.hpp"

#include "gpu/runtime/devices.hpp"
#include "gpu/variant/user_variants.hpp"
#include "ui/lab/build_log_list.hpp"
#include "ui/lab/code_editor.hpp"
#include "ui/lab/compiled_output_view.hpp"
#include "ui/lab/lab_history_view.hpp"
#include "ui/lab/lab_kernels_table.hpp"
#include "ui/lab/lab_roofline_plot.hpp"
#include "ui/lab/lab_rows_table.hpp"
#include "ui/lab/lab_run.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace clscope::ui {

namespace {

QLabel* caption(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return label;
}

} // namespace

LabWindow::LabWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), editor_(new CodeEditor(this)), buildLog_(new BuildLogList(this)),
      rows_(new LabRowsTable(this)), history_(new LabHistoryView(this)),
      kernels_(new LabKernelsTable(this)), compiled_(new CompiledOutputView(this)),
      roofline_(new LabRooflinePlot(this)), run_(new LabRun(this)), ticker_(new QTimer(this)) {
    setObjectName("KernelLab");
    setWindowTitle("clscope — Kernel lab");
    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(editor_);
    top->addWidget(buildSide());
    top->setSizes({900, 700});
    auto* body = new QSplitter(Qt::Vertical, this);
    body->addWidget(top);
    body->addWidget(buildResults());
    body->setSizes({560, 300});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(buildRunControls());
    layout->addWidget(body, 1);
    buildLog_->showText("Fork a variant, edit it, then Save & run (Ctrl+S).");
    connect(buildLog_, &BuildLogList::lineChosen, editor_, &CodeEditor::goToLine);
    connect(run_, &LabRun::finished, this, &LabWindow::showOutcome);
    connect(ticker_, &QTimer::timeout, this, [this] {
        if (run_->running())
            setStatus(QString("Building, checking and timing in the background (clscope-cli "
                              "lab): %1 s")
                          .arg(run_->elapsedSeconds(), 0, 'f', 0));
    });
    auto* save = new QShortcut(QKeySequence::Save, this);
    connect(save, &QShortcut::activated, this, [this] {
        if (const QString why = saveAndRun(); !why.isEmpty()) setStatus(why);
    });
    fillAlgorithms();
    fillDevices();
    fitScreen();
}

// 1600 × 1000 where the screen has room, else what it has (a laptop's 1280 × 800).
void LabWindow::fitScreen() {
    const QSize room = screen()->availableGeometry().size();
    resize(std::min(1600, room.width()), std::min(1000, room.height()));
}

// The build log, the kernels' figures, the compiled output and the roofline in tabs, the
// history below.
QWidget* LabWindow::buildSide() {
    auto* side = new QSplitter(Qt::Vertical, this);
    auto* tabs = new QTabWidget(side);
    tabs->setObjectName("LabTabs");
    auto* logBox = new QWidget(tabs);
    auto* logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    logLayout->addWidget(new QLabel("Build log of the fork (click a message: the editor goes to "
                                    "its line)",
                                    logBox));
    logLayout->addWidget(buildLog_);
    tabs->addTab(logBox, "Build log");
    tabs->addTab(kernels_, "Kernels");
    tabs->addTab(compiled_, "Compiled output");
    tabs->addTab(roofline_, "Roofline");
    side->addWidget(tabs);
    side->addWidget(history_);
    side->setSizes({300, 300});
    return side;
}

QWidget* LabWindow::buildControls() {
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    algorithm_ = new QComboBox(box), variant_ = new QComboBox(box), program_ = new QComboBox(box);
    algorithm_->setObjectName("LabAlgorithm"), variant_->setObjectName("LabVariant");
    program_->setObjectName("LabProgram");
    variant_->setMinimumContentsLength(14), program_->setMinimumContentsLength(14);
    forkButton_ = new QPushButton("Fork", box);
    forkButton_->setToolTip("Show the program as built (tunable lines and source) in the editor");
    device_ = new QComboBox(box), size_ = new QComboBox(box);
    device_->setObjectName("LabDevice");
    device_->setMinimumContentsLength(14); // its list shows whole names
    for (auto [label, widget] : std::initializer_list<std::pair<const char*, QWidget*>>{
             {"Algorithm", algorithm_}, {"Variant", variant_}, {"Program", program_}})
        row->addWidget(caption(label, box)), row->addWidget(widget);
    row->addWidget(forkButton_);
    row->addSpacing(24);
    row->addWidget(caption("Device", box)), row->addWidget(device_);
    row->addWidget(caption("Size", box)), row->addWidget(size_);
    params_ = new QLineEdit(box);
    params_->setObjectName("LabParams");
    params_->setPlaceholderText(R"({"NAME": VALUE, ...})");
    params_->setToolTip("The run's parameters over the bench case's, as JSON (--params): what "
                        "a variant needs (the lab says which when it refuses one)");
    params_->setMinimumWidth(140);
    row->addWidget(caption("Parameters", box)), row->addWidget(params_, 1);
    connect(algorithm_, &QComboBox::currentIndexChanged, this, &LabWindow::fillVariants);
    connect(variant_, &QComboBox::currentIndexChanged, this, &LabWindow::fillPrograms);
    connect(forkButton_, &QPushButton::clicked, this, [this] {
        if (const QString why = fork(); !why.isEmpty()) setStatus(why);
    });
    return box;
}

QWidget* LabWindow::buildRunControls() {
    auto* box = new QWidget(this);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    repeat_ = new QSpinBox(box), timeout_ = new QDoubleSpinBox(box), sweep_ = new QLineEdit(box);
    repeat_->setRange(1, 1000), repeat_->setValue(5);
    repeat_->setToolTip("Timed runs after one warm-up (--repeat)");
    timeout_->setRange(0.5, 3600), timeout_->setValue(30), timeout_->setSuffix(" s");
    timeout_->setToolTip("A run silent for longer is stopped (--kernel-timeout)");
    coldCache_ = new QCheckBox("Cold cache", box);
    coldCache_->setObjectName("LabColdCache");
    coldCache_->setToolTip("Write a scratch buffer of the device's cache size before each timed "
                           "run (--cold-cache)");
    sweep_->setObjectName("LabSweep");
    sweep_->setPlaceholderText("NAME=V1,V2,… (one checked row per value)");
    sweep_->setMinimumWidth(180);
    runButton_ = new QPushButton("Save && run (Ctrl+S)", box);
    runButton_->setObjectName("LabRun");
    cancelButton_ = new QPushButton("Cancel", box);
    cancelButton_->setEnabled(false);
    status_ = new QLabel(box);
    status_->setObjectName("LabStatus");
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // long: tooltip
    row->addWidget(caption("Repeat", box)), row->addWidget(repeat_);
    row->addWidget(caption("Kernel timeout", box)), row->addWidget(timeout_);
    row->addWidget(coldCache_);
    row->addWidget(caption("Sweep", box)), row->addWidget(sweep_);
    row->addWidget(runButton_), row->addWidget(cancelButton_);
    row->addWidget(status_, 1);
    connect(runButton_, &QPushButton::clicked, this, [this] {
        if (const QString why = saveAndRun(); !why.isEmpty()) setStatus(why);
    });
    connect(cancelButton_, &QPushButton::clicked, this, &LabWindow::cancelRun);
    return box;
}

QWidget* LabWindow::buildResults() {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    saveName_ = new QLineEdit(box);
    saveName_->setObjectName("LabSaveName");
    saveName_->setPlaceholderText("name (letters, digits, _ . -)");
    saveName_->setMinimumWidth(240);
    keepButton_ = new QPushButton("Keep best as user variant", box);
    keepButton_->setEnabled(false);
    keepButton_->setToolTip("Save the fastest fork row that passed its check as user:NAME");
    row->addWidget(new QLabel("Check against the reference, and kernel times (ms)", box), 1);
    row->addWidget(saveName_), row->addWidget(keepButton_);
    layout->addLayout(row);
    layout->addWidget(rows_);
    // The chosen row's check in full (the note column lies far to the right), else the first
    // row that did not pass.
    rowDetails_ = new QLabel(box);
    rowDetails_->setObjectName("LabRowDetails");
    rowDetails_->setWordWrap(true);
    rowDetails_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(rowDetails_);
    connect(rows_, &QTableWidget::currentCellChanged, this,
            [this](int row) { rowDetails_->setText(rows_->details(row)); });
    connect(keepButton_, &QPushButton::clicked, this, [this] {
        QString error;
        const QString path = keepBest(saveName_->text(), &error);
        setStatus(path.isEmpty() ? error : "Saved " + path);
    });
    return box;
}

void LabWindow::fillAlgorithms() {
    const QSignalBlocker block(algorithm_);
    for (const auto& a : AlgorithmRegistry::instance().all())
        for (const VariantEntry& v : a->variants())
            if (!v.info.programs.empty() && algorithm_->findData(q(a->id())) < 0)
                algorithm_->addItem(q(a->id()), q(a->id()));
    fillVariants();
}

void LabWindow::fillVariants() {
    const QSignalBlocker block(variant_);
    variant_->clear();
    const std::string id = algorithm_->currentData().toString().toStdString();
    if (id.empty()) return;
    const Algorithm& a = AlgorithmRegistry::instance().find(id);
    for (const VariantEntry& v : a.variants())
        if (!v.info.programs.empty()) variant_->addItem(q(v.info.id), q(v.info.id));
    for (const UserVariant& u : listUserVariants(id))
        variant_->addItem(q(u.id() + " (fork of " + u.base + ")"), q(u.id()));
    const QSignalBlocker sizes(size_);
    size_->clear();
    for (const std::string& s : a.benchSizes())
        size_->addItem(q(s));
    fillPrograms();
}

void LabWindow::fillPrograms() {
    program_->clear();
    const std::string algorithm = algorithm_->currentData().toString().toStdString();
    const std::string variant = variant_->currentData().toString().toStdString();
    if (algorithm.empty() || variant.empty()) return;
    try {
        if (isUserVariantId(variant)) {
            program_->addItem(q(loadUserVariant(algorithm, variant).program));
            return;
        }
        for (const std::string& p :
             AlgorithmRegistry::instance().find(algorithm).variant(variant).info.programs)
            program_->addItem(q(p));
    } catch (const std::exception& e) {
        setStatus(QString::fromUtf8(e.what()));
    }
}

void LabWindow::fillDevices() {
    for (const DeviceInfo& d : listDevices())
        if (!d.isHost()) device_->addItem(q(d.spec + " — " + d.name), q(d.spec));
    if (device_->count() == 0) device_->addItem("no OpenCL device", QString());
}

} // namespace clscope::ui
