// The Device panel: every OpenCL device plus `cpu` with what `clscope-cli devices` prints.
// The device persists in QSettings. Variants are chosen in the algorithm panels (one run) and
// the Compare dock (variants × devices), not here; currentVariant() is the default those start
// from (the remembered one if this device can run it, else the registry's first).
#pragma once
#include "ui/device/device_presenter.hpp"

#include <QWidget>

class QComboBox;
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

    void saveSettings(QSettings& s) const;
    void restoreSettings(QSettings& s);

  signals:
    void deviceChanged(const QString& spec);

  private:
    void showDetails();
    DevicePresenter presenter_;
    QComboBox* deviceBox_ = nullptr;
    QTreeWidget* details_ = nullptr;
};

} // namespace clscope::ui
