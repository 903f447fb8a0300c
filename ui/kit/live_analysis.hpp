// What a live stream's view runs besides showing the frames, each algorithm adding its own
// (AlgorithmPanelSpec::liveAnalysis): per-frame analyses give numbers per frame for the per-frame
// chart (curves that grow as frames come) and draw on the frame shown (e.g. markers of what they
// found), analyses over the frames so far redraw their own widget about once a second (e.g. a
// correlation). The generic view never names an algorithm.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/params.hpp"
#include "core/stream/stream_v2.hpp"
#include "gpu/runtime/device_info.hpp"

#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCustomPlot;
class QWidget;

namespace clscope::ui {

// The series being received and where to run: the start message's image size, dtype, pixel
// mask, frame time and detector geometry, the chosen device and variants, the q-bin labels and
// the algorithm panels' parameters on screen.
struct LiveContext {
    std::size_t height = 0, width = 0;
    DType dtype = DType::UInt16;
    PixelMask mask;                                 // empty when the start message sent none
    double frameTime = 0;                           // seconds; 0 when not sent
    std::optional<stream::DetectorHeader> detector; // the start message's geometry, as sent
    DeviceInfo device;                              // the Device panel's
    std::map<std::string, std::string> variants;    // algorithm -> variant id (absent: default)
    std::shared_ptr<const LabelMask> labels;        // null when none are on screen
    std::map<std::string, ParamSet> params;         // algorithm -> its panel's parameters
    std::string variantOf(const std::string& algorithm) const {
        const auto it = variants.find(algorithm);
        return it == variants.end() ? std::string() : it->second;
    }
    // The algorithm's parameters on its panel, else `defaults`.
    ParamSet paramsOf(const std::string& algorithm, ParamSet defaults) const {
        const auto it = params.find(algorithm);
        return it == params.end() ? std::move(defaults) : it->second;
    }
};

// One number a per-frame analysis gives for every frame: a curve of the view's per-frame chart.
struct LiveQuantity {
    QString name; // the legend's, e.g. "peaks"
    // The axis it is drawn against, with its unit, e.g. "d_min (Å)"; curves naming the same
    // axis share it.
    QString axis;
    // The view's hit rate counts the frames whose value is at or above the threshold set in it
    // (the first quantity so marked).
    bool hits = false;
    // Its axis runs downwards: smaller is better (a resolution, as DIALS plots d_min).
    bool reversed = false;
};

// Runs on every frame, in order, on the receiving thread; draws on the GUI thread.
class LiveFrameAnalysis {
  public:
    virtual ~LiveFrameAnalysis() = default;
    // Its curves, fixed once made.
    virtual std::vector<LiveQuantity> quantities() const = 0;
    // What it cannot give on this stream and why, for the chart (e.g. a quantity that needs a
    // geometry): lines of at most ~60 characters; empty: nothing to say.
    virtual QString missing() const { return {}; }
    // Frame `index` as (1,H,W): one value per quantity (NaN: none for this frame). Throws what
    // runAlgorithm throws.
    virtual std::vector<double> analyse(const Array& frame, std::size_t index) = 0;
    // Draws what frame `index` gave on the image plot (clears when it has not been analysed).
    virtual void draw(QCustomPlot* image, std::size_t index) = 0;
    // What it runs with, for the view to show (e.g. its thresholds); empty: nothing to say.
    // Called on the GUI thread.
    virtual QString settings() const { return {}; }
    // Runs with `params` (its panel's, changed) from the next frame on; called on the receiving
    // thread between frames. False when it takes no parameters.
    virtual bool setParams(const ParamSet&) { return false; }
};

// Runs over every frame received so far, off the GUI thread, about once a second.
class LiveSeriesAnalysis {
  public:
    virtual ~LiveSeriesAnalysis() = default;
    virtual QString title() const = 0;
    virtual QWidget* widget() = 0; // made with the parent given to the factory
    // Frames (n,H,W) received so far: returns what shows the outcome (called on the GUI thread
    // while this object lives), or an empty function when there is nothing to show yet.
    // Throws for what it cannot run on (shown under its widget).
    virtual std::function<void()> analyse(const Array& frames) = 0;
};

struct LiveAnalysisSpec {
    std::string algorithm;
    // Made on the receiving thread (no widgets); null: none.
    std::function<std::unique_ptr<LiveFrameAnalysis>(const LiveContext&)> perFrame;
    // Made on the GUI thread once the start message came; null: none, or it does not apply to
    // the stream (e.g. no q-bin labels on screen for g2): the view says nothing of it.
    std::function<std::unique_ptr<LiveSeriesAnalysis>(const LiveContext&, QWidget* parent)>
        overFrames;
};

class LiveAnalysisRegistry {
  public:
    static LiveAnalysisRegistry& instance();
    void add(LiveAnalysisSpec spec); // replaces one of the same algorithm
    const std::vector<LiveAnalysisSpec>& specs() const { return specs_; }

  private:
    std::vector<LiveAnalysisSpec> specs_;
};

} // namespace clscope::ui
