// The Device panel: every OpenCL device plus `cpu` with what `clscope-cli devices` prints,
// and one variant picker per algorithm from the variant registry (greyed out, with the
// reason as tooltip, where the device cannot run a variant). Choices persist in QSettings.
#pragma once
#include "ui/device/device_presenter.hpp"

#include <QWidget>
#include <map>

class QComboBox;
class QFormLayout;
class QLabel;
class QSettings;
class QTreeWidget;

namespace clscope::ui {

class DevicePicker : public QWidget {
    Q_OBJECT
  public:
    // devices: listDevices() order (cpu first); empty = ask the gpu library.
    explicit DevicePicker(std::vector<DeviceInfo> devices = {}, QWidget* parent = nullptr);

    DevicePresenter& presenter() { return presenter_; }
    const DeviceInfo& currentDevice() const { return presenter_.current(); }
    // The chosen variant id of an algorithm ("" when it has none runnable here).
    std::string currentVariant(const std::string& algorithm) const;
    void selectDevice(std::size_t index);
    void selectVariant(const std::string& algorithm, const std::string& id);
    QComboBox* deviceBox() const { return deviceBox_; }
    QComboBox* variantBox(const std::string& algorithm) const;

    void saveSettings(QSettings& s) const;
    void restoreSettings(QSettings& s);

  signals:
    void deviceChanged(const QString& spec);
    void variantChanged(const QString& algorithm, const QString& id);

  private:
    void showDetails();
    void rebuildVariants();
    DevicePresenter presenter_;
    QComboBox* deviceBox_ = nullptr;
    QTreeWidget* details_ = nullptr;
    QFormLayout* variantForm_ = nullptr;
    QLabel* noVariants_ = nullptr;
    std::map<std::string, QComboBox*> variantBoxes_;
};

} // namespace clscope::ui
