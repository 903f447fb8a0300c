// The XPCS dock: where frames and q-bin labels come from (the Data panel's roles, the mask
// editor's labels through QBinLabels, ui/mask/q_bin_labels.hpp), the frame range and frame time,
// the variant to run (greyed with the reason where the device cannot run it), the two-time bin, the
// fit options and Run (Ctrl+R). One run goes through runAlgorithm(); its results go to the xpcs
// Results tabs "g2(τ)", "Fits", "Γ vs q" and "Two-time". Comparing variants is the Compare dock's
// (ui/compare), which takes its input from this panel.
#pragma once
#include "ui/jobs/job.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/typed_panel.hpp"
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
class QSpinBox;

namespace clscope::ui {

class Workbench;
class FrameRangeEdit;
class ParamForm;
class XpcsFitForm;
class XpcsAverageView;

// Run, busy state and typed delivery: TypedPanel (ui/kit/typed_panel.hpp).
class XpcsPanel : public TypedPanelOf<xpcs::Algorithm> {
    Q_OBJECT
  public:
    explicit XpcsPanel(Workbench& workbench, QWidget* parent = nullptr);

    // The request the panel's widgets describe now.
    XpcsRunRequest request() const;
    // The variant Run uses; setVariant takes any id (an unknown one fails when run).
    std::string variant() const;
    void setVariant(const std::string& id);
    void setFrameRange(std::size_t first, std::size_t count);
    void setFrameTimeOverride(std::optional<double> seconds);
    void setTwoTimeLabel(std::int32_t label); // 0: none
    // A scripted run's settings: the form's values, the frame range and the variant; the
    // parameters the form does not show (twotime lists, the run's fit) go into the request.
    void applyScripted(const ScriptedSettings& settings);
    XpcsFitForm* fitForm() const { return fitForm_; }
    ParamForm* form() const { return form_; }
    const XpcsPresenter& presenter() const { return *presenter_; }
    XpcsG2View* g2View() const { return g2View_; }
    QComboBox* variantBox() const { return variant_; }
    // What the Compare dock runs on: this panel's input and parameters now.
    ComparisonInput comparisonInput() const;
    // The "Average" result tab (made on first use, then brought to the front).
    XpcsAverageView* showAverage();
    // The g2 of another xpcs result file (clscope's, aps or nxxpcs layout) drawn beside the
    // run's in the g2 tab; false (the reason in the Log) when it cannot be read or matched.
    bool overlayResult(const QString& file);

  protected:
    std::optional<Job> makeJob() override;
    // `input`: null when the run streamed or ran in passes (no intensity views, no /xpcs/input).
    void showResult(const Delivery& delivery) override;
    void runEnded(bool ok) override;

  private:
    void chooseOverlay(bool shown);
    QWidget* buildInputs();
    QWidget* buildRunOptions();
    void refreshInputs();
    void resetForNewFile();
    void refreshVariants();
    void refreshTwoTimeBins();
    void refreshPhysical();
    std::optional<double> readTrueDiffusion(const H5Reader& file) const;
    void showTabs(const xpcs::XpcsResult& run, std::shared_ptr<const xpcs::XpcsInput> input);
    void showFitParams();
    void storeFitParams();

    QLabel *framesInfo_ = nullptr, *labelsInfo_ = nullptr, *deviceInfo_ = nullptr;
    QLabel *timeInfo_ = nullptr, *qInfo_ = nullptr; // value and origin, as the CLI reads them
    FrameRangeEdit* frames_ = nullptr;
    ParamForm* form_ = nullptr; // frame_time and the advanced ones (the fit: XpcsFitForm)
    QComboBox* variant_ = nullptr;
    QComboBox* twotime_ = nullptr;
    XpcsFitForm* fitForm_ = nullptr;
    std::shared_ptr<XpcsPresenter> presenter_ = std::make_shared<XpcsPresenter>();
    std::optional<double> trueDiffusion_; // of the run being delivered (its file's)
    bool storingFit_ = false;
    bool variantsMultitau_ = false; // the mode the variant list was made for
    std::string framesRefusal_; // why the assigned frames cannot be correlated (empty: they can)
    std::string physicalError_; // a bad frame time or q (units attribute); empty: none
    nlohmann::json scriptedParams_ = nlohmann::json::object(); // set by applyScripted
    QString labelsOrigin_;
    QPointer<XpcsG2View> g2View_;
    QPointer<XpcsFitsView> fitsView_;
    QPointer<XpcsRateView> rateView_;
    QPointer<XpcsAverageView> averageView_;
};

// The panel's registry entry (xpcs_panel_spec.cpp): dock "XPCS", its demos and views.
AlgorithmPanelSpec xpcsPanelSpec();
// `clscope --demo xpcs` and `clscope --demo compare` (xpcs_demo.cpp).
void startXpcsDemo(Workbench& workbench);
void startXpcsCompareDemo(Workbench& workbench);

} // namespace clscope::ui
