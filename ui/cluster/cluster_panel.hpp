// The Cluster dock: where the digis come from (the Data panel's digis role), the variant
// (greyed with the reason where the device cannot run it), the charge cut (none, Phase-1
// 2000/4000 e-, or one value) re-clustered live off the GUI thread (ui/jobs/live_rerun.hpp),
// the overview's colouring (digis or clusters per module, log scale), the exports and Run
// (Ctrl+R). Results go to the cluster tabs "Detector" (overview + size and charge histograms)
// and "Module" (the chosen module's cluster map + the cluster table); a click on a module opens
// its map, a click on a table row frames its cluster.
#pragma once
#include "gpu/cluster/algorithm.hpp"
#include "ui/cluster/cluster_histograms.hpp"
#include "ui/cluster/cluster_module_view.hpp"
#include "ui/cluster/cluster_overview.hpp"
#include "ui/cluster/cluster_presenter.hpp"
#include "ui/jobs/job.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/typed_panel.hpp"

#include <QPointer>
#include <QTableView>
#include <QWidget>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace clscope::ui {

class ParamForm;

class ClusterTableModel;
class LiveRerun;
class Workbench;

// Run, busy state and typed delivery: TypedPanel (ui/kit/typed_panel.hpp); live re-runs end
// like Runs (runFinished).
class ClusterPanel : public TypedPanelOf<cluster::Algorithm> {
    Q_OBJECT
  public:
    enum class Export { Ids, Table, Histograms };

    explicit ClusterPanel(Workbench& workbench, QWidget* parent = nullptr);

    std::string variant() const;
    void setVariant(const std::string& id);
    // A scripted run's settings (ui/kit/panel_spec.hpp): the parameters and the variant.
    void applyScripted(const ScriptedSettings& settings);
    cluster::ChargeCut chargeCut() const;
    void setChargeCut(const cluster::ChargeCut& cut); // re-clusters when live
    void setLive(bool live);
    LiveRerun* liveRerun() const { return live_; }

    const ClusterPresenter& presenter() const { return presenter_; }
    void selectModule(int module);
    void selectCluster(std::size_t cluster); // a row of the cluster table
    void setColourBy(ClusterPresenter::Measure measure);
    void setLogScale(bool log);
    ClusterOverview* overview() const { return overview_; }
    ClusterModuleView* moduleView() const { return moduleView_; }
    ClusterHistogramsView* histogramsView() const { return histograms_; }
    QTableView* table() const { return table_; }

    // Write one export (.h5 or .csv; histograms: .csv); false with the reason in the Log.
    bool exportTo(Export what, const QString& path);
    // The Compare dock's input: the digis as the panel reads them and the charge cut.
    ComparisonInput comparisonInput() const;

  protected:
    std::optional<Job> makeJob() override;
    void showResult(const Delivery& delivery) override;
    // The event view of a stored result takes the run's digis.
    WholeInput storedResultInput() const override { return WholeInput::Always; }

  private:
    QWidget* buildInputs();
    QWidget* buildView();
    QPushButton* buildExportButton();
    void refreshInputs();
    void refreshVariants();
    void parametersEdited();
    // Run's job, and the live re-run's (quiet: nothing said when there are no digis).
    std::optional<Job> clusterJob(bool quiet);
    void showTabs();
    void refreshViews();
    void showModule();
    ParamSet params() const;

    QLabel *digisInfo_ = nullptr, *deviceInfo_ = nullptr, *summary_ = nullptr;
    QComboBox *variant_ = nullptr, *colourBy_ = nullptr;
    ParamForm* form_ = nullptr; // the cluster parameters (the charge cut)
    QCheckBox *liveBox_ = nullptr, *logBox_ = nullptr;
    LiveRerun* live_ = nullptr;
    ClusterPresenter presenter_;
    std::shared_ptr<const cluster::ClusterInput>
        input_;                   // the digis last read (reused by live re-runs)
    std::string inputKey_;        // FILE:PATH they were read from
    cluster::ChargeCut shownCut_; // the cut of the result shown
    QPointer<ClusterOverview> overview_;
    QPointer<ClusterHistogramsView> histograms_;
    QPointer<ClusterModuleView> moduleView_;
    QPointer<QTableView> table_;
    ClusterTableModel* tableModel_ = nullptr;
};

// The cluster entry of the algorithm registry.
const Algorithm& clusterAlgorithm();

// The panel's registry entry (cluster_panel_spec.cpp): dock "Cluster", its demo and views.
AlgorithmPanelSpec clusterPanelSpec();
// `clscope --demo cluster` (cluster_demo.cpp).
void startClusterDemo(Workbench& workbench);

} // namespace clscope::ui
