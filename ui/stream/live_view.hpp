// The live view of a detector stream (File ▸ Open stream…, `clscope --source tcp://…`): the
// newest frame in an image view, refreshed at the screen's pace (~30 Hz) with what the
// per-frame analyses found on it drawn over it, their curves per frame growing as frames come
// (LiveChart, with the frames/s received and the hit rate over a threshold set here), the
// latency from a frame's arrival to the repaint that shows its point, the analyses over the
// frames so far redrawn every second, Stop / Start, and "Save what was received" (the frames so
// far as the HDF5 file a file run reads).
#pragma once
#include "ui/stream/stream_receiver.hpp"

#include <QFutureWatcher>
#include <QStringList>
#include <QWidget>
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

class QCustomPlot;
class QLabel;
class QLayout;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTimer;

namespace clscope::ui {

class ImageView;
class LiveChart;
class Workbench;

class LiveView : public QWidget {
    Q_OBJECT
  public:
    explicit LiveView(QWidget* parent = nullptr);
    ~LiveView() override;

    // Starts receiving `request` (the one shown before is stopped and cleared).
    void open(StreamRequest request);
    void stop(); // returns at once; the receiving thread ends shortly after
    bool isReceiving() const { return receiver_->isRunning(); }
    // The frames so far as HDF5 (written atomically); false with the reason otherwise.
    bool saveReceived(const QString& path, QString* error = nullptr);

    StreamReceiver& receiver() { return *receiver_; }
    const StreamReceiver& receiver() const { return *receiver_; }
    ImageView* image() const { return image_; }
    QCustomPlot* stripChart() const;
    const LiveChart& chart() const { return *chart_; }
    // The hit rate's threshold (QSettings live/hitThreshold); shown with a hit curve only.
    QSpinBox* hitThreshold() const { return hitThreshold_; }
    // "receive → plot: X ms (median Y ms)"; empty before a frame was plotted.
    QLabel* latency() const { return latency_; }
    // Milliseconds from each frame's arrival to the repaint that showed its point, in order.
    const std::vector<double>& latenciesMs() const { return latencyMs_; }
    // For scripted checks ("window: " lines): "live curves: …", "live note: …", "live hit
    // rate: …", "live latency: …".
    QStringList summary() const;
    QLabel* status() const { return status_; } // one line; its tooltip the whole text
    // What the per-frame analyses run with, e.g. "spots: σ strong 3, …".
    QLabel* settings() const { return settings_; }
    // An algorithm panel's parameters changed: its per-frame analyses run with them from the
    // next frame on (said by changed()), and the next Start with them.
    void followParams(const std::string& algorithm, const ParamSet& params);
    std::size_t frameShown() const { return shown_; } // frames the view has shown so far
    int seriesUpdates() const { return seriesUpdates_; }
    // Whether every series analysis has run over every frame received and drawn it.
    bool seriesCurrent() const;
    // Grabs the view into `path` once half the announced frames were shown (at the series' end
    // when the start message gave no count) and the series analyses drew once.
    void screenshotHalfway(QString path, std::function<void(bool ok)> done);

  signals:
    void finished(const QString& error, bool stopped);
    // For the Log: a publisher silent mid-series ("no frame for 3 s: N of M frames
    // received"), a series that ended early or failed, with the frames received of announced.
    void notice(const QString& text);
    // For the Log: the analyses follow their panel ("spots: σ strong 4, … from frame 12").
    void changed(const QString& text);

  private:
    struct Series {
        std::unique_ptr<LiveSeriesAnalysis> analysis;
        QLabel* note = nullptr;
        std::size_t frames = 0; // frames it last ran on
        bool busy = false;      // a run under way or its outcome not yet shown
        std::unique_ptr<QFutureWatcher<std::pair<std::function<void()>, QString>>> watcher;
    };
    QLayout* buildSettingsLine();
    void onConnected(const QString& description);
    void onFinished(const QString& error, bool stopped);
    void showNewest();
    void drawOverlays();
    void updateChart(); // frames/s (1 Hz)
    void plotValues();  // the curves' new points, repainted at once; their latency
    void showLatency();
    void setHitThreshold(int threshold);
    void updateSeries();
    void showSeries(Series& s);
    void addSeries(const LiveAnalysisSpec& spec, const LiveContext& c);
    void shareSide();
    void updateStatus();
    void showStatus(const QString& text);
    void showSettings();
    void onRetuned(const QString& algorithm, qulonglong first);
    void maybeScreenshot(bool ended);
    void checkStall();
    QString receivedText() const; // "N of M frames received"
    QString endText(const QString& error, bool stopped) const;
    void waitForSeries();

    std::unique_ptr<StreamReceiver> receiver_;
    StreamRequest request_;
    ImageView* image_ = nullptr;
    std::unique_ptr<LiveChart> chart_;
    QSplitter* side_ = nullptr;
    QTabWidget* seriesTabs_ = nullptr; // the series analyses, a tab each
    QLabel* status_ = nullptr;
    QLabel* settings_ = nullptr;
    QLabel* hitLabel_ = nullptr;
    QSpinBox* hitThreshold_ = nullptr;
    QLabel* latency_ = nullptr;
    std::vector<double> latencyMs_;
    QPushButton* startStop_ = nullptr;
    QPushButton* save_ = nullptr;
    QTimer* display_ = nullptr; // ~30 Hz: the newest frame
    QTimer* second_ = nullptr;  // 1 Hz: frames/s, the series analyses
    std::vector<Series> series_;
    std::size_t shown_ = 0, lastCount_ = 0;
    std::chrono::steady_clock::time_point lastTick_;
    double rate_ = 0;       // frames/s received over the last tick
    double seriesRate_ = 0; // over the series, once it ended (StreamReceiver::seriesRate)
    bool sourceSet_ = false;
    QString ended_;
    QString stall_;           // the publisher's silence mid-series; empty while frames come
    std::size_t arrived_ = 0; // frames received at the last arrival
    std::chrono::steady_clock::time_point lastArrival_;
    int seriesUpdates_ = 0;
    QString screenshotPath_;
    std::function<void(bool)> screenshotDone_;
};

// A live view of `endpoint` in a window of its own, run on the workbench's device, variants
// and algorithm panels' parameters with the q-bin labels on screen; its notices go to the Log
// and the status bar.
LiveView* openLiveWindow(Workbench& workbench, const QString& endpoint, QWidget* parent);

} // namespace clscope::ui
