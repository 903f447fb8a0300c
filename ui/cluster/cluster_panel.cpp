// ClusterPanel: the form (input, variant, charge cut, view options, exports, Run) and how it
// follows the open file and the device. Runs, result tabs and exports: cluster_panel_run.cpp.
#include "ui/cluster/cluster_panel.hpp"
#include "core/cluster/digis.hpp"
#include "ui/base/qstring.hpp"
#include "ui/kit/variant_combo.hpp"

#include "ui/cluster/cluster_overview.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/scripted_form.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace clscope::ui {

const Algorithm& clusterAlgorithm() {
    return AlgorithmRegistry::instance().find("cluster");
}

ClusterPanel::ClusterPanel(Workbench& workbench, QWidget* parent)
    : TypedPanel(workbench, "cluster", "Cluster", parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(240);
    auto* content = new QWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(buildInputs());
    form_ = new ParamForm(
        clusterAlgorithm(), "Parameters", {}, [](const ParamSet& p) { cluster::chargeCutOf(p); },
        content);
    connect(form_, &ParamForm::changed, this, [this] { parametersEdited(); });
    layout->addWidget(form_);
    layout->addWidget(buildView());
    summary_ = new QLabel(content);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    layout->addStretch(1);
    scroll->setWidget(content);
    outer->addWidget(scroll, 1);
    outer->addWidget(buildExportButton());
    outer->addWidget(makeRunButton(this, "Cluster the digis with the chosen variant (compare "
                                         "variants in the Compare dock)"));
    live_ = new LiveRerun(
        wb_.jobs(), [this] { return clusterJob(true); }, 150, this);
    connect(live_, &LiveRerun::submitted, this, [this] { liveRunSubmitted(); });
    connect(&wb_, &Workbench::fileOpened, this, [this] { refreshInputs(); });
    connect(&wb_, &Workbench::roleChanged, this, [this] { refreshInputs(); });
    connect(&wb_, &Workbench::deviceChanged, this, [this] { refreshVariants(); });
    refreshInputs();
    refreshVariants();
}

QWidget* ClusterPanel::buildInputs() {
    auto* box = new QGroupBox("Input and run", this);
    auto* form = new QFormLayout(box);
    form->setContentsMargins(6, 6, 6, 6);
    digisInfo_ = new QLabel(box);
    deviceInfo_ = new QLabel(box);
    for (QLabel* label : {digisInfo_, deviceInfo_}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    form->addRow("Digis", digisInfo_);
    form->addRow("Device", deviceInfo_);
    variant_ = makeVariantCombo(wb_, "cluster", box);
    form->addRow("Variant", variant_);
    liveBox_ = new QCheckBox("re-cluster live when the cut changes", box);
    liveBox_->setChecked(true);
    form->addRow(liveBox_);
    connect(liveBox_, &QCheckBox::toggled, this, [this](bool on) { live_->setEnabled(on); });
    connect(variant_, &QComboBox::currentIndexChanged, this,
            [this] { emit wb_.parametersChanged("cluster"); });
    return box;
}

QWidget* ClusterPanel::buildView() {
    auto* box = new QGroupBox("Detector overview", this);
    auto* form = new QFormLayout(box);
    form->setContentsMargins(6, 6, 6, 6);
    colourBy_ = new QComboBox(box);
    colourBy_->addItem("digis per module");
    colourBy_->addItem("clusters per module");
    logBox_ = new QCheckBox("logarithmic colour scale", box);
    form->addRow("Colour by", colourBy_);
    form->addRow(logBox_);
    connect(colourBy_, &QComboBox::currentIndexChanged, this, [this] { refreshViews(); });
    connect(logBox_, &QCheckBox::toggled, this, [this] { refreshViews(); });
    return box;
}

QPushButton* ClusterPanel::buildExportButton() {
    auto* button = new QPushButton("Export…", this);
    auto* menu = new QMenu(button);
    const auto add = [this, menu](const QString& text, Export what, const QString& filter) {
        connect(menu->addAction(text), &QAction::triggered, this, [this, what, filter] {
            const QString path = QFileDialog::getSaveFileName(this, "Export", {}, filter);
            if (!path.isEmpty()) exportTo(what, path);
        });
    };
    add("Cluster id of every digi…", Export::Ids, "HDF5 (*.h5);;CSV (*.csv)");
    add("Cluster table…", Export::Table, "HDF5 (*.h5);;CSV (*.csv)");
    add("Histograms (CSV)…", Export::Histograms, "CSV (*.csv)");
    button->setMenu(menu);
    return button;
}

void ClusterPanel::refreshInputs() {
    const auto path = wb_.dataset().path(DataRole{"digis"});
    const auto file = wb_.dataset().file();
    digisInfo_->setText(file && path ? q(file->fileName() + ":" + *path)
                                     : "none: open a file with /digis (module, x, y, adc)");
    setRunRefusal(file && path ? QString() : QString("open a file with digis first"));
}

void ClusterPanel::refreshVariants() {
    const DeviceInfo& device = wb_.device();
    deviceInfo_->setText(q(device.spec + "  " + device.name));
    const std::string previous = variant_->count() ? variant() : wb_.variant("cluster");
    fillVariantCombo(*variant_, variantChoices(clusterAlgorithm(), device), previous,
                     wb_.variant("cluster"));
}

std::string ClusterPanel::variant() const {
    return comboVariant(*variant_);
}

void ClusterPanel::setVariant(const std::string& id) {
    selectComboVariant(*variant_, id);
}

// Every cluster parameter is on the form.
void ClusterPanel::applyScripted(const ScriptedSettings& settings) {
    setFormFrom(*form_, settings);
    if (!settings.variant.empty()) setVariant(settings.variant);
}

cluster::ChargeCut ClusterPanel::chargeCut() const {
    return cluster::chargeCutOf(form_->paramSet());
}

void ClusterPanel::setChargeCut(const cluster::ChargeCut& cut) {
    form_->setValue("charge_cut", cut.text());
}

void ClusterPanel::setLive(bool live) {
    liveBox_->setChecked(live);
}

ParamSet ClusterPanel::params() const {
    return form_->paramSet();
}

// The shown clusters no longer match the cut: stale, and re-clustered when live.
void ClusterPanel::parametersEdited() {
    emit wb_.parametersChanged("cluster");
    if (input_) live_->request();
}

void ClusterPanel::setColourBy(ClusterPresenter::Measure measure) {
    colourBy_->setCurrentIndex(measure == ClusterPresenter::Measure::Digis ? 0 : 1);
}

void ClusterPanel::setLogScale(bool log) {
    logBox_->setChecked(log);
}

} // namespace clscope::ui
