// XpcsPanel: the form (inputs, frame range, variants, two-time bin, fit options, Run) and how
// it follows the open file, the current labels and the device. Runs: xpcs_panel_run.cpp.
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui/base/q_unit.hpp"
#include "ui/base/qstring.hpp"
#include "ui/kit/scripted_form.hpp"
#include "ui/kit/variant_combo.hpp"
#include "ui/params/frame_range_edit.hpp"

#include "core/input/metadata.hpp"
#include "core/io.hpp"
#include "core/xpcs/fit_params.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui/params/param_form.hpp"
#include "ui/xpcs/xpcs_fit_form.hpp"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {
// The fit parameters the Fit box shows (the τ(q) law: diffusion, rate_law, rate_q_range are
// fields of the form).
std::set<std::string> fitBoxParams() {
    std::set<std::string> names;
    for (const ParamSpec& spec : xpcs::fitParamSpecs())
        if (spec.name != "diffusion" && spec.name.rfind("rate_", 0) != 0) names.insert(spec.name);
    return names;
}

// q of the bins as a run reads it: the file's table (xpcs::readPhysicalValues), else the own
// table of the labels on screen (the mask editor's, in nm⁻¹: saved with them for the run, which
// reads it in Å⁻¹ as the results show it), else none.
QString qSourceText(const xpcs::XpcsInput* in, const CurrentLabels& labels) {
    if (in && !in->qByLabel.empty()) return QString("%1, from %2").arg(qUnit, q(in->qOrigin));
    const bool known = labels.mask && labels.centres &&
                       std::any_of(labels.centres->q.begin(), labels.centres->q.end(),
                                   [](double v) { return std::isfinite(v); });
    if (known) return QString("%1, from the q table of the labels (%2)").arg(qUnit, labels.origin);
    return "none: results by label";
}
} // namespace

XpcsPanel::XpcsPanel(Workbench& workbench, QWidget* parent)
    : TypedPanel(workbench, "xpcs", "XPCS", parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(240); // narrow docks scroll rather than widen the window
    auto* content = new QWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(buildInputs());
    // twotime: the bin combo below; the fit: the Fit box (values, bounds, τ range, Refit).
    std::set<std::string> omit = fitBoxParams();
    omit.insert("twotime");
    form_ =
        new ParamForm(AlgorithmRegistry::instance().find("xpcs"), "Parameters", omit, {}, content);
    layout->addWidget(form_);
    layout->addWidget(buildRunOptions());
    fitForm_ = new XpcsFitForm(content);
    layout->addWidget(fitForm_);
    auto* average = new QPushButton("Average runs…", content);
    average->setToolTip("Average correlate results with rejection (the Average tab; "
                        "clscope-cli average)");
    connect(average, &QPushButton::clicked, this, [this] { showAverage(); });
    layout->addWidget(average);
    layout->addStretch(1);
    scroll->setWidget(content);
    outer->addWidget(scroll, 1);
    outer->addWidget(makeRunButton(
        this, "Correlate with the chosen variant (compare variants in the Compare dock)"));
    connect(fitForm_, &XpcsFitForm::refitRequested, this, [this] { run(); });
    connect(fitForm_, &XpcsFitForm::edited, this, [this] { storeFitParams(); });
    connect(form_, &ParamForm::changed, this, [this] { showFitParams(); });
    showFitParams();
    storeFitParams(); // the GUI always fits: "none" (the CLI's default) shows as single
    connect(&wb_, &Workbench::fileOpened, this, [this] { resetForNewFile(); });
    connect(&wb_, &Workbench::roleChanged, this, [this] { refreshInputs(); });
    connect(&QBinLabels::of(wb_), &QBinLabels::changed, this, [this] { refreshInputs(); });
    connect(&wb_, &Workbench::deviceChanged, this, [this] { refreshVariants(); });
    // Results are bound to the parameters they ran with.
    const auto changed = [this] { emit wb_.parametersChanged("xpcs"); };
    connect(frames_, &FrameRangeEdit::changed, this, changed);
    connect(form_, &ParamForm::changed, this, changed);
    connect(form_, &ParamForm::changed, this, [this] {
        refreshPhysical();
        // Multi-tau or dense: which variants can run (the list reads the user variants from
        // disk: only when the mode flips, not at every keystroke in the form).
        if (form_->paramSet().boolean("multitau") != variantsMultitau_) refreshVariants();
    });
    connect(twotime_, &QComboBox::currentIndexChanged, this, changed);
    refreshInputs();
    refreshVariants();
}

QWidget* XpcsPanel::buildInputs() {
    auto* box = new QGroupBox("Input", this);
    auto* form = new QFormLayout(box);
    form->setContentsMargins(6, 6, 6, 6);
    framesInfo_ = new QLabel(box);
    labelsInfo_ = new QLabel(box);
    timeInfo_ = new QLabel(box);
    qInfo_ = new QLabel(box);
    for (QLabel* label : {framesInfo_, labelsInfo_, timeInfo_, qInfo_}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    form->addRow("Frames", framesInfo_);
    form->addRow("Labels", labelsInfo_);
    form->addRow("Frame time", timeInfo_);
    form->addRow("q", qInfo_);
    timeInfo_->setToolTip("Read as clscope-cli correlate reads it: the typed value, else the "
                          "file's frame_time with its units attribute (seconds without one)");
    qInfo_->setToolTip("q of the bins as clscope-cli correlate reads it: qmask_q with its units "
                       "attribute (nm⁻¹ without one), shown in Å⁻¹");
    frames_ = new FrameRangeEdit(box);
    form->addRow("First frame", frames_);
    return box;
}

QWidget* XpcsPanel::buildRunOptions() {
    auto* box = new QGroupBox("Run", this);
    auto* form = new QFormLayout(box);
    form->setContentsMargins(6, 6, 6, 6);
    deviceInfo_ = new QLabel(box);
    deviceInfo_->setWordWrap(true);
    form->addRow("Device", deviceInfo_);
    variant_ = makeVariantCombo(wb_, "xpcs", box);
    form->addRow("Variant", variant_);
    twotime_ = new QComboBox(box);
    twotime_->setToolTip("Bin whose two-time map C(t1,t2) is computed");
    form->addRow("Two-time bin", twotime_);
    return box;
}

// A new file: nothing derived from the previous one stays (frame range, typed frame time, the
// fit's τ range); frame time, q and labels are read from the new file.
void XpcsPanel::resetForNewFile() {
    scriptedParams_ = nlohmann::json::object();
    frames_->setRange({});
    form_->setValue("frame_time", nlohmann::json());
    for (const char* tau : {"fit_tau_min", "fit_tau_max"})
        form_->setValue(tau, form_->paramSet().spec(tau).defaultValue);
    refreshInputs();
}

// The Fit box shows the form's fit parameters (restored settings, a session, a script).
void XpcsPanel::showFitParams() {
    if (storingFit_) return;
    try {
        // The τ(q) law comes along (the box keeps what it does not show).
        fitForm_->setOptions(xpcs::fitOptionsFrom(form_->paramSet()).value_or(xpcs::FitOptions{}));
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Warning, QString("XPCS fit: %1").arg(e.what()));
    }
}

// The Fit box's values into the form's fit parameters (one change at a time is refused where
// it alone would cross a bound: said in the Log).
void XpcsPanel::storeFitParams() {
    const QScopedValueRollback<bool> storing(storingFit_, true);
    const nlohmann::json values = xpcs::fitParamValues(fitForm_->options());
    for (const std::string& name : fitBoxParams())
        try {
            if (form_->value(name) != values[name]) form_->setValue(name, values[name]);
        } catch (const std::exception& e) {
            wb_.log(LogLevel::Warning, QString("XPCS fit: %1").arg(e.what()));
        }
}

// Frames and labels as the workbench has them now; the two-time bins follow the labels.
void XpcsPanel::refreshInputs() {
    const DatasetRoles& roles = wb_.dataset();
    const auto framesPath = roles.path(DataRole::Frames);
    QString frames = "none — assign a frame stack in the Data panel";
    if (framesPath && roles.file()) {
        const std::size_t count =
            storedFrameCount(*roles.file(), *framesPath,
                             roles.framesAreEvents() ? roles.eventFrameTime() : std::nullopt);
        frames = QString("%1:%2").arg(QFileInfo(q(roles.file()->fileName())).fileName(),
                                      q(*framesPath)) +
                 (count ? QString(" (%1 frames)").arg(count) : QString());
        framesInfo_->setToolTip(q(roles.file()->where(*framesPath)));
    }
    const std::string refusal =
        framesPath && roles.file() ? framesRefusal(*roles.file(), *framesPath) : std::string();
    framesInfo_->setText(refusal.empty() ? frames
                                         : frames + "<br><span style='color:#b00'>" +
                                               q(refusal).toHtmlEscaped() + "</span>");
    if (!refusal.empty() && refusal != framesRefusal_)
        wb_.log(LogLevel::Warning, "XPCS: " + q(refusal));
    framesRefusal_ = refusal;
    CurrentLabels labels;
    try {
        labels = QBinLabels::of(wb_).current();
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("cannot read the q-bin labels: %1").arg(e.what()));
    }
    labelsOrigin_ = labels.origin;
    labelsInfo_->setToolTip(labels.origin);
    const QString shortOrigin = labels.origin.contains(':') && labels.origin.contains('/')
                                    ? QFileInfo(labels.origin.section(':', 0, -2)).fileName() +
                                          ":" + labels.origin.section(':', -1)
                                    : labels.origin;
    labelsInfo_->setText(
        labels.mask ? QString("%1 (%2 bins%3)")
                          .arg(shortOrigin)
                          .arg(labels.mask->bins().size())
                          .arg(labels.centres ? ", with q" : "")
                    : QString("none — assign q-bin labels or draw them in the mask editor"));
    refreshTwoTimeBins();
    refreshPhysical();
}

// Frame time and q as clscope-cli correlate reads them (xpcs::readPhysicalValues, units
// honoured) and where each comes from; a bad units attribute is shown and refuses Run.
void XpcsPanel::refreshPhysical() {
    std::shared_ptr<xpcs::XpcsInput> in;
    std::string error;
    try {
        in = readPhysical(request());
    } catch (const std::exception& e) {
        error = e.what();
    }
    const ParamSet form = form_->paramSet();
    QString time = "none: τ in frames";
    if (form.has("frame_time"))
        time = QString("%1 s (typed)").arg(form.number("frame_time"));
    else if (in && in->frameTime)
        time = QString("%1 s — %2").arg(*in->frameTime).arg(q(in->frameTimeOrigin));
    CurrentLabels labels;
    try {
        labels = QBinLabels::of(wb_).current();
    } catch (const std::exception&) { // said by refreshInputs
    }
    const QString qText = qSourceText(in.get(), labels);
    const QString bad = "<span style='color:#b00'>" + q(error).toHtmlEscaped() + "</span>";
    timeInfo_->setText(error.empty() ? time : bad);
    qInfo_->setText(error.empty() ? qText : QString("—"));
    if (auto* frameTime = qobject_cast<QLineEdit*>(form_->field("frame_time")))
        frameTime->setPlaceholderText(in && in->frameTime
                                          ? QString("file: %1 s").arg(*in->frameTime)
                                          : QString("none: τ in frames"));
    if (!error.empty() && error != physicalError_) wb_.log(LogLevel::Error, "XPCS: " + q(error));
    physicalError_ = error;
    const std::string why = !framesRefusal_.empty() ? framesRefusal_ : physicalError_;
    setRunRefusal(q(why));
}

void XpcsPanel::refreshTwoTimeBins() {
    const int previous = twotime_->currentData().toInt();
    const QSignalBlocker block(twotime_);
    twotime_->clear();
    twotime_->addItem("none", 0);
    std::shared_ptr<const LabelMask> mask;
    try {
        mask = QBinLabels::of(wb_).current().mask;
    } catch (const std::exception&) {
    }
    if (mask)
        for (std::int32_t label : mask->bins())
            twotime_->addItem(QString("label %1").arg(label), label);
    const int index = twotime_->findData(previous);
    twotime_->setCurrentIndex(index >= 0 ? index : 0);
}

// The registry's variants on the current device; unsupported ones greyed with the reason.
void XpcsPanel::refreshVariants() {
    const DeviceInfo& device = wb_.device();
    deviceInfo_->setText(q(device.spec + "  " + device.name));
    const std::string previous = variant_->count() ? variant() : wb_.variant("xpcs");
    const ParamSet params = form_->paramSet();
    variantsMultitau_ = params.boolean("multitau");
    fillVariantCombo(*variant_, xpcsVariantOptions(device, params), previous, wb_.variant("xpcs"));
}

std::string XpcsPanel::variant() const {
    return comboVariant(*variant_);
}

void XpcsPanel::setVariant(const std::string& id) {
    selectComboVariant(*variant_, id);
}

void XpcsPanel::setFrameRange(std::size_t first, std::size_t count) {
    frames_->setRange({first, count});
}

void XpcsPanel::setFrameTimeOverride(std::optional<double> seconds) {
    form_->setValue("frame_time", seconds ? nlohmann::json(*seconds) : nlohmann::json());
}

void XpcsPanel::setTwoTimeLabel(std::int32_t label) {
    const int index = twotime_->findData(label);
    twotime_->setCurrentIndex(index >= 0 ? index : 0);
}

void XpcsPanel::applyScripted(const ScriptedSettings& settings) {
    scriptedParams_ = setFormFrom(*form_, settings, fitBoxParams()); // the Fit box: the form's
    setFrameRange(settings.firstFrame, settings.frameCount);
    if (!settings.variant.empty()) setVariant(settings.variant);
    refreshInputs();
}

XpcsRunRequest XpcsPanel::request() const {
    XpcsRunRequest r;
    const DatasetRoles& roles = wb_.dataset();
    r.file = roles.file();
    r.framesPath = roles.path(DataRole::Frames).value_or("");
    const CurrentLabels labels = QBinLabels::of(wb_).current();
    r.labels = labels.mask;
    r.labelsOrigin = labels.origin.toStdString();
    r.pixelMaskPath = roles.path(DataRole::PixelMask).value_or("");
    r.firstFrame = static_cast<std::size_t>(frames_->range().first);
    r.frameCount = static_cast<std::size_t>(frames_->range().count);
    r.form = form_->paramSet();
    if (r.form.text("fit") == "none") r.form.set("fit", "single"); // the GUI always fits
    // Typed, else none: Algorithm::read takes the file's with its units, as clscope-cli does.
    if (r.form.has("frame_time")) r.frameTime = r.form.number("frame_time");
    // An event list's frames: the width they were shown binned into, unless one is typed.
    if (!r.frameTime && roles.framesAreEvents()) r.frameTime = roles.eventFrameTime();
    r.variant = variant();
    r.device = wb_.device();
    r.device = deviceFor(r, r.variant);
    if (const int label = twotime_->currentData().toInt(); label > 0) r.twotimeLabels = {label};
    for (const auto& [name, value] : scriptedParams_.items())
        r.form.set(name, value);
    if (scriptedParams_.contains("twotime"))
        r.twotimeLabels = scriptedParams_["twotime"].get<std::vector<std::int32_t>>();
    return r;
}

} // namespace clscope::ui
