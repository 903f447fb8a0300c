// The detector overview: the Phase-1 pixel detector as five grids of modules (barrel layers 1-4
// as module along z x ladder, the forward disks as disk/panel x blade) coloured by a value per
// module (digis, clusters, or differing digis in the Compare dock) on one colour bar, linear
// with integer ticks or logarithmic (modules with 0 then grey). A click on a module emits
// moduleClicked; the selected module is framed.
#pragma once
#include <QWidget>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QLabel;
class QMouseEvent;

namespace clscope::ui {

class ClusterOverview : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterOverview(QWidget* parent = nullptr);
    // One value per module (index = module id); `what` names it on the colour bar.
    void setValues(std::vector<double> perModule, const QString& what);
    void setLogScale(bool log);
    bool logScale() const { return log_; }
    void setSelectedModule(int module); // -1: none
    int selectedModule() const { return selected_; }
    // The value the grid shows for a module (NaN outside the grids).
    double cellValue(int module) const;
    // Position in plot() of a module's cell centre (for tests); (-1, -1) when it has none.
    QPoint cellCentre(int module) const;
    QCustomPlot* plot() const { return plot_; }
    QCPColorScale* colorScale() const { return scale_; }

  signals:
    void moduleClicked(int module);

  private:
    void buildGrids();
    void redraw();
    int moduleAtPixel(const QPointF& pos) const;
    void onMouseMove(QMouseEvent* event);
    QCustomPlot* plot_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QLabel* readout_ = nullptr;
    std::vector<QCPAxisRect*> rects_;
    std::vector<QCPColorMap*> maps_;
    QCPItemRect* frame_ = nullptr;
    std::vector<double> values_;
    QString what_;
    bool log_ = false;
    int selected_ = -1;
};

} // namespace clscope::ui
