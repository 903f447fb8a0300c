// The Spots panel's "Grid scan" result tab: spots per image laid out on the scan's grid (rows ×
// columns, snaked or not: core/spots/grid_scan.hpp) as a heat map with its colour bar, each
// cell labelled with its image and count on small grids; a click on a cell chooses its image.
#pragma once
#include "core/spots/grid_scan.hpp"

#include <QWidget>
#include <optional>
#include <vector>

class QCheckBox;
class QCPColorMap;
class QCPItemText;
class QCustomPlot;
class QSpinBox;

namespace clscope::ui {

class SpotsGridView : public QWidget {
    Q_OBJECT
  public:
    // perImage: spots of each image of the run, in scan order.
    explicit SpotsGridView(std::vector<double> perImage, QWidget* parent = nullptr);
    void setGrid(const spots::GridScan& grid);
    spots::GridScan grid() const;
    QCustomPlot* plot() const { return plot_; }
    // The image of the cell at plot coordinates (column, row); none outside the grid's images.
    std::optional<std::size_t> imageAt(double column, double row) const;

  signals:
    void imageChosen(std::size_t image);

  private:
    void redraw();
    void labelCells();
    std::vector<double> perImage_;
    QCustomPlot* plot_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QSpinBox *rows_ = nullptr, *columns_ = nullptr;
    QCheckBox* snake_ = nullptr;
    std::vector<QCPItemText*> labels_;
};

} // namespace clscope::ui
