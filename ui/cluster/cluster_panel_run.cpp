// ClusterPanel runs: one job reads the digis (once per file and dataset; live re-runs reuse
// them) and clusters them with the chosen variant through runAlgorithm(); the result fills the
// presenter, the "Detector" and "Module" tabs. Selections and exports.
#include "core/cluster/digis.hpp"
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/json_parse.hpp"
#include "ui/cluster/cluster_histograms.hpp"
#include "ui/cluster/cluster_module_view.hpp"
#include "ui/cluster/cluster_overview.hpp"
#include "ui/cluster/cluster_panel.hpp"
#include "ui/cluster/cluster_table.hpp"
#include "ui/jobs/algorithm_run.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/results/run_command.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <nlohmann/json.hpp>

namespace clscope::ui {

namespace {

std::vector<double> thresholdsOf(const cluster::ChargeCut& cut) {
    if (cut.kind == cluster::ChargeCut::Kind::Phase1) return {2000, 4000};
    if (cut.kind == cluster::ChargeCut::Kind::Value) return {double(cut.value)};
    return {};
}

// The charge cut a result was made with (its parameters attribute).
cluster::ChargeCut cutOfRun(const RunInfo& info) {
    const auto j = parseJsonQuietly(info.parametersJson);
    ParamSet p = clusterAlgorithm().defaultParams();
    if (j.is_object() && j.contains("charge_cut")) p.set("charge_cut", j["charge_cut"]);
    return cluster::chargeCutOf(p);
}

void writeText(const QString& path, const std::string& text) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) < 0 ||
        !file.commit())
        throw InputError("cannot write " + path.toStdString() + ": " +
                         file.errorString().toStdString());
}

} // namespace

std::optional<Job> ClusterPanel::makeJob() {
    return clusterJob(false);
}

// The job of the open file's digis (nothing without them: said why unless quiet).
std::optional<Job> ClusterPanel::clusterJob(bool quiet) {
    const auto file = wb_.dataset().file();
    const auto path = wb_.dataset().path(DataRole{"digis"});
    if (!file || !path) {
        if (!quiet) reportError("open a file with digis first");
        return std::nullopt;
    }
    const std::string key = file->fileName() + ":" + *path;
    AlgorithmRun run;
    run.algorithm = &clusterAlgorithm();
    run.command.sources.file = file->fileName();
    run.command.sources.overrides["digis"] = *path;
    run.command.variant = variant();
    run.command.params = params();
    run.chosen = wb_.device();
    run.wholeInput = WholeInput::Always;      // the event view takes the digis
    if (key == inputKey_) run.input = input_; // live re-runs reuse the digis read
    return runJob(std::move(run), [this, key] { inputKey_ = key; });
}

void ClusterPanel::showResult(const Delivery& delivery) {
    const auto& result = delivery.result;
    const auto& input = delivery.input;
    input_ = input;
    presenter_.setEvent(std::shared_ptr<const Digis>(input, &input->digis), result->clusters);
    presenter_.setRunInfo(result->info);
    shownCut_ = cutOfRun(result->info);
    summary_->setText(QString("%1 digis (%2 invalid, %3 duplicated) → <b>%4 clusters</b>; "
                              "%5 on %6, kernel %7 ms")
                          .arg(presenter_.digis().size())
                          .arg(presenter_.invalidDigis())
                          .arg(presenter_.duplicateDigis())
                          .arg(presenter_.result().count())
                          .arg(QString::fromStdString(result->info.variant),
                               QString::fromStdString(result->info.device))
                          .arg(result->info.kernelMs, 0, 'f', 3));
    showTabs();
}

// The two tabs, made again for every result (the selection is kept by the presenter).
void ClusterPanel::showTabs() {
    // The tab in front by its title ("Module", not its text "Module (stale)" while re-running).
    const ResultTab* shown = wb_.results().currentTab();
    const bool moduleShown = shown && shown->algorithm == "cluster" && shown->title == "Module";
    auto snapshot = std::make_shared<ClusterPresenter>(presenter_);
    const auto write = [snapshot](H5Writer& out) { snapshot->writeHdf5(out); };
    auto* detector = new QSplitter(Qt::Vertical);
    overview_ = new ClusterOverview(detector);
    histograms_ = new ClusterHistogramsView(detector);
    detector->addWidget(overview_);
    detector->addWidget(histograms_);
    detector->setStretchFactor(0, 3);
    detector->setStretchFactor(1, 2);
    connect(overview_, &ClusterOverview::moduleClicked, this, [this](int module) {
        selectModule(module);
        if (moduleView_) wb_.results().showTab(moduleView_);
    });
    ResultTab detectorTab{"cluster", "Detector",
                          detector,  overview_->plot(),
                          write,     [snapshot] { return snapshot->histogramsCsv(); }};
    detectorTab.commandLine = resultCommand();
    detectorTab.provenance = runProvenance(presenter_.runInfo());
    wb_.addResultTab(std::move(detectorTab));
    auto* module = new QSplitter(Qt::Vertical);
    moduleView_ = new ClusterModuleView(module);
    table_ = new QTableView(module);
    module->addWidget(moduleView_);
    module->addWidget(table_);
    tableModel_ = new ClusterTableModel(table_);
    tableModel_->setResult(&presenter_.result());
    table_->setModel(tableModel_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    module->setStretchFactor(0, 1);
    module->setStretchFactor(1, 1);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { selectCluster(std::size_t(index.row())); });
    ResultTab moduleTab{"cluster",           "Module", module,
                        moduleView_->plot(), write,    [snapshot] { return snapshot->tableCsv(); }};
    moduleTab.commandLine = resultCommand();
    moduleTab.provenance = runProvenance(presenter_.runInfo());
    wb_.addResultTab(std::move(moduleTab));
    refreshViews();
    if (presenter_.selectedModule() < 0)
        selectModule(presenter_.busiestModule());
    else
        showModule();
    wb_.results().showTab(moduleShown ? module : detector);
}

void ClusterPanel::refreshViews() {
    if (presenter_.empty() || !overview_) return;
    const bool clusters = colourBy_->currentIndex() == 1;
    overview_->setLogScale(logBox_->isChecked());
    overview_->setValues(presenter_.perModule(clusters ? ClusterPresenter::Measure::Clusters
                                                       : ClusterPresenter::Measure::Digis),
                         clusters ? "clusters per module" : "digis per module");
    overview_->setSelectedModule(presenter_.selectedModule());
    if (histograms_) histograms_->setHistograms(presenter_.histograms(), thresholdsOf(shownCut_));
}

void ClusterPanel::selectModule(int module) {
    presenter_.selectModule(module);
    if (overview_) overview_->setSelectedModule(presenter_.selectedModule());
    showModule();
}

void ClusterPanel::selectCluster(std::size_t cluster) {
    presenter_.selectCluster(cluster);
    if (overview_) overview_->setSelectedModule(presenter_.selectedModule());
    showModule();
    if (moduleView_) wb_.results().showTab(moduleView_);
}

// The selected module's map, its first cluster row in view, the selected cluster framed.
void ClusterPanel::showModule() {
    const int module = presenter_.selectedModule();
    if (!moduleView_ || module < 0) return;
    const auto [first, last] = presenter_.clustersOf(module);
    moduleView_->setModule(presenter_.moduleMap(module), &presenter_.result(), first);
    const auto selected = presenter_.selectedCluster();
    moduleView_->highlightCluster(selected ? std::optional<int>(int(*selected - first))
                                           : std::nullopt);
    if (!table_) return;
    const std::size_t row = selected ? *selected : first;
    if (row < presenter_.result().count()) {
        table_->selectRow(int(row));
        table_->scrollTo(tableModel_->index(int(row), 0), QAbstractItemView::PositionAtTop);
    }
}

bool ClusterPanel::exportTo(Export what, const QString& path) {
    try {
        if (presenter_.empty()) throw UsageError("nothing to export; run the clustering first");
        const bool csv = path.endsWith(".csv", Qt::CaseInsensitive);
        if (what == Export::Histograms || csv) {
            writeText(path, what == Export::Ids     ? presenter_.idsCsv()
                            : what == Export::Table ? presenter_.tableCsv()
                                                    : presenter_.histogramsCsv());
        } else {
            H5Writer out(path.toStdString());
            presenter_.writeHdf5(out);
            if (what == Export::Ids) writeDigis(out, presenter_.digis(), "/digis");
            out.commit();
        }
        wb_.log(LogLevel::Info, "Cluster: exported " + path);
        return true;
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("Cluster: export failed: %1").arg(e.what()));
        return false;
    }
}

ComparisonInput ClusterPanel::comparisonInput() const {
    const auto file = wb_.dataset().file();
    const auto path = wb_.dataset().path(DataRole{"digis"});
    if (!file || !path) throw InputError("cluster: open a file with digis first");
    const ParamSet p = params();
    RunCommand command;
    command.algorithm = "cluster", command.params = p;
    command.sources.file = file->fileName();
    command.sources.overrides["digis"] = *path;
    if (input_ && inputKey_ == file->fileName() + ":" + *path) return {input_, p, command};
    return {clusterAlgorithm().read(command.sources, p), p, command};
}

} // namespace clscope::ui
