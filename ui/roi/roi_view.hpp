// The ROI dock (issue 53, "ROI time series"): rectangles and rings on the image — drawn with the
// mouse (Draw: rectangle drags a box, ring drags from the centre to the outer radius, the inner
// at half of it) or typed into the table — drawn over the image as an overlay with outlines, and
// each frame's sum or mean over each of them against frame, computed by core/roi (as
// `clscope-cli roi`, whose command line the view copies) over the open file's frames on the job
// runner (progress, Cancel). The regions persist (QSettings roi/rects, roi/rings); Export CSV
// writes roi::seriesCsv.
#pragma once
#include "core/roi/roi.hpp"

#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QPushButton;
class QTableWidget;

namespace clscope::ui {

class Workbench;

class RoiView : public QWidget {
    Q_OBJECT
  public:
    explicit RoiView(Workbench& workbench, QWidget* parent = nullptr);
    ~RoiView() override;
    // The regions saved (settings roi/rects, roi/rings; any thread), rectangles first; none
    // when the saved text is damaged.
    static std::vector<roi::Region> savedRegions();

    const std::vector<roi::Region>& regions() const { return regions_; }
    void setRegions(std::vector<roi::Region> regions);
    void addRegion(const roi::Region& region);
    // The open file's series computed on the job runner; false (said in the Log) when no file
    // with frames is open or a job runs.
    bool compute();
    const roi::Series* series() const { return series_.get(); }
    // `clscope-cli roi FILE --rects … --rings … -o OUT.h5` of the regions on the open file.
    QString commandLine(const QString& output = "roi.h5") const;
    QTableWidget* table() const { return table_; }
    QCustomPlot* plot() const { return plot_; }
    QComboBox* drawChoice() const { return draw_; }
    QComboBox* quantityChoice() const { return quantity_; }
    QPushButton* computeButton() const { return computeButton_; }
    // Draw: off, and the image pans again (its dock behind another: MainWindow calls it).
    void stopDrawing();

  signals:
    void seriesShown();

  private:
    QWidget* buildTableSide();
    void fillTable();
    void readTable();
    void saveRegions() const;
    void showOverlay();
    void showSeries(std::shared_ptr<const roi::Series> series);
    void redrawPlot();
    void exportCsv();
    void onPress(QMouseEvent* event);
    void onRelease(QMouseEvent* event);

    Workbench& wb_;
    std::vector<roi::Region> regions_;
    std::shared_ptr<const roi::Series> series_;
    QTableWidget* table_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QComboBox *draw_ = nullptr, *quantity_ = nullptr;
    QPushButton* computeButton_ = nullptr;
    QLabel* status_ = nullptr;
    std::optional<QPointF> dragStart_;
    bool filling_ = false;
};

} // namespace clscope::ui
