// The Spots dock (DIALS dispersion spot finding): the parameters under DIALS' names, whose
// changes re-threshold the frame on screen live (debounced, on the job runner, window sums
// cached per frame: ui/spots/spots_frame.hpp); the frame stepper with Play; which image the
// image view shows (the frame or a DIALS debug image) with the signal pixels as an overlay and
// spot boxes / centroids as markers; Run (Ctrl+R) over the frame range with the chosen variant,
// which makes the Results tabs "Spots" (sortable table; a click centres the image on the spot)
// and "Per frame" (and "Per image", DIALS' per-image analysis, when the parameters name an
// experiment list); and the exports (signal mask, spot table, DIALS phil).
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/run_types.hpp"
#include "ui/jobs/job.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/typed_panel.hpp"
#include "ui/spots/spots_presenter.hpp"
#include "ui/spots/spots_views.hpp"

#include "ui/spots/spots_grid_view.hpp"

#include <QPointer>
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTimer;
class QToolButton;

namespace clscope::ui {

class FrameRangeEdit;
class FrameSource;
class LiveRerun;
class SpotMarkers;
class ResolutionRings;
class ParamForm;
class Workbench;

// Run, busy state and typed delivery: TypedPanel (ui/kit/typed_panel.hpp).
class SpotsPanel : public TypedPanelOf<spots::Algorithm> {
    Q_OBJECT
  public:
    explicit SpotsPanel(Workbench& workbench, QWidget* parent = nullptr);
    ~SpotsPanel() override;

    // The threshold parameters (the generic form of the spots parameter specs).
    ParamForm* form() const { return form_; }
    // The form's values as the spot finder reads them.
    spots::Params params() const;
    const SpotsPresenter& presenter() const { return *presenter_; }
    std::shared_ptr<SpotsPresenter> sharedPresenter() const { return presenter_; }
    const SpotsFrameCache& frameCache() const { return *cache_; }
    LiveRerun* live() const { return live_; }
    SpotMarkers* markers() const { return markers_.get(); }
    // Resolution rings on the image when a geometry is known (View ▸ Resolution rings).
    ResolutionRings* rings() const { return rings_.get(); }
    SpotTableView* tableView() const { return table_; }
    // The "Grid scan" tab of the last run of more than one frame (null before).
    SpotsGridView* gridView() const { return grid_; }

    std::size_t frame() const;
    void setFrame(std::size_t frame);
    std::size_t frameCount() const;
    SpotsImage image() const;
    void setImage(SpotsImage image);
    void setPlaying(bool playing);

    // Run (AlgorithmPanel::run) goes over the frame range.
    std::string variant() const;
    void setVariant(const std::string& id);
    // The frames Run reads (count 0: to the last frame); a new file resets it to all.
    FrameRange frameRange() const;
    void setFrameRange(const FrameRange& range);
    // A scripted run's settings (ui/kit/panel_spec.hpp): parameters, frame range, variant.
    void applyScripted(const ScriptedSettings& settings);
    // What the Compare dock runs on: the open file's frames and mask, these parameters.
    ComparisonInput comparisonInput() const;
    // Centre the image view on the table's selected spot (on its frame).
    void showSelectedSpot();

    // Exports of the last run / the parameters; false with the reason in the Log.
    bool exportSignalMask(const QString& path);
    bool exportSpotTable(const QString& path);
    bool exportPhil(const QString& path);

  signals:
    // The frame on screen was thresholded again (its result is in the presenter).
    void liveUpdated();

  protected:
    void showEvent(QShowEvent* event) override;
    std::optional<Job> makeJob() override;
    void showResult(const Delivery& delivery) override;
    void runEnded(bool ok) override;
    // A stored result's parameters and first frame, as a run's are kept.
    void keepStored(const RunCommand& stored) override;

  private:
    QWidget* buildView();
    QWidget* buildRun();
    QWidget* buildExport();
    void refreshInput();
    void refreshVariants();
    void requestLive();
    void onActiveChanged(bool active);
    std::optional<Job> makeLiveJob();
    void deliverLive(SpotsFrameResult result);
    void showImage();
    void showOverlay();
    void showMarkers();
    void stepPlay();
    InputSources sources() const;
    void showTabs(std::shared_ptr<const spots::SpotsResult> result);
    void showPerImageTab(const spots::SpotsResult& run, const RunProvenance& provenance);
    void showGridTab(const spots::SpotsResult& run, const RunProvenance& provenance);
    void centreOn(double x, double y);
    void checkRunCurrent() const;
    bool exportWith(const QString& what, const std::function<void()>& write);

    ParamForm* form_ = nullptr;
    QLabel *inputInfo_ = nullptr, *liveInfo_ = nullptr, *deviceInfo_ = nullptr;
    QSpinBox* frameSpin_ = nullptr;
    FrameRangeEdit* range_ = nullptr; // the frames Run reads
    QToolButton* playButton_ = nullptr;
    QTimer* playTimer_ = nullptr;
    QComboBox *imageBox_ = nullptr, *variant_ = nullptr;
    QCheckBox *overlayBox_ = nullptr, *markersBox_ = nullptr;
    LiveRerun* live_ = nullptr;
    std::shared_ptr<SpotsPresenter> presenter_ = std::make_shared<SpotsPresenter>();
    std::shared_ptr<SpotsFrameCache> cache_ = std::make_shared<SpotsFrameCache>();
    std::shared_ptr<const FrameSource> frames_;
    PixelMask mask_;
    std::shared_ptr<const SpotsFrameInput> frameInput_;
    std::unique_ptr<SpotMarkers> markers_;
    std::unique_ptr<ResolutionRings> rings_;
    void placeRings();
    QPointer<SpotTableView> table_;
    QPointer<SpotsGridView> grid_;
    std::string runParams_;       // the parameters of the last run (JSON)
    int runFirstFrame_ = 0;       // its first frame: its spots' frames count from there
    RunProvenance runProvenance_; // the last run's device, variant, input, parameters
    bool showingDebug_ = false;
};

// The panel's registry entry (spots_panel_spec.cpp): dock "Spots", its demo and views.
AlgorithmPanelSpec spotsPanelSpec();
// `clscope --demo spots` (spots_demo.cpp).
void startSpotsDemo(Workbench& workbench);

} // namespace clscope::ui
