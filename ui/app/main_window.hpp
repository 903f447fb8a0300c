// The clscope main window: named dockable panels (Data, Image, Device, one per algorithm,
// Compare, Results, Timings, Log) whose layout persists in QSettings, the File menu, a status bar
// with progress and Cancel, and the hooks behind `clscope [FILE] [--demo ALGO] [--screenshot OUT]`.
#pragma once
#include <QMainWindow>
#include <QStringList>
#include <functional>
#include <map>

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;
class QCustomPlot;

namespace clscope::ui {

class DataBrowser;
class DevicePicker;
class ImageView;
class LabWindow;
class LogPanel;
class MaskPanel;
class ComparisonView;
class ResultsPanel;
class SessionManager;
class TimingsPanel;
class Workbench;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Workbench& workbench() { return *workbench_; }
    bool openFile(const QString& path);
    // Start ALGO's demo ("compare": the comparison demo); false with the reason when the
    // algorithm has no panel yet or the demo's set-up refused (a bad CLSCOPE_DEMO_OPTIONS).
    bool startDemo(const QString& algorithm, QString* error);
    // Whether the demo's run succeeded (false until it has finished).
    bool demoSucceeded() const { return demoOk_; }
    // Once no job runs and the window has settled, save grab() as PNG and call done(ok).
    void screenshotWhenSettled(const QString& path, std::function<void(bool ok)> done);

    QStringList recentFiles() const { return recentFiles_; }
    QDockWidget* dock(const QString& objectName) const;
    MaskPanel* maskPanel() const { return mask_; }
    // Sessions (File ▸ Save session… / Open session…) and the question on quit.
    SessionManager& session() const { return *session_; }
    // Show, raise and focus the Mask dock (View ▸ Mask editor, Ctrl+M), the Image in front.
    void focusMaskPanel();
    // The Image in front (the mask editor; a panel showing a spot invokes it by name); a
    // Results dock tabbed with it (the demos put it there) goes back under the panels on the
    // right, so that neither hides the other.
    Q_INVOKABLE void showImage();
    // The kernel lab window (View ▸ Kernel lab, Ctrl+L), made on first use; shown and raised.
    LabWindow* showLab();
    // Plots Export plot offers, by name ("Image", "Timings", "Result: <tab>").
    std::map<QString, QCustomPlot*> exportablePlots() const;

    void saveSettings() const;
    void restoreSettings();
    void resetLayout();

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    bool startedDemo(const std::function<void(Workbench&)>& start, QString* error);
    void raiseDocksNamedInEnvironment();
    void buildPanels();
    QDockWidget* addPanel(const QString& objectName, const QString& title, QWidget* widget);
    void arrangeDefaultLayout();
    void buildStatusBar();
    void buildMenus();
    void buildRecentMenu();
    void addRecentFile(const QString& path);
    void openFileDialog();
    void generateDialog();
    void exportPlotDialog();
    void exportResultsDialog();
    void exportAllFreshDialog();
    void exportTimingsDialog();

    DataBrowser* data_ = nullptr;
    ImageView* image_ = nullptr;
    DevicePicker* devices_ = nullptr;
    ResultsPanel* results_ = nullptr;
    TimingsPanel* timings_ = nullptr;
    LogPanel* log_ = nullptr;
    MaskPanel* mask_ = nullptr;
    ComparisonView* compare_ = nullptr;
    LabWindow* lab_ = nullptr;
    Workbench* workbench_ = nullptr;
    SessionManager* session_ = nullptr;
    std::vector<QDockWidget*> algorithmDocks_;
    QMenu* recentMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
    QStringList recentFiles_;
    QByteArray defaultState_;
    bool demoOk_ = false;
};

} // namespace clscope::ui
