// The occupancy of frames stored sparsely, plotted per frame under the Data panel's tree: each
// frame's stored entries over its pixels, in %, against the frame index (DESIGN.md §3 "Sparse
// frames"). Hidden for dense frames. The numbers are Qt-free (occupancyPercent).
#pragma once
#include <QWidget>
#include <cstdint>
#include <vector>

class QCustomPlot;
class QLabel;

namespace clscope::ui {

class FrameSource;

// 100 · entries / pixels of each frame.
std::vector<double> occupancyPercent(const std::vector<std::uint64_t>& entriesPerFrame,
                                     std::size_t pixels);

class OccupancyPlot : public QWidget {
    Q_OBJECT
  public:
    explicit OccupancyPlot(QWidget* parent = nullptr);
    // The frames shown: plotted where they are stored sparsely, else (or null) hidden.
    void setSource(const FrameSource* source);
    QCustomPlot* plot() const { return plot_; }
    QLabel* caption() const { return caption_; }

  private:
    QLabel* caption_ = nullptr;
    QCustomPlot* plot_ = nullptr;
};

} // namespace clscope::ui
