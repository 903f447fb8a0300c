// A result tab of the Azint panel that shows a map: the waterfall I(frame, radial) or the cake
// I(χ, radial) of a frame (with its frame chooser). Colour bar beside the map, NaN (empty bins)
// grey, linear or log colour scale.
#pragma once
#include "ui/azint/azint_presenter.hpp"

#include <QString>
#include <QWidget>
#include <qcustomplot.h>

class QCheckBox;
class QSpinBox;

namespace clscope::ui {

class AzintMapView : public QWidget {
    Q_OBJECT
  public:
    // frames > 1: a frame chooser above the map (frameChanged).
    AzintMapView(const QString& title, const QString& xLabel, const QString& yLabel,
                 std::size_t frames, QWidget* parent = nullptr);
    // The map over x (columns) and y (rows) ranges of the cells' centres.
    void setMap(const AzintMap& map, QCPRange x, QCPRange y);
    QCustomPlot* plot() const { return plot_; }
    QCheckBox* logBox() const { return log_; }
    QSpinBox* frameSpin() const { return frame_; } // null without a chooser
    std::size_t frame() const;

  signals:
    void frameChanged(std::size_t frame);

  private:
    void applyScale();
    QCustomPlot* plot_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCheckBox* log_ = nullptr;
    QSpinBox* frame_ = nullptr;
};

} // namespace clscope::ui
