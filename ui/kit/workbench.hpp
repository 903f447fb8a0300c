// What an algorithm panel works with: the open dataset and its roles, the chosen device
// and variant, the one job runner, the image view (overlays), the Results and Timings
// panels and the Log. The main window builds the views and hands them over.
#pragma once
#include "ui/data/dataset_roles.hpp"
#include "ui/data/generate_request.hpp"
#include "ui/image/overlay_layer.hpp"
#include "ui/jobs/job_runner.hpp"
#include "ui/kit/log_panel.hpp"
#include "ui/results/results_panel.hpp"

#include "core/mask/partition.hpp"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>

namespace clscope::ui {

class DataBrowser;
class DevicePicker;
class ImageView;
class TimingsPanel;

struct WorkbenchViews {
    ImageView* image = nullptr;
    DevicePicker* devices = nullptr;
    ResultsPanel* results = nullptr;
    TimingsPanel* timings = nullptr;
    LogPanel* log = nullptr;
};

class Workbench : public QObject {
    Q_OBJECT
  public:
    explicit Workbench(WorkbenchViews views, QObject* parent = nullptr);
    // The Data panel edits dataset(); attach it once it exists.
    void attachDataBrowser(DataBrowser* browser);

    // Data: open a file (roles get their default paths), or generate one and open it. An event
    // list's frames need a bin width: askFrameTime gives it when they are first shown (none:
    // they are not shown until File ▸ Open asks again).
    bool openFile(const QString& path);
    // The question for an event list's frame width in seconds (`suggested`: the file's frame
    // time, else 1 ms); a dialog unless tests answer it themselves. None: cancelled.
    using AskFrameTime =
        std::function<std::optional<double>(const QString& file, double suggested)>;
    void setAskFrameTime(AskFrameTime ask) { askFrameTime_ = std::move(ask); }
    // The next event list shown is binned into frames of `seconds` without asking (a session's
    // saved width), once.
    void setNextEventFrameTime(std::optional<double> seconds) { nextFrameTime_ = seconds; }
    DatasetRoles& dataset() { return roles_; }
    void generateAndOpen(const GenerateRequest& request, const QString& path,
                         std::function<void()> then = {});

    // Device and variant chosen in the Device panel.
    const DeviceInfo& device() const;
    std::string variant(const std::string& algorithm) const;
    // A panel's chosen variant: the default of its next start (kept across restarts).
    void rememberVariant(const std::string& algorithm, const std::string& id);

    // Runs: the job's timings go to the Timings panel, its errors to the Log and status bar.
    JobRunner& jobs() { return runner_; }
    bool submit(Job job);

    // Panels in front: a panel's overlays (OverlayData::owner) and live work run only while its
    // dock is shown and raised, or while the user pins it. The main window reports the docks.
    void setPanelShown(const QString& owner, bool shown);
    void setPanelPinned(const QString& owner, bool pinned);
    bool isPanelPinned(const QString& owner) const { return pinned_.contains(owner); }
    bool isPanelActive(const QString& owner) const;
    // The algorithm panel brought to the front last, "" when none is in front.
    QString frontPanel() const { return shown_.isEmpty() ? QString() : shown_.last(); }

    // The detector geometry of the image shown when known (the mask editor's from the file, a
    // PONI, a session or edits; none while it holds only its default), and whether the user
    // wants resolution rings drawn from it (View ▸ Resolution rings).
    void setGeometry(std::optional<mask::Geometry> geometry);
    const std::optional<mask::Geometry>& geometry() const { return geometry_; }
    void setResolutionRingsShown(bool shown);
    bool resolutionRingsShown() const { return ringsShown_; }

    // Views an algorithm draws into.
    ImageView& image() { return *views_.image; }
    OverlayLayer* setOverlay(OverlayData overlay);
    void addResultTab(ResultTab tab);
    ResultsPanel& results() { return *views_.results; }
    TimingsPanel& timings() { return *views_.timings; }
    void log(LogLevel level, const QString& text);

  signals:
    void fileOpened(const QString& path);
    void roleChanged(clscope::ui::DataRole role);
    // The Device panel's device changed (variants that can run change with it).
    void deviceChanged();
    // `clscope --demo`: the demo's run finished (ok false: it failed, was cancelled or could
    // not start). The main window exits non-zero after the screenshot when it was not ok.
    void demoFinished(bool ok);
    // A file opened: the panel of `algorithm` wanted in front (the algorithm whose result the
    // file holds, else the one whose input roles it fills), with the image when it has frames.
    void panelWanted(const QString& algorithm);
    // An algorithm panel's parameters changed: its results no longer match them.
    void parametersChanged(const QString& algorithm);
    void statusMessage(const QString& text, int timeoutMs);
    // A panel came to the front or was pinned (active), or went behind another one.
    void panelActiveChanged(const QString& owner, bool active);
    void geometryChanged();
    void resolutionRingsShownChanged(bool shown);

  private:
    void connectRunner();
    void showRole(DataRole role);
    bool askEventFrameTime(const QString& path);
    // The opened file on its algorithm's panel (panelWanted); a clscope result read back in a
    // job and delivered to that panel (AlgorithmPanel::showStoredResult).
    void showOnItsPanel(const QString& path);
    void openStoredResult(const Algorithm& algorithm, const QString& path);
    WorkbenchViews views_;
    DataBrowser* browser_ = nullptr;
    DatasetRoles roles_;
    JobRunner runner_;
    void updatePanelActive(const QString& owner, bool before);
    QStringList shown_, pinned_; // panels (overlay owners) in front, pinned
    std::optional<mask::Geometry> geometry_;
    bool ringsShown_ = false;
    AskFrameTime askFrameTime_;
    std::optional<double> nextFrameTime_;
};

} // namespace clscope::ui
