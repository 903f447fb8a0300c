// The Azint dock: the frames and pixel mask of the open file (Data panel roles), the integration
// parameters (unit, bins, ranges, cake, corrections, geometry from the file, a PONI or a .expt),
// the frame range, the variant and Run (Ctrl+R) — the run clscope-cli azint makes, through the
// same job. Its result becomes the Results tabs "I(q)" (a frame's profile, frames summed),
// "Waterfall" (I per frame and radial bin) and "Cake" (I(χ, radial) of a frame, 2D runs).
#pragma once
#include "gpu/azint/algorithm.hpp"
#include "ui/azint/azint_map_view.hpp"
#include "ui/azint/azint_presenter.hpp"
#include "ui/azint/azint_profile_view.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/typed_panel.hpp"

#include <QPointer>
#include <memory>

class QComboBox;
class QLabel;

namespace clscope::ui {

class FrameRangeEdit;
class ParamForm;
class Workbench;

class AzintPanel : public TypedPanelOf<azint::Algorithm> {
    Q_OBJECT
  public:
    explicit AzintPanel(Workbench& workbench, QWidget* parent = nullptr);

    // The open file's roles as clscope-cli azint reads them; InputError without frames.
    InputSources sources() const;
    ComparisonInput comparisonInput() const;
    void applyScripted(const ScriptedSettings& settings);
    std::string variant() const;
    void setVariant(const std::string& id);
    void setFrameRange(const FrameRange& range);
    ParamForm* form() const { return form_; }
    const AzintPresenter& presenter() const { return *presenter_; }
    AzintProfileView* profileView() const { return profile_; }
    AzintMapView* waterfallView() const { return waterfall_; }
    AzintMapView* cakeView() const { return cake_; }

  protected:
    std::optional<Job> makeJob() override;
    void showResult(const Delivery& delivery) override;
    void runEnded(bool ok) override;
    // A stored result's parameters, as a run's are kept (the bins drawn over the image).
    void keepStored(const RunCommand& stored) override;

  private:
    void showBinsOnImage();
    QWidget* buildRun();
    void refreshInput();
    void refreshVariants();
    void showTabs(const std::shared_ptr<const azint::AzintResult>& run);
    void showCake(std::size_t frame);

    QLabel *inputInfo_ = nullptr, *deviceInfo_ = nullptr;
    ParamForm* form_ = nullptr;
    FrameRangeEdit* range_ = nullptr;
    QComboBox* variant_ = nullptr;
    std::shared_ptr<AzintPresenter> presenter_ = std::make_shared<AzintPresenter>();
    QPointer<AzintProfileView> profile_;
    QPointer<AzintMapView> waterfall_, cake_;
    ParamSet runParams_; // of the result shown
};

// The panel's registry entry (azint_panel_spec.cpp): dock "Azint" and its demo.
AlgorithmPanelSpec azintPanelSpec();
// `clscope --demo azint` (azint_demo.cpp).
void startAzintDemo(Workbench& workbench);

} // namespace clscope::ui
