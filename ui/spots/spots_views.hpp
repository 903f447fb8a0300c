// The spots result tabs: the sortable spot table (a click selects the spot; the panel then
// centres the image view on it) and signal pixels / spots per frame as a plot.
#pragma once
#include "core/spots/per_image.hpp"
#include "ui/spots/spots_presenter.hpp"

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>

class QCustomPlot;
class QLabel;
class QTableView;

namespace clscope::ui {

// The presenter's table as a Qt model; sort() orders the presenter's rows.
class SpotTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    explicit SpotTableModel(std::shared_ptr<SpotsPresenter> presenter, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    void sort(int column, Qt::SortOrder order) override;

  private:
    std::shared_ptr<SpotsPresenter> presenter_;
};

class SpotTableView : public QWidget {
    Q_OBJECT
  public:
    explicit SpotTableView(std::shared_ptr<SpotsPresenter> presenter, QWidget* parent = nullptr);
    QTableView* table() const { return table_; }
    SpotTableModel* model() const { return model_; }

  signals:
    // The user picked a row: the presenter's selection is that row's spot.
    void spotSelected();

  private:
    std::shared_ptr<SpotsPresenter> presenter_;
    SpotTableModel* model_ = nullptr;
    QTableView* table_ = nullptr;
};

// Signal pixels (left axis) and spots (right axis) per frame, legend above the plot.
QCustomPlot* makePerFramePlot(const SpotsPresenter& presenter);
// DIALS' per-image analysis against image: spots, spots off the ice rings and to 4 Å (left
// axis), the estimated d_min where DIALS gives one (right axis, reversed).
QCustomPlot* makePerImagePlot(const spots::PerImageStats& stats);

} // namespace clscope::ui
