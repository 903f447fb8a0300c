// XpcsPanel runs: one job that reads the input (frame range, labels with the pixel mask) and
// runs the chosen variant through runAlgorithm(); its result builds the xpcs result tabs.
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "core/json_parse.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "ui/base/qstring.hpp"
#include "ui/image/image_view.hpp"
#include "ui/jobs/algorithm_run.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/labels_file.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui/xpcs/xpcs_average_view.hpp"
#include "ui/xpcs/xpcs_fit_form.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"
#include "ui/xpcs/xpcs_intensity_view.hpp"
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui/xpcs/xpcs_views.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QTabWidget>
#include <cmath>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// The input of a run, written next to its result: the labels and pixel mask used.
void writeInput(H5Writer& out, const xpcs::XpcsInput& input, const std::string& group) {
    const LabelMask& l = input.labels;
    out.write(group + "/labels_used", makeArray<std::int32_t>({l.height, l.width}, l.labels));
    out.setAttribute(group, "provenance", input.provenance.dump());
}

// Frames the run correlated (a multi-tau result's `frames` counts its lags).
std::size_t inputFrames(const xpcs::XpcsInput& input) {
    return input.frames   ? input.frames->frameCount()
           : input.blocks ? input.blocks->frameCount()
                          : 0;
}

// "VARIANT on DEVICE, frames FIRST–LAST": the range as read() records it in the run's input
// provenance ("FIRST:COUNT", absent for every frame; the count from the frames read, when they
// were).
QString runTitle(const xpcs::XpcsResult& run, const xpcs::XpcsInput* input) {
    const auto parameters = parseJsonQuietly(run.info.parametersJson);
    const nlohmann::json prov = parameters.is_object() && parameters.contains("input")
                                    ? parameters["input"]
                                    : nlohmann::json::object();
    const QString on =
        QString("%1 on %2")
            .arg(q(run.info.variant), q(run.info.device + " " + run.info.deviceName).trimmed());
    const FrameRange range = prov.contains("frames") && prov["frames"].is_string()
                                 ? FrameRange::parse(prov["frames"].get<std::string>())
                                 : FrameRange{};
    const std::size_t count = input ? inputFrames(*input) : range.count;
    if (count == 0) // not read whole: the stack's length is the run's business
        return range.first ? QString("%1, frames %2 to the last").arg(on).arg(range.first)
                           : on + ", every frame";
    return QString("%1, frames %2–%3").arg(on).arg(range.first).arg(range.first + count - 1);
}

// Labels drawn or loaded in the mask editor are held in memory: saved to a file (once per
// content), the run reads them from there as the command line it records names them.
void nameEditedLabels(XpcsRunRequest& request, const CurrentLabels& labels) {
    if (!request.labels || request.labelsOrigin.find(":/") != std::string::npos) return;
    if (labels.mask != request.labels) return; // not the workbench's labels: left as they are
    request.labelsOrigin = savedLabelsLocation(*labels.mask, labels.centres).toStdString();
}

} // namespace

// The job of the request on screen (throws what is wrong with it).
std::optional<Job> XpcsPanel::makeJob() {
    XpcsRunRequest request = this->request();
    nameEditedLabels(request, QBinLabels::of(wb_).current());
    checkRequest(request);
    const std::optional<double> trueD = readTrueDiffusion(*request.file);
    AlgorithmRun run;
    run.algorithm = &AlgorithmRegistry::instance().find("xpcs");
    run.command = request.command();
    run.command.sources = inputSources(request);
    run.chosen = request.device;
    // The intensity views and the export take the frames; a series longer than the memory
    // budget streams or runs in passes as clscope-cli runs it, shown without them.
    run.wholeInput = WholeInput::IfItFits;
    return runJob(std::move(run), [this, trueD] { trueDiffusion_ = trueD; });
}

void XpcsPanel::showResult(const Delivery& delivery) {
    const auto& run = delivery.result;
    const auto& input = delivery.input;
    presenter_ = std::make_shared<XpcsPresenter>();
    presenter_->setTrueDiffusion(trueDiffusion_);
    // The run's fit settings (its parameters); the fits through xpcs::fitBins as the run's.
    presenter_->setFitOptions(run->fitOptions.value_or(xpcs::FitOptions{}));
    // q of each bin as read() read it: the file's table, or that of the saved edited labels.
    std::optional<std::vector<double>> binQ;
    if (!run->qByLabel.empty()) binQ = xpcs::binQ(run->qByLabel, run->result.labels);
    presenter_->setBinQ(std::move(binQ));
    presenter_->setRuns({{run->result, run->info.device + " " + run->info.deviceName}});
    wb_.results().removeTabs("xpcs");
    showTabs(*run, input);
}

// The xpcs tab the user had in front before the re-run, else the g2 plot.
void XpcsPanel::runEnded(bool ok) {
    if (ok && g2View_) showResultsAfterRun(g2View_);
}

// The D a synthetic brownian file was made with (Å²/s), when the file says.
std::optional<double> XpcsPanel::readTrueDiffusion(const H5Reader& file) const {
    try {
        if (file.hasDataset(paths::trueDiffusion)) return file.readScalar(paths::trueDiffusion);
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Warning,
                QString("XPCS: %1 not read: %2").arg(q(paths::trueDiffusion), e.what()));
    }
    return std::nullopt;
}

// g2(τ) exports what reproduces the run: the result with its provenance (parameters, input
// file, datasets, labels origin, pixel mask, frame range), the labels used and the fits.
void XpcsPanel::showTabs(const xpcs::XpcsResult& run,
                         std::shared_ptr<const xpcs::XpcsInput> input) {
    const xpcs::Result& r = run.result;
    auto presenter = presenter_;
    presenter->setIntensity(input ? inputIntensity(*input) : std::nullopt);
    auto runShared = std::make_shared<xpcs::XpcsResult>(run);
    g2View_ = new XpcsG2View(presenter, runTitle(run, input.get()));
    connect(g2View_, &XpcsG2View::overlayRequested, this, &XpcsPanel::chooseOverlay);
    const auto writeAll = [presenter, runShared, input](H5Writer& out) {
        runShared->write(out, "/xpcs");
        if (input) writeInput(out, *input, "/xpcs/input");
        writeFits(out, *presenter, "/xpcs/fits");
        writeIntensity(out, *presenter, "/xpcs/intensity");
    };
    const auto add = [this, &run](ResultTab tab) {
        tab.commandLine = resultCommand();
        tab.provenance = runProvenance(run.info);
        wb_.addResultTab(std::move(tab));
    };
    add({"xpcs", "g2(τ)", g2View_, g2View_->plot(), writeAll,
         [presenter] { return presenter->csv(); }});
    for (ResultTab& tab : intensityTabs(presenter, g2View_))
        add(std::move(tab));
    fitsView_ = new XpcsFitsView(presenter);
    add({"xpcs", "Fits", fitsView_, nullptr, {}, [presenter] { return presenter->fitsCsv(); }});
    rateView_ = new XpcsRateView(presenter);
    add({"xpcs", "τ(q)", rateView_, presenter->hasQ() ? rateView_->plot() : nullptr, {}, {}});
    if (!r.twotime.empty()) {
        QCustomPlot* twotime = makeTwoTimePlot(r, r.twotime.begin()->first);
        add({"xpcs", "Two-time", twotime, twotime, {}, {}});
    }
}

bool XpcsPanel::overlayResult(const QString& file) {
    try {
        const H5Reader reader(file.toStdString());
        const auto stored = typedAs<xpcs::XpcsResult>(std::shared_ptr<const AlgorithmResult>(
            AlgorithmRegistry::instance().find("xpcs").readResult(reader)));
        const RunInfo& info = stored->info; // a foreign file: no device, "aps layout" its name
        const std::string origin = info.device.empty() ? info.deviceName : info.device;
        presenter_->setOverlay(XpcsRun{stored->result, QFileInfo(file).fileName().toStdString() +
                                                           (origin.empty() ? "" : ", " + origin)});
        wb_.log(LogLevel::Info, "XPCS: g2 of " + file + " drawn beside the run's");
    } catch (const std::exception& e) {
        reportError(QString("%1: not overlaid: %2").arg(file, e.what()));
        return false;
    }
    if (g2View_) g2View_->refresh();
    return true;
}

// The g2 view's Overlay button: a file to draw beside the run, or the overlay removed.
void XpcsPanel::chooseOverlay(bool shown) {
    if (shown) {
        presenter_->setOverlay(std::nullopt);
        if (g2View_) g2View_->refresh();
        return;
    }
    const QString file =
        QFileDialog::getOpenFileName(this, "Overlay an XPCS result", {},
                                     "XPCS results (*.h5 *.hdf *.hdf5 *.nxs);;All files (*)");
    if (!file.isEmpty()) overlayResult(file);
}

XpcsAverageView* XpcsPanel::showAverage() {
    if (!averageView_) {
        averageView_ = new XpcsAverageView;
        averageView_->setOpenFile([this] {
            const auto& file = wb_.dataset().file();
            return file ? QString::fromStdString(file->fileName()) : QString();
        });
        ResultTab tab{"xpcs-average", "Average", averageView_, averageView_->g2Plot(), {}, {}};
        tab.commandLine =
            "# the Average tab: Save writes what clscope-cli average RUN... -o OUT.h5 "
            "writes";
        wb_.addResultTab(std::move(tab));
    }
    wb_.results().showAfterRun("xpcs-average", averageView_);
    return averageView_;
}

ComparisonInput XpcsPanel::comparisonInput() const {
    XpcsRunRequest request = this->request();
    nameEditedLabels(request, QBinLabels::of(wb_).current());
    return {loadInput(request), request.params(), request.command()};
}

} // namespace clscope::ui
