// The rbf dock: where the sources come from (the open file's particles group, or core's
// generator with the seed's setting), the kernel, σ, k and the plane grid n — which re-evaluate
// live (ui/jobs/live_rerun.hpp: debounced, off the GUI thread, on the Device panel's device and
// the chosen variant; greyed variants say why) —, the display (value, or magnitude / real /
// imaginary / phase for complex results; linear or log), the profile line, and the exports of
// the planes (HDF5 as `clscope-cli rbf --planes N` writes it, PNG). The result is the Results
// tab "rbf planes" (RbfPlanesView).
#pragma once
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/typed_panel.hpp"
#include "ui/rbf/rbf_presenter.hpp"
#include "ui/rbf/rbf_run.hpp"
#include "ui/rbf/rbf_views.hpp"
#include "ui/results/provenance.hpp"

#include <QPointer>
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace clscope::ui {

class ParamForm;

class LiveRerun;
class Workbench;

// Run (which evaluates even with unchanged parameters), busy state and typed delivery:
// TypedPanel (ui/kit/typed_panel.hpp); live re-runs end like Runs (runFinished).
class RbfPanel : public TypedPanelOf<rbf::Algorithm> {
    Q_OBJECT
  public:
    explicit RbfPanel(Workbench& workbench, QWidget* parent = nullptr);

    // The request the widgets describe now; InputError when there are no sources.
    RbfRunRequest request() const;
    ComparisonInput comparisonInput() const;

    void setKernel(rbf::Kernel kernel);
    void setSigma(double sigma);
    void setWavenumber(double k);
    void setGrid(std::size_t n);
    void setGeneratedSources(bool generated, std::size_t count = 50, std::uint64_t seed = 0);
    void setVariant(const std::string& id);
    std::string variant() const;
    // A scripted run's settings (ui/kit/panel_spec.hpp): the file's sources, the kernel
    // parameters, the plane grid and the variant.
    void applyScripted(const ScriptedSettings& settings);
    QComboBox* variantBox() const { return variant_; }
    void setDisplay(RbfDisplay display);
    void setScale(RbfScale scale);
    void setProfile(const RbfProfileChoice& choice);
    void setLive(bool live);

    const RbfPresenter& presenter() const { return *presenter_; }
    RbfPlanesView* planesView() const { return view_; }
    LiveRerun& live() const { return *live_; }
    int runsDelivered() const { return delivered_; }
    // The shown run: HDF5 in the CLI's layout (/rbf/potential + provenance), PNG of the planes.
    void exportHdf5(const QString& path) const;
    void exportPng(const QString& path, int width = 1500, int height = 560) const;
    // Where the profile line is: plane, direction and row or column index.
    RbfProfileChoice profileChoice() const;

  protected:
    std::optional<Job> makeJob() override;
    void showResult(const Delivery& delivery) override;
    void runEnded(bool ok) override;
    // A stored result's parameters, as a run's are kept; its planes need the run's particles.
    void keepStored(const RunCommand& stored) override;
    WholeInput storedResultInput() const override { return WholeInput::Always; }

  private:
    ProvenanceFields provenance() const;
    void keepProfilePosition();
    QWidget* buildSources();
    QWidget* buildTargets();
    QWidget* buildRun();
    QWidget* buildDisplay();
    QWidget* buildExport();
    void connectControls();
    void parametersChanged(bool rerun = true);
    void requestRerun(bool rerun);
    void displayChanged();
    void refreshSources();
    void refreshVariants();
    void refreshDisplays();
    // The live re-run's job (and Run's): nothing when the parameters are those of the last one.
    std::optional<Job> evaluationJob();
    void exportDialog(bool hdf5);

    std::shared_ptr<const RbfSources> fileSources_;
    std::string fileSourcesError_;
    QComboBox *sourceMode_ = nullptr, *variant_ = nullptr;
    ParamForm* form_ = nullptr; // the rbf parameters but planes (the grid below)
    QComboBox *display_ = nullptr, *scale_ = nullptr, *profilePlane_ = nullptr,
              *profileDirection_ = nullptr;
    QSpinBox *sourceCount_ = nullptr, *seed_ = nullptr, *grid_ = nullptr, *profileIndex_ = nullptr;
    QLabel *sourcesInfo_ = nullptr, *deviceInfo_ = nullptr, *profileAt_ = nullptr;
    QCheckBox* liveBox_ = nullptr;
    QPushButton *exportH5_ = nullptr, *exportPng_ = nullptr;
    LiveRerun* live_ = nullptr;
    std::shared_ptr<RbfPresenter> presenter_ = std::make_shared<RbfPresenter>();
    std::shared_ptr<const rbf::RbfResult> shown_;
    QPointer<RbfPlanesView> view_;
    std::string lastKey_; // what the last submitted run depends on (see evaluationJob)
    int delivered_ = 0;
    rbf::Params runParams_; // of the run being delivered
};

// The panel's registry entry (rbf_panel_spec.cpp): dock "RBF", its demo and views.
AlgorithmPanelSpec rbfPanelSpec();
// `clscope --demo rbf` (rbf_demo.cpp).
void startRbfDemo(Workbench& workbench);

} // namespace clscope::ui
