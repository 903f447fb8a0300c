#include "ui/device/device_picker.hpp"

#include "gpu/devices.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
} // namespace

DevicePicker::DevicePicker(std::vector<DeviceInfo> devices, QWidget* parent)
    : QWidget(parent), presenter_(devices.empty() ? listDevices() : std::move(devices)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    deviceBox_ = new QComboBox(this);
    deviceBox_->setToolTip("Device the next run uses; remembered by platform, device and driver name");
    for (const DeviceInfo& d : presenter_.devices())
        deviceBox_->addItem(q(d.spec + "  " + d.name), q(d.key()));
    details_ = new QTreeWidget(this);
    details_->setHeaderLabels({"Property", "Value"});
    details_->setRootIsDecorated(false);
    details_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* variantGroup = new QGroupBox("Variants", this);
    variantForm_ = new QFormLayout(variantGroup);
    noVariants_ = new QLabel("No algorithm has variants registered yet.", variantGroup);
    noVariants_->setWordWrap(true);
    variantForm_->addRow(noVariants_);
    layout->addWidget(deviceBox_);
    layout->addWidget(details_, 1);
    layout->addWidget(variantGroup);
    deviceBox_->setCurrentIndex(static_cast<int>(presenter_.currentIndex()));
    connect(deviceBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        presenter_.select(static_cast<std::size_t>(index));
        showDetails();
        rebuildVariants();
        emit deviceChanged(q(presenter_.current().spec));
    });
    showDetails();
    rebuildVariants();
}

void DevicePicker::showDetails() {
    details_->clear();
    for (const auto& [name, value] : DevicePresenter::describe(presenter_.current()))
        new QTreeWidgetItem(details_, {q(name), q(value)});
}

// One combo box per algorithm that has variants; items the device cannot run are disabled.
void DevicePicker::rebuildVariants() {
    const VariantRegistry& registry = VariantRegistry::instance();
    for (const std::string& algorithm : knownAlgorithms()) {
        const auto variants = registry.variants(algorithm);
        if (variants.empty()) continue;
        QComboBox*& box = variantBoxes_[algorithm];
        if (!box) {
            box = new QComboBox(this);
            variantForm_->addRow(q(algorithm), box);
            connect(box, &QComboBox::currentIndexChanged, this, [this, algorithm, box] {
                const QString id = box->currentData().toString();
                presenter_.rememberVariant(algorithm, id.toStdString());
                emit variantChanged(q(algorithm), id);
            });
        }
        const QSignalBlocker blocker(box);
        box->clear();
        auto* model = qobject_cast<QStandardItemModel*>(box->model());
        for (const VariantChoice& c : presenter_.variantChoices(variants)) {
            box->addItem(q(c.id + " — " + c.label), q(c.id));
            QStandardItem* item = model->item(box->count() - 1);
            item->setEnabled(c.enabled);
            item->setToolTip(c.enabled ? q(c.label) : q("Not on this device: " + c.reason));
        }
        box->setCurrentIndex(box->findData(q(presenter_.chooseVariant(algorithm, variants))));
    }
    noVariants_->setVisible(variantBoxes_.empty());
}

std::string DevicePicker::currentVariant(const std::string& algorithm) const {
    return presenter_.chooseVariant(algorithm, VariantRegistry::instance().variants(algorithm));
}

void DevicePicker::selectDevice(std::size_t index) { deviceBox_->setCurrentIndex(static_cast<int>(index)); }

void DevicePicker::selectVariant(const std::string& algorithm, const std::string& id) {
    presenter_.rememberVariant(algorithm, id);
    rebuildVariants();
}

QComboBox* DevicePicker::variantBox(const std::string& algorithm) const {
    const auto it = variantBoxes_.find(algorithm);
    return it == variantBoxes_.end() ? nullptr : it->second;
}

void DevicePicker::saveSettings(QSettings& s) const {
    s.setValue("device/key", q(presenter_.currentKey()));
    for (const auto& [algorithm, id] : presenter_.rememberedVariants()) s.setValue(q("variant/" + algorithm), q(id));
}

void DevicePicker::restoreSettings(QSettings& s) {
    for (const std::string& algorithm : knownAlgorithms()) {
        const QString id = s.value(q("variant/" + algorithm)).toString();
        if (!id.isEmpty()) presenter_.rememberVariant(algorithm, id.toStdString());
    }
    const std::size_t index = presenter_.selectByKey(s.value("device/key").toString().toStdString());
    if (deviceBox_->currentIndex() == static_cast<int>(index)) rebuildVariants();
    deviceBox_->setCurrentIndex(static_cast<int>(index));
}

} // namespace clscope::ui
