// Cluster size (pixels; in x and in y) and charge (ke-) histograms side by side in one plot,
// with the counts above the last bin noted in each title. The charge plot marks the charge cut
// in force (one line per threshold).
#pragma once
#include "ui/cluster/cluster_presenter.hpp"

#include <QWidget>

class QCustomPlot;

namespace clscope::ui {

class ClusterHistogramsView : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterHistogramsView(QWidget* parent = nullptr);
    // thresholds: the charge cut's thresholds in e- (empty: no cut).
    void setHistograms(const std::vector<ClusterHistogram>& histograms,
                       const std::vector<double>& thresholds);
    QCustomPlot* plot() const { return plot_; }

  private:
    QCustomPlot* plot_ = nullptr;
};

// The x-axis label of a histogram: "cluster size (pixels)", "cluster charge (ke⁻)".
QString histogramAxisLabel(const ClusterHistogram& h);

} // namespace clscope::ui
