// spots' difference view for the Compare dock: the pixels where two runs' signal masks
// disagree, one frame at a time (signal only in run a, only in run b), drawn as the image
// view's overlay type on an empty detector plane, with the counts in the caption.
#pragma once
#include "core/spots/spots.hpp"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QSpinBox;

namespace clscope::ui {

class OverlayLayer;

class SpotsDifferenceView : public QWidget {
    Q_OBJECT
  public:
    SpotsDifferenceView(spots::Result a, std::string labelA, spots::Result b, std::string labelB,
                        QWidget* parent = nullptr);
    ~SpotsDifferenceView() override;
    QCustomPlot* plot() const { return plot_; }
    QSpinBox* frameBox() const { return frame_; }
    // The difference layer of the frame shown (null when the masks cannot be compared).
    OverlayLayer* layer() const { return layer_.get(); }
    QLabel* caption() const { return caption_; }
    void showFrame(std::size_t frame);

  private:
    spots::Result a_, b_;
    std::string labelA_, labelB_;
    QCustomPlot* plot_ = nullptr;
    QSpinBox* frame_ = nullptr;
    QLabel* caption_ = nullptr;
    std::unique_ptr<OverlayLayer> layer_;
};

} // namespace clscope::ui
