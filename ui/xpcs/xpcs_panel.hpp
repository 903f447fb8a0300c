// The XPCS dock: where frames and q-bin labels come from (the Data panel's roles, the mask
// editor's labels through Workbench::currentLabels()), the frame range and frame time, the
// variants to run one after another (greyed with the reason where the device cannot run
// them), the two-time bin, the fit options and Run (Ctrl+R). Results go to the Results tabs
// "g2(τ)", "Fits", "Γ vs q", "Two-time" and "Compare"; the bins are drawn over the image.
#pragma once
#include "ui/shell/algorithm_panels.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"
#include "ui/xpcs/xpcs_presenter.hpp"
#include "ui/xpcs/xpcs_run.hpp"
#include "ui/xpcs/xpcs_views.hpp"

#include <QPointer>
#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace clscope::ui {

class Workbench;
class XpcsFitForm;

class XpcsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit XpcsPanel(Workbench& workbench, QWidget* parent = nullptr);

    // Start a Run with the panel's choices; false (with the reason in the Log) when it cannot.
    bool run();
    bool isRunning() const { return batch_ != nullptr; }
    // The request the panel's widgets describe now.
    XpcsRunRequest request() const;
    std::vector<std::string> checkedVariants() const;
    void setCheckedVariants(const std::vector<std::string>& ids);
    void setFrameRange(std::size_t first, std::size_t count);
    void setFrameTimeOverride(std::optional<double> seconds);
    void setTwoTimeLabel(std::int32_t label); // 0: none
    XpcsFitForm* fitForm() const { return fitForm_; }
    const XpcsPresenter& presenter() const { return *presenter_; }
    XpcsG2View* g2View() const { return g2View_; }
    QListWidget* variantList() const { return variants_; }

  signals:
    // Every variant of a Run has delivered its result (or the Run stopped on an error).
    void runFinished(bool ok);

  private:
    struct Batch;
    QWidget* buildInputs();
    QWidget* buildRunOptions();
    void refreshInputs();
    void refreshVariants();
    void refreshTwoTimeBins();
    void submitNext();
    void deliver(XpcsRun run);
    void finishBatch(bool ok);
    std::optional<std::vector<double>> binQ(const std::vector<std::int32_t>& labels) const;
    void showTabs();
    void showCompareTab();
    void refit();

    Workbench& wb_;
    QLabel *framesInfo_ = nullptr, *labelsInfo_ = nullptr, *deviceInfo_ = nullptr;
    QSpinBox *first_ = nullptr, *count_ = nullptr;
    QLineEdit* frameTime_ = nullptr;
    QListWidget* variants_ = nullptr;
    QComboBox* twotime_ = nullptr;
    XpcsFitForm* fitForm_ = nullptr;
    QPushButton* runButton_ = nullptr;
    std::shared_ptr<XpcsPresenter> presenter_ = std::make_shared<XpcsPresenter>();
    std::shared_ptr<Batch> batch_;
    QString labelsOrigin_;
    QPointer<XpcsG2View> g2View_;
    QPointer<XpcsFitsView> fitsView_;
    QPointer<XpcsRateView> rateView_;
};

// The panel's registry entry: dock "XPCS" and `clscope --demo xpcs`.
AlgorithmPanelSpec xpcsPanelSpec();

} // namespace clscope::ui
