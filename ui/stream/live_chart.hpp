// The live view's per-frame chart (its strip chart): the curves of the per-frame analyses growing
// as frames come, stacked as DIALS plots its per-image numbers — one axis rect per axis the
// curves name (LiveQuantity::axis), the frame axis shared, labelled under the last —, the
// frames/s received on the first rect's right axis, the hit rate (the share of the frames so far
// whose hit curve is at or above a threshold) in a rect under the hit curve's, what the analyses
// cannot show in a note under the title, and the legend in rows of its own under the axes.
// A curve past ThinnedSeries' cap is drawn thinned (each bucket's lowest and highest value), so
// a long series keeps its memory and its repaint bounded. Names no algorithm. GUI thread only.
#pragma once
#include "ui/kit/live_analysis.hpp"
#include "ui/stream/thinned_series.hpp"

#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

class QCPAxisRect;
class QCPGraph;
class QCPMarginGroup;
class QCPTextElement;
class QCustomPlot;
class QWidget;

namespace clscope::ui {

// A frame is a hit when its value is at or above the threshold (NaN: not a hit).
inline bool isHit(double value, double threshold) {
    return value >= threshold;
}
// The hit rate after each frame, in % of the frames so far: 100 · #{j ≤ i : hit j} / (i + 1).
std::vector<double> hitRate(const std::vector<double>& values, double threshold);

class LiveChart {
  public:
    explicit LiveChart(QWidget* parent);
    QCustomPlot* plot() const { return plot_; }

    // No curves, no rate, no note (a new series).
    void reset();
    // The series' curves (StreamReceiver::curves) and what the analyses cannot show.
    void setCurves(const std::vector<LiveQuantity>& curves, const QStringList& notes);
    void addRate(double frames, double perSecond);
    // values[c] holds curve c's numbers from frame framesPlotted() on: those of the frames every
    // curve has are added (not drawn until replot).
    void append(const std::vector<std::vector<double>>& values);
    std::size_t framesPlotted() const { return plotted_; }
    // Redraws the hit rate with frames at or above `threshold` counting as hits.
    void setHitThreshold(double threshold);
    // The hit curve's name ("" without one): what the threshold is in.
    QString hitQuantity() const;
    double hitRateNow() const; // % of the frames plotted; NaN before any
    // The points drawn of the curve named `name` (the hit rate's starts "hit rate"), in order:
    // every frame's until a curve is thinned.
    std::vector<double> drawn(const QString& name) const;
    QString note() const;
    // Rescales every axis to the frames so far and repaints now.
    void replot();

  private:
    QCPAxisRect* rectFor(const QString& axis);
    QCPGraph* addCurve(const QString& name, QCPAxisRect* rect);
    void addHitRate(std::size_t curve);
    void addPoint(QCPGraph* graph, ThinnedSeries& series, double key, double value);
    void draw(QCPGraph* graph, const ThinnedSeries& series);
    void labelFrameAxes();
    void rescale();
    QString hitName() const;

    QCustomPlot* plot_ = nullptr;
    QCPMarginGroup* margins_ = nullptr;
    QCPTextElement* note_ = nullptr;
    QCPGraph* rate_ = nullptr;
    std::vector<std::pair<QString, QCPAxisRect*>> rects_; // by axis label
    std::vector<QCPGraph*> curves_;
    std::vector<ThinnedSeries> series_;      // of curves_
    ThinnedSeries hitSeries_;                // of hits_
    std::vector<QString> names_;             // of curves_
    std::vector<double> hitValues_;          // the hit curve's so far
    std::size_t hitCurve_ = std::size_t(-1); // in curves_; -1: none
    QCPGraph* hits_ = nullptr;               // the hit rate
    double threshold_ = 20;
    std::size_t plotted_ = 0, hitCount_ = 0;
};

} // namespace clscope::ui
