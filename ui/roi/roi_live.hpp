// The ROI time series on a live stream (issue 53): the ROI dock's regions (as saved when the
// stream starts) give one curve each on the live view's per-frame chart, the mean over the
// region of every frame as it comes (core/roi's Series, the numbers `clscope-cli roi` writes for
// the frames saved), masked pixels of the start message left out. Registered with azint's live
// analyses; none while no region is drawn. Their outlines are drawn on the live image.
#pragma once
#include "core/roi/roi.hpp"
#include "ui/kit/live_analysis.hpp"

#include <QPointer>
#include <qcustomplot.h>

namespace clscope::ui {

class RoiLive : public LiveFrameAnalysis {
  public:
    RoiLive(std::vector<roi::Region> regions, const LiveContext& c);
    std::vector<LiveQuantity> quantities() const override;
    std::vector<double> analyse(const Array& frame, std::size_t index) override;
    // The regions' outlines on the image (made once, kept while the plot keeps them).
    void draw(QCustomPlot* image, std::size_t index) override;
    QString settings() const override;
    const roi::Series& series() const { return series_; }

  private:
    roi::Series series_;
    std::vector<QPointer<QCPAbstractItem>> outlines_;
};

// A RoiLive of the saved regions; null when there are none or they do not fit the frames.
std::unique_ptr<LiveFrameAnalysis> makeRoiLive(const LiveContext& c);

} // namespace clscope::ui
