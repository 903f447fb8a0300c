// The cluster table: one row per cluster of the event (module, number in the module, size in
// pixels, in x and in y, charge in e-, centroid in pixels), read from the presenter's result.
#pragma once
#include "core/cluster/cluster.hpp"

#include <QAbstractTableModel>

namespace clscope::ui {

class ClusterTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    using QAbstractTableModel::QAbstractTableModel;
    // The result shown (not owned; null clears the table).
    void setResult(const cluster::Result* result);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  private:
    const cluster::Result* result_ = nullptr;
    std::vector<int> numberInModule_;
};

} // namespace clscope::ui
