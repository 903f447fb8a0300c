// AzintPanel: the form (input, parameters, run) and how it follows the open file and the device;
// its runs and result tabs.
#include "ui/azint/azint_panel.hpp"
#include "ui/azint/azint_bins_overlay.hpp"

#include "core/errors.hpp"
#include "ui/base/qstring.hpp"
#include "ui/image/image_view.hpp"
#include "ui/image/stream_frame_source.hpp"
#include "ui/jobs/algorithm_run.hpp"
#include "ui/kit/frame_sources.hpp"
#include "ui/kit/panel_column.hpp"
#include "ui/kit/scripted_form.hpp"
#include "ui/kit/variant_combo.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/frame_range_edit.hpp"
#include "ui/params/param_form.hpp"
#include "ui/results/run_command.hpp"

#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

const Algorithm& azintAlgorithm() {
    return AlgorithmRegistry::instance().find("azint");
}

// The cells' centres from first to last (one cell: a unit wide).
QCPRange centres(const std::vector<double>& values) {
    if (values.empty()) return {0, 1};
    return values.size() > 1 ? QCPRange(values.front(), values.back())
                             : QCPRange(values.front() - 0.5, values.front() + 0.5);
}

} // namespace

AzintPanel::AzintPanel(Workbench& workbench, QWidget* parent)
    : TypedPanel(workbench, "azint", "Azint", parent) {
    const PanelColumn column = panelColumnWithInputLine(*this);
    QVBoxLayout* layout = column.layout;
    inputInfo_ = column.inputInfo;
    form_ = new ParamForm(azintAlgorithm(), "Integration (pyFAI's names)", {}, {}, this);
    layout->addWidget(form_);
    layout->addWidget(buildRun());
    layout->addStretch(1);
    connect(form_, &ParamForm::changed, this, [this] {
        emit wb_.parametersChanged("azint");
        refreshVariants();
    });
    connect(range_, &FrameRangeEdit::changed, this,
            [this] { emit wb_.parametersChanged("azint"); });
    connect(&wb_, &Workbench::fileOpened, this, [this] { refreshInput(); });
    connect(&wb_, &Workbench::roleChanged, this, [this] { refreshInput(); });
    connect(&wb_, &Workbench::deviceChanged, this, [this] { refreshVariants(); });
    refreshInput();
    refreshVariants();
}

QWidget* AzintPanel::buildRun() {
    auto* box = new QGroupBox("Run", this);
    auto* form = new QFormLayout(box);
    form->setContentsMargins(6, 6, 6, 6);
    range_ = new FrameRangeEdit(box);
    form->addRow("Frames", range_);
    deviceInfo_ = new QLabel(box);
    deviceInfo_->setWordWrap(true);
    form->addRow("Device", deviceInfo_);
    variant_ = makeVariantCombo(wb_, "azint", box);
    form->addRow("Variant", variant_);
    form->addRow(makeRunButton(box, "Integrate every frame of the range (Ctrl+R)"));
    return box;
}

void AzintPanel::refreshInput() {
    const DatasetRoles& roles = wb_.dataset();
    const auto framesPath = roles.path(DataRole::Frames);
    QString text = "No frames — open a file and assign a frame stack in the Data panel.";
    QString refusal = "open a file with frames first";
    try {
        if (framesPath && roles.file()) {
            const auto frames = openFrameSource(roles.file(), *framesPath, roles.eventFrameTime());
            const auto mask = roles.path(DataRole::PixelMask);
            text = QString("<b>Frames</b> %1:%2 — %3 × %4×%5<br><b>Pixel mask</b> %6<br>"
                           "<b>Geometry</b> the file's /entry/processing/geometry unless "
                           "<i>poni</i> or <i>expt</i> names a file")
                       .arg(QFileInfo(q(roles.file()->fileName())).fileName(), q(*framesPath))
                       .arg(frames->frameCount())
                       .arg(frames->height())
                       .arg(frames->width())
                       .arg(mask ? q(*mask) : QString("none"));
            refusal.clear();
        }
    } catch (const std::exception& e) {
        text = QString("<span style='color:#b00'>%1</span>").arg(QString(e.what()).toHtmlEscaped());
        refusal = e.what();
    }
    inputInfo_->setText(text);
    setRunRefusal(refusal);
}

void AzintPanel::refreshVariants() {
    deviceInfo_->setText(q(wb_.device().spec + "  " + wb_.device().name));
    refillVariants(*variant_, wb_, azintAlgorithm(), form_->paramSet());
}

std::string AzintPanel::variant() const {
    return comboVariant(*variant_);
}

void AzintPanel::setVariant(const std::string& id) {
    selectComboVariant(*variant_, id);
}

void AzintPanel::setFrameRange(const FrameRange& range) {
    range_->setRange(range);
}

InputSources AzintPanel::sources() const {
    return openFileFrameSources(wb_, range_->range(), "azint");
}

std::optional<Job> AzintPanel::makeJob() {
    AlgorithmRun run;
    run.algorithm = &azintAlgorithm();
    run.command.sources = sources();
    run.command.params = form_->paramSet();
    run.command.variant = variant();
    run.chosen = wb_.device();
    run.wholeInput = WholeInput::Never; // the views need the result only
    const ParamSet params = run.command.params;
    return runJob(std::move(run), [this, params] { runParams_ = params; });
}

void AzintPanel::keepStored(const RunCommand& stored) {
    runParams_ = stored.params;
}

// The run's radial bins over the open file's image (shown while the panel is in front).
void AzintPanel::showBinsOnImage() {
    const DatasetRoles& roles = wb_.dataset();
    const auto framesPath = roles.path(DataRole::Frames);
    if (!roles.file() || !framesPath) return;
    try {
        const auto frames = openFrameSource(roles.file(), *framesPath, roles.eventFrameTime());
        OverlayLayer* layer = wb_.setOverlay(
            azintBinsOverlay(runParams_, *roles.file(), frames->height(), frames->width()));
        layer->setVisible(true);
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Warning, QString("Azint: the bins are not drawn: %1").arg(e.what()));
    }
}

void AzintPanel::showResult(const Delivery& delivery) {
    auto presenter = std::make_shared<AzintPresenter>();
    presenter->setResult(delivery.result->result);
    presenter_ = presenter;
    wb_.results().removeTabs("azint");
    showTabs(delivery.result);
    showBinsOnImage();
}

void AzintPanel::showTabs(const std::shared_ptr<const azint::AzintResult>& run) {
    const azint::Result& r = run->result;
    const QString title = q(run->info.variant + " on " + run->info.device + " — " + run->summary());
    const QString radial = q(presenter_->radialTitle());
    auto presenter = presenter_;
    const auto add = [this, &run](ResultTab tab) {
        tab.commandLine = resultCommand();
        tab.provenance = runProvenance(run->info);
        wb_.addResultTab(std::move(tab));
    };
    profile_ = new AzintProfileView(presenter_, title);
    add({"azint", "I(q)", profile_, profile_->plot(),
         [run](H5Writer& out) { run->write(out, "/azint"); },
         [presenter] { return presenter->csv(); }});
    waterfall_ = nullptr, cake_ = nullptr;
    if (r.frames > 1) {
        waterfall_ = new AzintMapView("I per frame: " + title, radial, "frame", 1);
        waterfall_->setMap(presenter_->waterfall(), centres(r.radial),
                           QCPRange(0, double(r.frames - 1)));
        add({"azint", "Waterfall", waterfall_, waterfall_->plot(), {}, {}});
    }
    if (r.cake) {
        cake_ = new AzintMapView("I(χ, radial) of a frame: " + title, radial, "χ (°)", r.frames);
        connect(cake_, &AzintMapView::frameChanged, this, [this](std::size_t f) { showCake(f); });
        showCake(0);
        add({"azint", "Cake", cake_, cake_->plot(), {}, {}});
    }
}

void AzintPanel::showCake(std::size_t frame) {
    if (!cake_) return;
    const azint::Result& r = presenter_->result();
    cake_->setMap(presenter_->cake(frame), centres(r.radial), centres(r.azimuthal));
}

void AzintPanel::runEnded(bool ok) {
    if (ok && profile_) showResultsAfterRun(profile_);
}

void AzintPanel::applyScripted(const ScriptedSettings& settings) {
    const nlohmann::json others = setFormFrom(*form_, settings);
    for (const auto& [name, value] : others.items())
        form_->setValue(name, value);
    setFrameRange({settings.firstFrame, settings.frameCount});
    if (!settings.variant.empty()) setVariant(settings.variant);
}

ComparisonInput AzintPanel::comparisonInput() const {
    const ParamSet params = form_->paramSet();
    RunCommand command;
    command.algorithm = "azint", command.sources = sources(), command.params = params;
    return {azintAlgorithm().read(command.sources, params), params, command};
}

} // namespace clscope::ui
