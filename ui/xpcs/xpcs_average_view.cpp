#include "ui/xpcs/xpcs_average_view.hpp"

#include "ui/params/param_form.hpp"
#include "ui/xpcs/xpcs_average_plots.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

QString fileName(const std::string& path) {
    return QFileInfo(QString::fromStdString(path)).fileName();
}

// The verdict cell and its reason: "kept", or "rejected" with "rule = value" (the statistic
// that broke the rule).
std::pair<QString, QString> verdict(const xpcs::AverageOutcome* o, std::size_t run) {
    if (!o) return {"—", "not averaged yet"};
    if (const xpcs::Rejection* r = o->rejection(run))
        return {"rejected",
                QString("%1 = %2").arg(QString::fromStdString(r->rule)).arg(r->value, 0, 'g', 4)};
    return {"kept", ""};
}

// "5 of 7 runs averaged (weights equal); rejected: a.h5 (baseline = 1.2), b.h5 (...)".
QString summary(const std::vector<xpcs::AverageRun>& runs, const xpcs::AverageOutcome& o) {
    QStringList rejected;
    for (const xpcs::Rejection& r : o.rejected)
        rejected << QString("%1 (%2 = %3)")
                        .arg(fileName(runs[r.run].file), QString::fromStdString(r.rule))
                        .arg(r.value, 0, 'g', 4);
    const QString head = o.averaged ? QString("%1 of %2 runs averaged (weights %3)")
                                          .arg(o.kept(runs.size()))
                                          .arg(runs.size())
                                          .arg(QString::fromStdString(o.weights))
                                    : QString("Every run was rejected: nothing to average");
    return head + (rejected.isEmpty() ? "" : "; rejected: " + rejected.join(", "));
}

} // namespace

XpcsAverageView::XpcsAverageView(QWidget* parent)
    : QWidget(parent), runs_(std::make_shared<const std::vector<xpcs::AverageRun>>()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(buildButtons());
    status_ = new QLabel(this); // its own row: the buttons keep their width
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    split_ = new QSplitter(Qt::Horizontal, this);
    split_->addWidget(buildLeft());
    split_->addWidget(buildPlots());
    split_->setStretchFactor(1, 1);
    layout->addWidget(split_, 1);
    setStatus("Add correlate results (files or a folder): each run's g2 and intensity, its "
              "verdict, and their average as clscope-cli average makes it.");
    connect(form_, &ParamForm::changed, this, [this] { runAverage(); });
    connect(bin_, &QSpinBox::valueChanged, this, [this] { refreshPlots(); });
    connect(table_, &QTableWidget::currentCellChanged, this, [this] { refreshPlots(); });
    refreshPlots();
}

// First shown: the table 45 % of the width, the plots the rest (not the table's size hint).
void XpcsAverageView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (std::exchange(sized_, true)) return;
    const int width = split_->width();
    split_->setSizes({width * 45 / 100, width - width * 45 / 100});
}

XpcsAverageView::~XpcsAverageView() {
    if (watcher_) watcher_->waitForFinished();
}

QWidget* XpcsAverageView::buildButtons() {
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    const auto button = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QPushButton(text, row);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, slot);
        h->addWidget(b);
        return b;
    };
    button("Add files…", "Correlate results (HDF5) to average", [this] { chooseFiles(); });
    button("Add folder…", "Every .h5, .hdf5, .nxs file of a folder", [this] { chooseFolder(); });
    button("Add open file", "The file the Data browser shows (a correlate result)",
           [this] { addOpenFile(); });
    button("Clear", "Forget the runs", [this] { clear(); });
    button("Average", "Judge and average the runs with the weights and rules",
           [this] { runAverage(); });
    save_ = button("Save average…",
                   "Write the average as clscope-cli average writes it (a correlate result)",
                   [this] { chooseSave(); });
    save_->setEnabled(false);
    h->addStretch(1);
    return row;
}

QWidget* XpcsAverageView::buildLeft() {
    auto* left = new QSplitter(Qt::Vertical, this);
    // The weights in view, the rules' thresholds folded under Advanced (the table has room).
    std::vector<ParamSpec> specs = xpcs::averageParamSpecs();
    for (ParamSpec& spec : specs)
        spec.advanced = spec.name != "weights";
    form_ = new ParamForm("xpcs_average", std::move(specs), "Weights and rejection rules", {}, {},
                          left);
    // The reason last: in a narrow dock the verdicts stay in view (the status line and the
    // tooltips say the reasons too).
    table_ = new QTableWidget(0, 4, left);
    table_->setHorizontalHeaderLabels({"run", "verdict", "frames", "why"});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    left->addWidget(form_);
    left->addWidget(table_);
    left->setStretchFactor(1, 1);
    return left;
}

QWidget* XpcsAverageView::buildPlots() {
    auto* right = new QWidget(this);
    auto* v = new QVBoxLayout(right);
    v->setContentsMargins(0, 0, 0, 0);
    auto* binRow = new QHBoxLayout;
    bin_ = new QSpinBox(right);
    bin_->setRange(0, 0);
    bin_->setToolTip("The q bin (index in the runs' labels) the plots show");
    binRow->addWidget(new QLabel("q bin", right));
    binRow->addWidget(bin_);
    binRow->addStretch(1);
    v->addLayout(binRow);
    auto* plots = new QSplitter(Qt::Vertical, right);
    g2Plot_ = makeAverageG2Plot(plots);
    intensityPlot_ = makeAverageIntensityPlot(plots);
    plots->addWidget(g2Plot_);
    plots->addWidget(intensityPlot_);
    v->addWidget(plots, 1);
    return right;
}

// One job at a time: its result applied on the GUI thread, then what waited.
void XpcsAverageView::start(std::function<Work()> job) {
    watcher_ = new QFutureWatcher<Work>(this);
    connect(watcher_, &QFutureWatcherBase::finished, this, [this] { finished(); });
    watcher_->setFuture(QtConcurrent::run([this, job = std::move(job)]() -> Work {
        try {
            return job();
        } catch (const std::exception& e) { // the jobs say their own errors; this is the rest
            return [this, why = QString(e.what())] { setStatus(why, true); };
        }
    }));
}

void XpcsAverageView::finished() {
    const Work apply = watcher_->result();
    watcher_->deleteLater();
    watcher_ = nullptr;
    if (apply) apply();
    if (!pendingFiles_.isEmpty()) {
        addFiles(std::exchange(pendingFiles_, {}));
    } else if (pendingAverage_) {
        pendingAverage_ = false;
        runAverage();
    }
}

void XpcsAverageView::addFiles(const QStringList& files) {
    if (files.isEmpty()) return;
    if (busy()) {
        pendingFiles_ += files;
        return;
    }
    setStatus(QString("Reading %1 files…").arg(files.size()));
    start([this, files]() -> Work {
        std::vector<xpcs::AverageRun> read;
        QStringList skipped;
        for (const QString& f : files)
            try {
                read.push_back(xpcs::readAverageRun(f.toStdString())); // as clscope-cli average
            } catch (const std::exception& e) {
                skipped << QString("%1 (%2)").arg(QFileInfo(f).fileName(), e.what());
            }
        return [this, read = std::move(read), skipped]() mutable {
            loadDone(std::move(read), skipped.join("; "));
        };
    });
}

void XpcsAverageView::loadDone(std::vector<xpcs::AverageRun> read, const QString& skipped) {
    std::vector<xpcs::AverageRun> all = *runs_;
    for (xpcs::AverageRun& run : read)
        all.push_back(std::move(run));
    runs_ = std::make_shared<const std::vector<xpcs::AverageRun>>(std::move(all));
    outcome_.reset();
    save_->setEnabled(false);
    const std::size_t bins = runs_->empty() ? 0 : runs_->front().result.binCount();
    bin_->setRange(0, bins ? int(bins) - 1 : 0);
    fillTable();
    refreshPlots();
    if (!skipped.isEmpty())
        setStatus("Left out (not a correlate result with sums): " + skipped, true);
    emit loaded();
    runAverage();
}

void XpcsAverageView::addFolder(const QString& folder) {
    QStringList files;
    for (const QFileInfo& f :
         QDir(folder).entryInfoList({"*.h5", "*.hdf5", "*.nxs"}, QDir::Files, QDir::Name))
        files << f.absoluteFilePath();
    if (files.isEmpty()) setStatus("No .h5, .hdf5 or .nxs file in " + folder, true);
    addFiles(files);
}

void XpcsAverageView::addOpenFile() {
    const QString file = openFile_ ? openFile_() : QString();
    if (file.isEmpty()) return setStatus("No file is open in the Data browser", true);
    addFiles({file});
}

void XpcsAverageView::clear() {
    if (busy()) return;
    runs_ = std::make_shared<const std::vector<xpcs::AverageRun>>();
    outcome_.reset();
    save_->setEnabled(false);
    fillTable();
    refreshPlots();
    setStatus("No runs.");
}

void XpcsAverageView::runAverage() {
    if (runs_->empty()) return;
    if (busy()) {
        pendingAverage_ = true;
        return;
    }
    setStatus(QString("Averaging %1 runs…").arg(runs_->size()));
    start([this, runs = runs_, params = form_->paramSet()]() -> Work {
        try {
            auto outcome = std::make_shared<xpcs::AverageOutcome>(xpcs::averageWith(*runs, params));
            return [this, runs, outcome] {
                if (runs != runs_) return; // the runs changed meanwhile
                outcome_ = std::move(*outcome);
                save_->setEnabled(outcome_->averaged.has_value());
                setStatus(summary(*runs_, *outcome_), !outcome_->averaged);
                fillTable();
                refreshPlots();
                emit averaged();
            };
        } catch (const std::exception& e) {
            const QString why = e.what();
            return [this, why] {
                outcome_.reset();
                save_->setEnabled(false);
                setStatus("Cannot average: " + why, true);
                fillTable();
                refreshPlots();
                emit averaged();
            };
        }
    });
}

QString XpcsAverageView::save(const QString& path) {
    if (!outcome_) return "nothing averaged yet";
    try {
        xpcs::writeAverage(path.toStdString(), *runs_, *outcome_); // as clscope-cli average
    } catch (const std::exception& e) {
        return e.what();
    }
    setStatus("Saved " + path);
    return {};
}

void XpcsAverageView::fillTable() {
    table_->setRowCount(int(runs_->size()));
    const xpcs::AverageOutcome* o = outcome_ ? &*outcome_ : nullptr;
    for (std::size_t i = 0; i < runs_->size(); ++i) {
        const xpcs::AverageRun& run = (*runs_)[i];
        const auto [word, why] = verdict(o, i);
        const QStringList cells{QString("%1 %2").arg(i + 1).arg(fileName(run.file)), word,
                                QString::number(run.sums.frames), why};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setToolTip(QString::fromStdString(run.file) + (why.isEmpty() ? "" : ": " + why));
            if (word == "rejected") item->setForeground(QColor(190, 30, 30));
            table_->setItem(int(i), c, item);
        }
    }
}

void XpcsAverageView::refreshPlots() {
    const AveragePlotData data{runs_.get(), outcome_ ? &*outcome_ : nullptr,
                               std::size_t(bin_->value()), table_->currentRow()};
    plotAverageG2(*g2Plot_, data);
    plotAverageIntensity(*intensityPlot_, data);
}

void XpcsAverageView::setStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? "color: #b00" : "");
}

void XpcsAverageView::chooseFiles() {
    addFiles(QFileDialog::getOpenFileNames(this, "Correlate results to average", {},
                                           "HDF5 (*.h5 *.hdf5 *.nxs);;All files (*)"));
}

void XpcsAverageView::chooseFolder() {
    const QString folder = QFileDialog::getExistingDirectory(this, "Folder of correlate results");
    if (!folder.isEmpty()) addFolder(folder);
}

void XpcsAverageView::chooseSave() {
    const QString dir = runs_->empty()
                            ? QString()
                            : QFileInfo(QString::fromStdString(runs_->front().file)).absolutePath();
    const QString path =
        QFileDialog::getSaveFileName(this, "Save the average", dir + "/average.h5", "HDF5 (*.h5)");
    if (path.isEmpty()) return;
    if (const QString why = save(path); !why.isEmpty()) setStatus("Not saved: " + why, true);
}

} // namespace clscope::ui
