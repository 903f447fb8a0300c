#include "ui/device/device_picker.hpp"
#include "ui/base/qstring.hpp"

#include "gpu/algorithm.hpp"
#include "gpu/runtime/devices.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSettings>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace clscope::ui {

DevicePicker::DevicePicker(std::vector<DeviceInfo> devices, QWidget* parent)
    : QWidget(parent), presenter_(devices.empty() ? listDevices() : std::move(devices)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    deviceBox_ = new QComboBox(this);
    // Long device names do not set the dock's width (the panel was 381 px at least).
    deviceBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    deviceBox_->setMinimumContentsLength(18);
    deviceBox_->setToolTip(
        "Device the next run uses; remembered by platform, device and driver name");
    for (const DeviceInfo& d : presenter_.devices())
        deviceBox_->addItem(q(d.spec + "  " + d.name), q(d.key()));
    details_ = new QTreeWidget(this);
    details_->setHeaderLabels({"Property", "Value"});
    details_->setRootIsDecorated(false);
    details_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* hint =
        new QLabel("Variants: chosen in each algorithm panel (one run) and in the Compare dock "
                   "(variants × devices).",
                   this);
    hint->setWordWrap(true);
    hint->setStyleSheet("color: #606060");
    layout->addWidget(deviceBox_);
    layout->addWidget(details_, 1);
    layout->addWidget(hint);
    deviceBox_->setCurrentIndex(static_cast<int>(presenter_.currentIndex()));
    connect(deviceBox_, &QComboBox::currentIndexChanged, this, [this](int index) {
        presenter_.select(static_cast<std::size_t>(index));
        showDetails();
        emit deviceChanged(q(presenter_.current().spec));
    });
    showDetails();
}

void DevicePicker::showDetails() {
    details_->clear();
    for (const auto& [name, value] : DevicePresenter::describe(presenter_.current()))
        new QTreeWidgetItem(details_, {q(name), q(value)});
}

std::string DevicePicker::currentVariant(const std::string& algorithm) const {
    return presenter_.chooseVariant(algorithm,
                                    AlgorithmRegistry::instance().find(algorithm).variants());
}

void DevicePicker::selectDevice(std::size_t index) {
    deviceBox_->setCurrentIndex(static_cast<int>(index));
}

void DevicePicker::selectVariant(const std::string& algorithm, const std::string& id) {
    presenter_.rememberVariant(algorithm, id);
}

void DevicePicker::saveSettings(QSettings& s) const {
    s.setValue("device/key", q(presenter_.currentKey()));
    for (const auto& [algorithm, id] : presenter_.rememberedVariants())
        s.setValue(q("variant/" + algorithm), q(id));
}

void DevicePicker::restoreSettings(QSettings& s) {
    for (const std::string& algorithm : AlgorithmRegistry::instance().ids()) {
        const QString id = s.value(q("variant/" + algorithm)).toString();
        if (!id.isEmpty()) presenter_.rememberVariant(algorithm, id.toStdString());
    }
    const std::size_t index =
        presenter_.selectByKey(s.value("device/key").toString().toStdString());
    deviceBox_->setCurrentIndex(static_cast<int>(index));
}

} // namespace clscope::ui
