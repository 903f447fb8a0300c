// RbfPanel runs: one job per evaluation (the Run button, or LiveRerun once the controls have
// settled) through runAlgorithm() on the worker thread; its result becomes the "rbf planes"
// Results tab. Display changes redraw without running. Exports of the shown run.
#include "core/errors.hpp"
#include "ui/base/qstring.hpp"
#include "ui/jobs/algorithm_run.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/scripted_form.hpp"
#include "ui/kit/variant_combo.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/rbf/rbf_panel.hpp"
#include "ui/results/export.hpp"
#include "ui/results/run_command.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QSpinBox>

namespace clscope::ui {

namespace {

// What a run depends on: equal keys give equal planes.
std::string runKey(const RbfRunRequest& r) {
    return r.params().dump() + "|" + r.variant + "|" + r.runDevice().spec + "|" +
           (r.sources ? r.sources->origin : std::string());
}

} // namespace

// Run always evaluates, even with unchanged parameters (AlgorithmPanel::run asks only while the
// job runner is idle).
std::optional<Job> RbfPanel::makeJob() {
    lastKey_.clear();
    return evaluationJob();
}

// The job for the controls as they are now; nothing when there is nothing to run or the
// parameters are those of the run already made (a live request after Run, say).
std::optional<Job> RbfPanel::evaluationJob() {
    RbfRunRequest request;
    std::shared_ptr<rbf::RbfInput> input;
    try {
        request = this->request();
        input = request.input();
    } catch (const std::exception& e) {
        reportError(e.what());
        return std::nullopt;
    }
    const std::string key = runKey(request);
    if (key == lastKey_) return std::nullopt;
    lastKey_ = key;
    AlgorithmRun run;
    run.algorithm = &rbfAlgorithm();
    run.command = request.command();
    run.chosen = request.device;
    run.input = input;
    const ParamSet params = run.command.params;
    return runJob(std::move(run),
                  [this, params] { runParams_ = rbf::Algorithm().parameters(params); });
}

// The run's input is the one evaluationJob made (held, never streamed). What setRun throws
// fails the run (the job runner says why); the planes shown stay.
void RbfPanel::keepStored(const RunCommand& stored) {
    runParams_ = rbf::Algorithm().parameters(stored.params);
}

void RbfPanel::showResult(const Delivery& delivery) {
    const auto& run = delivery.result;
    const auto& input = delivery.input;
    const rbf::Params& params = runParams_;
    auto presenter = std::make_shared<RbfPresenter>();
    presenter->setScale(presenter_->scale());
    presenter->setDisplay(presenter_->display());
    presenter->setRun(input->problem, run->result, params);
    presenter_ = presenter;
    shown_ = run;
    refreshDisplays();
    const rbf::Problem& problem = input->problem;
    QString title = QString("<b>%1</b> on %2 — %3; targets on 3 planes of %4 × %4, %5 sources "
                            "(%6 weights); kernel %7 ms")
                        .arg(q(run->info.variant), q(run->info.device + " " + run->info.deviceName),
                             q(kernelText(params)))
                        .arg(problem.targets.planes)
                        .arg(problem.sourceCount())
                        .arg(problem.complexWeights ? "complex" : "real")
                        .arg(run->info.kernelMs, 0, 'f', run->info.kernelMs < 10 ? 3 : 1);
    if (run->result.sampleCount)
        title += QString("; max|f − f_float64| / max|f_float64| = %1 on %2 sampled targets")
                     .arg(run->result.sampleDeviation, 0, 'g', 2)
                     .arg(run->result.sampleCount);
    view_ = new RbfPlanesView(presenter_, title);
    view_->refresh(profileChoice());
    ResultTab tab{"rbf",
                  "rbf planes",
                  view_,
                  view_->planes(),
                  [run](H5Writer& out) { run->write(out, "/rbf"); },
                  {}};
    tab.commandLine = resultCommand();
    tab.provenance = runProvenance(run->info);
    wb_.addResultTab(std::move(tab));
    ++delivered_;
}

void RbfPanel::runEnded(bool ok) {
    if (!ok) lastKey_.clear(); // the same parameters may be tried again
}

RbfProfileChoice RbfPanel::profileChoice() const {
    RbfProfileChoice c;
    c.plane = profilePlane_->currentData().toInt();
    c.alongHorizontal = profileDirection_->currentData().toBool();
    c.index = static_cast<std::size_t>(profileIndex_->value());
    return c;
}

// The display choices of the shown result (value, or the four complex ones).
void RbfPanel::refreshDisplays() {
    const QSignalBlocker block(display_);
    display_->clear();
    const std::vector<RbfDisplay> modes =
        presenter_->empty() ? std::vector<RbfDisplay>{RbfDisplay::Value} : presenter_->displays();
    for (RbfDisplay mode : modes)
        display_->addItem(q(displayName(mode)), int(mode));
    display_->setCurrentIndex(std::max(0, display_->findData(int(presenter_->display()))));
}

void RbfPanel::displayChanged() {
    presenter_->setDisplay(static_cast<RbfDisplay>(display_->currentData().toInt()));
    presenter_->setScale(static_cast<RbfScale>(scale_->currentData().toInt()));
    const std::size_t n = static_cast<std::size_t>(grid_->value());
    profileAt_->setText(QString("at %1").arg(
        rbf::planeCoordinate(std::size_t(profileIndex_->value()), n), 0, 'g', 4));
    if (view_ && !presenter_->empty()) view_->refresh(profileChoice());
}

void RbfPanel::setKernel(rbf::Kernel kernel) {
    form_->setValue("kernel", rbf::kernelName(kernel));
}
void RbfPanel::setSigma(double sigma) {
    form_->setValue("sigma", sigma);
}
void RbfPanel::setWavenumber(double k) {
    form_->setValue("wavenumber", k);
}
void RbfPanel::setGrid(std::size_t n) {
    grid_->setValue(static_cast<int>(n));
}
void RbfPanel::setGeneratedSources(bool generated, std::size_t count, std::uint64_t seed) {
    sourceCount_->setValue(static_cast<int>(count));
    seed_->setValue(static_cast<int>(seed));
    sourceMode_->setCurrentIndex(sourceMode_->findData(generated ? "generated" : "file"));
}
void RbfPanel::setVariant(const std::string& id) {
    selectComboVariant(*variant_, id);
}
// The sources of the open file (as clscope-cli reads them); planes, the grid here, when given
// (0, the file's targets, is not a grid the panel has: it keeps its own, and says so).
void RbfPanel::applyScripted(const ScriptedSettings& settings) {
    const nlohmann::json others = setFormFrom(*form_, settings);
    const long long planes = others.value("planes", 0LL);
    if (planes > 0) setGrid(static_cast<std::size_t>(planes));
    if (planes <= 0)
        wb_.log(LogLevel::Info, QString("rbf: targets on the panel's %1 × %1 planes (the "
                                        "command line says --planes)")
                                    .arg(grid_->value()));
    sourceMode_->setCurrentIndex(sourceMode_->findData("file"));
    if (!settings.variant.empty()) setVariant(settings.variant);
}
void RbfPanel::setDisplay(RbfDisplay display) {
    display_->setCurrentIndex(std::max(0, display_->findData(int(display))));
}
void RbfPanel::setScale(RbfScale scale) {
    scale_->setCurrentIndex(scale_->findData(int(scale)));
}
void RbfPanel::setProfile(const RbfProfileChoice& choice) {
    profilePlane_->setCurrentIndex(profilePlane_->findData(choice.plane));
    profileDirection_->setCurrentIndex(profileDirection_->findData(choice.alongHorizontal));
    profileIndex_->setValue(static_cast<int>(choice.index));
}
void RbfPanel::setLive(bool live) {
    liveBox_->setChecked(live);
}

ComparisonInput RbfPanel::comparisonInput() const {
    const RbfRunRequest r = request();
    return {r.input(), r.params(), r.command()};
}

ProvenanceFields RbfPanel::provenance() const {
    return provenanceFields(
        "rbf: rbf planes", shown_ ? runProvenance(shown_->info) : RunProvenance{}, resultCommand());
}

void RbfPanel::exportHdf5(const QString& path) const {
    if (!shown_) throw UsageError("rbf: no planes to export yet — run first");
    const auto run = shown_;
    ui::exportHdf5(path, {[run](H5Writer& out) { run->write(out, "/rbf"); }}, provenance());
}

void RbfPanel::exportPng(const QString& path, int width, int height) const {
    if (!view_) throw UsageError("rbf: no planes to export yet — run first");
    exportPlot(*view_->planes(), path, width, height, provenance(), "clscope rbf planes");
}

void RbfPanel::exportDialog(bool hdf5) {
    const QString path =
        hdf5 ? QFileDialog::getSaveFileName(this, "Export planes", "rbf-planes.h5", "HDF5 (*.h5)")
             : QFileDialog::getSaveFileName(this, "Export planes", "rbf-planes.png", "PNG (*.png)");
    if (path.isEmpty()) return;
    try {
        hdf5 ? exportHdf5(path) : exportPng(path);
        wb_.log(LogLevel::Info, "rbf: exported the planes to " + path);
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("rbf export: %1").arg(e.what()));
        QMessageBox::warning(this, "Export planes", e.what());
    }
}

} // namespace clscope::ui
