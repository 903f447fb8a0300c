// SpotsPanel runs: one job reads the frames and pixel mask through the spots algorithm's own
// reader and runs the chosen variant over every frame (runAlgorithm); its result makes the
// Results tabs "Spots" and "Per frame". Exports, and the Compare dock's input.
#include "core/errors.hpp"
#include "gpu/spots/run_types.hpp"
#include "ui/image/image_view.hpp"
#include "ui/jobs/algorithm_run.hpp"
#include "ui/kit/frame_sources.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/frame_range_edit.hpp"
#include "ui/params/param_form.hpp"
#include "ui/spots/spots_panel.hpp"
#include "ui/spots/spots_views.hpp"

#include <QComboBox>
#include <QPushButton>
#include <QTabWidget>
#include <qcustomplot.h>

namespace clscope::ui {

InputSources SpotsPanel::sources() const {
    return openFileFrameSources(wb_, range_->range(), "spots");
}

// The job of the sources, parameters and variant on screen (throws what is wrong with them).
std::optional<Job> SpotsPanel::makeJob() {
    AlgorithmRun run;
    run.algorithm = &AlgorithmRegistry::instance().find("spots");
    run.command.sources = sources();
    run.command.params = form_->paramSet();
    run.command.variant = variant();
    run.chosen = wb_.device();
    const std::string ran = run.command.params.dump();
    const int first = static_cast<int>(run.command.sources.frames.first);
    return runJob(std::move(run), [this, ran, first] {
        runParams_ = ran;
        runFirstFrame_ = first;
    });
}

void SpotsPanel::keepStored(const RunCommand& stored) {
    runParams_ = stored.params.dump();
    runFirstFrame_ = static_cast<int>(stored.sources.frames.first);
}

void SpotsPanel::showResult(const Delivery& delivery) {
    const spots::SpotsResult& run = *delivery.result;
    presenter_->setRun(run.result, run.info.variant + " on " + run.info.device + " " +
                                       run.info.deviceName +
                                       (run.note.empty() ? "" : ", " + run.note));
    runProvenance_ = runProvenance(run.info);
    runProvenance_.computed = QDateTime::currentDateTimeUtc();
    wb_.results().removeTabs("spots");
    showTabs(delivery.result);
}

void SpotsPanel::showTabs(std::shared_ptr<const spots::SpotsResult> result) {
    auto presenter = presenter_;
    table_ = new SpotTableView(presenter);
    connect(table_, &SpotTableView::spotSelected, this, [this] { showSelectedSpot(); });
    const auto writeAll = [result](H5Writer& out) { result->write(out, "/spots"); };
    ResultTab spots{"spots",  "Spots",
                    table_,   nullptr,
                    writeAll, [presenter] { return spotTableCsv(presenter->run().spots); }};
    spots.commandLine = resultCommand();
    const RunProvenance provenance = runProvenance_;
    spots.provenance = provenance;
    wb_.addResultTab(std::move(spots));
    QCustomPlot* perFrame = makePerFramePlot(*presenter);
    // The same result: the Spots tab writes it once into an export of every tab.
    ResultTab perFrameTab{"spots",  "Per frame", perFrame,
                          perFrame, {},          [presenter] { return presenter->perFrameCsv(); }};
    perFrameTab.commandLine = resultCommand();
    perFrameTab.provenance = provenance;
    wb_.addResultTab(std::move(perFrameTab));
    showPerImageTab(*result, provenance);
    showGridTab(*result, provenance);
}

// "Grid scan": the spots per image on the scan's grid (the experiment list's, where the run names
// a grid scan's, else as square as it can be); a click shows the cell's image.
void SpotsPanel::showGridTab(const spots::SpotsResult& run, const RunProvenance& provenance) {
    const std::vector<double> counts = presenter_->perFrame().spots;
    grid_ = nullptr;
    if (counts.size() < 2) return;
    grid_ = new SpotsGridView(counts);
    try {
        if (const auto grid = run.exptGrid()) {
            grid_->setGrid({grid->rows, grid->columns, grid_->grid().snake});
            wb_.log(LogLevel::Info, QString("Spots: grid scan of %1 rows × %2 columns from the "
                                            "experiment list")
                                        .arg(grid->rows)
                                        .arg(grid->columns));
        }
    } catch (const std::exception& e) { // the experiment list went away since the run
        wb_.log(LogLevel::Warning,
                QString("Spots: no grid from the experiment list: %1").arg(e.what()));
    }
    connect(grid_, &SpotsGridView::imageChosen, this, [this](std::size_t image) {
        setFrame(std::size_t(runFirstFrame_) + image);
        wb_.log(LogLevel::Info, QString("Spots: grid cell of image %1 shown").arg(image));
    });
    ResultTab tab{"spots", "Grid scan", grid_, grid_->plot(), {}, {}};
    tab.commandLine = resultCommand();
    tab.provenance = provenance;
    wb_.addResultTab(std::move(tab));
}

// "Per image": DIALS' per-image analysis when the run has a geometry (the expt parameter).
void SpotsPanel::showPerImageTab(const spots::SpotsResult& run, const RunProvenance& provenance) {
    std::optional<spots::PerImageStats> stats;
    try {
        stats = run.perImage();
    } catch (const std::exception& e) { // the experiment list went away since the run
        wb_.log(LogLevel::Warning, QString("Spots: no per-image analysis: %1").arg(e.what()));
    }
    if (!stats) return;
    QCustomPlot* plot = makePerImagePlot(*stats);
    ResultTab tab{"spots", "Per image", plot,
                  plot,    {},          [s = *stats] { return spots::perImageCsv(s); }};
    tab.commandLine = resultCommand();
    tab.provenance = provenance;
    wb_.addResultTab(std::move(tab));
}

// The spots tab the user had in front before the re-run, else the spot table.
void SpotsPanel::runEnded(bool ok) {
    if (ok && table_) showResultsAfterRun(table_);
}

ComparisonInput SpotsPanel::comparisonInput() const {
    const ParamSet params = form_->paramSet();
    RunCommand command;
    command.algorithm = "spots", command.sources = sources(), command.params = params;
    return {AlgorithmRegistry::instance().find("spots").read(sources(), params), params, command};
}

bool SpotsPanel::exportWith(const QString& what, const std::function<void()>& write) {
    try {
        write();
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("Spots: %1 not exported: %2").arg(what, e.what()));
        emit wb_.statusMessage(QString("Spots: %1 not exported: %2").arg(what, e.what()), 8000);
        return false;
    }
    wb_.log(LogLevel::Info, "Spots: exported " + what);
    return true;
}

// The run's results are what the parameters on screen give (else UsageError).
void SpotsPanel::checkRunCurrent() const {
    if (!presenter_->hasRun()) throw UsageError("run over every frame first (Ctrl+R)");
    if (runParams_ != form_->paramSet().dump())
        throw UsageError("the parameters changed since the last run; run again (Ctrl+R)");
}

bool SpotsPanel::exportSignalMask(const QString& path) {
    return exportWith("signal mask → " + path, [&] {
        checkRunCurrent();
        ui::exportSignalMask(path.toStdString(), presenter_->run());
    });
}

bool SpotsPanel::exportSpotTable(const QString& path) {
    return exportWith("spot table → " + path, [&] {
        checkRunCurrent();
        ui::exportSpotTable(path.toStdString(), presenter_->run().spots,
                            provenanceFields("spots: spot table", runProvenance_, resultCommand()));
    });
}

bool SpotsPanel::exportPhil(const QString& path) {
    return exportWith("DIALS phil → " + path,
                      [&] { ui::exportPhil(path.toStdString(), params()); });
}

} // namespace clscope::ui
