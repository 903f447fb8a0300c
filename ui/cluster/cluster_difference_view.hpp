// cluster's difference view for the Compare dock: the digis two runs put into different
// clusters (partitionDifference: set comparison, renumbering alone is no difference), as a
// detector overview of differing digis per module and the list of those digis with their
// cluster in each run. The digis are read again from the file named in run a's provenance.
#pragma once
#include "core/cluster/cluster.hpp"
#include "ui/cluster/cluster_presenter.hpp"

#include <QWidget>
#include <memory>

class QLabel;
class QTableWidget;

namespace clscope {
class AlgorithmResult;
}

namespace clscope::ui {

class ClusterOverview;

class ClusterDifferenceView : public QWidget {
    Q_OBJECT
  public:
    ClusterDifferenceView(std::shared_ptr<const Digis> digis, const cluster::Result& a,
                          const std::string& labelA, const cluster::Result& b,
                          const std::string& labelB, QWidget* parent = nullptr);
    const PartitionDifference& difference() const { return difference_; }
    ClusterOverview* overview() const { return overview_; }
    QTableWidget* list() const { return list_; }
    QLabel* caption() const { return caption_; }

  private:
    void fillList(const Digis& digis, const cluster::Result& a, const cluster::Result& b);
    PartitionDifference difference_;
    ClusterOverview* overview_ = nullptr;
    QTableWidget* list_ = nullptr;
    QLabel* caption_ = nullptr;
};

// The Compare dock's entry: the view for two cluster results, or a label saying why not.
QWidget* makeClusterDifferenceView(const AlgorithmResult& a, const AlgorithmResult& b);

} // namespace clscope::ui
