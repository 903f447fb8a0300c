#include "ui/cluster/cluster_table.hpp"

#include <iterator>

namespace clscope::ui {

namespace {
const char* const headers[] = {"module",          "cluster",     "size (pixels)", "size x (pixels)",
                               "size y (pixels)", "charge (e⁻)", "x̄ (pixel)",     "ȳ (pixel)"};
}

void ClusterTableModel::setResult(const cluster::Result* result) {
    beginResetModel();
    result_ = result;
    numberInModule_.clear();
    for (std::size_t c = 0; result_ && c < result_->count(); ++c)
        numberInModule_.push_back(
            c > 0 && result_->module[c] == result_->module[c - 1] ? numberInModule_.back() + 1 : 0);
    endResetModel();
}

int ClusterTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !result_ ? 0 : static_cast<int>(result_->count());
}

int ClusterTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(std::size(headers));
}

QVariant ClusterTableModel::data(const QModelIndex& index, int role) const {
    if (!result_ || !index.isValid()) return {};
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    const std::size_t c = static_cast<std::size_t>(index.row());
    switch (index.column()) {
    case 0:
        return result_->module[c];
    case 1:
        return numberInModule_[c];
    case 2:
        return result_->size[c];
    case 3:
        return result_->sizeX[c];
    case 4:
        return result_->sizeY[c];
    case 5:
        return QString::number(result_->charge[c], 'f', 0);
    case 6:
        return QString::number(result_->x[c], 'f', 2);
    default:
        return QString::number(result_->y[c], 'f', 2);
    }
}

QVariant ClusterTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole) return {};
    if (orientation == Qt::Vertical) return section;
    return QString::fromUtf8(headers[section]);
}

} // namespace clscope::ui
