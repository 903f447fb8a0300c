// One module's cluster map: 160 x 416 pixels drawn as CMS draws them (the 416 columns along the
// horizontal axis, the 160 rows vertical, pixels 150 x 100 µm to scale), each cluster in its own
// colour (an OverlayLayer, categorical) with a frame around it, digis dropped as duplicates
// (black, x markers), by the charge cut (grey) and invalid digis of the module's run (circles)
// marked, the selected cluster framed in red. The readout names the pixel, its charge and
// cluster under the cursor.
#pragma once
#include "ui/cluster/cluster_presenter.hpp"
#include "ui/image/overlay_layer.hpp"

#include <QWidget>
#include <memory>
#include <optional>

class QCustomPlot;
class QCPItemRect;
class QLabel;
class QMouseEvent;

namespace clscope::ui {

class ClusterModuleView : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterModuleView(QWidget* parent = nullptr);
    ~ClusterModuleView() override;
    // The module's map; `firstCluster`: table row of its cluster 0 (for the readout).
    void setModule(ClusterModuleMap map, const cluster::Result* result, std::size_t firstCluster);
    // Frame one of the module's clusters (its number within the module); none: no frame.
    void highlightCluster(std::optional<int> clusterInModule);
    std::optional<int> highlighted() const { return highlighted_; }
    const ClusterModuleMap& map() const { return map_; }
    QCustomPlot* plot() const { return plot_; }
    // Overlay layers by name ("clusters", "duplicate digis", "below charge cut").
    OverlayLayer* overlay(const QString& name) const;
    // Whole module in view, pixels to scale (150 µm across, 100 µm up).
    void fitModule();
    // Readout text of the pixel at plot coordinates (column y, row x).
    QString readoutAt(double column, double row) const;

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void buildPlot();
    void clearLayers();
    void addOverlay(const QString& name, const std::vector<std::int32_t>& labels,
                    OverlayData::Style style, QColor color, double opacity);
    void addClusterFrames();
    void addMarkers(const QString& name, const std::vector<std::pair<int, int>>& pixels,
                    QCPScatterStyle style);
    QCustomPlot* plot_ = nullptr;
    QLabel *caption_ = nullptr, *readout_ = nullptr;
    ClusterModuleMap map_;
    const cluster::Result* result_ = nullptr;
    std::size_t firstCluster_ = 0;
    std::vector<std::unique_ptr<OverlayLayer>> overlays_;
    QCPItemRect* highlight_ = nullptr;
    std::optional<int> highlighted_;
};

} // namespace clscope::ui
