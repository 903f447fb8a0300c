// The kernel lab's roofline (clscope-cli lab's JSON rows, `roofline`): log-log, operations per
// byte across, Gop/s up; the device's measured peaks as the roof (bandwidth × intensity, capped
// by the compute peak) and each row that declares operations as a point at its work's
// intensity and achieved rate.
#pragma once
#include <QWidget>
#include <nlohmann/json.hpp>

class QCustomPlot;
class QLabel;

namespace clscope::ui {

class LabRooflinePlot : public QWidget {
    Q_OBJECT
  public:
    explicit LabRooflinePlot(QWidget* parent = nullptr);
    void showRows(const nlohmann::json& rows);
    int pointCount() const { return points_; } // rows drawn
    QCustomPlot* plot() const { return plot_; }

  private:
    void drawRoof(const nlohmann::json& roofline, double lowIntensity, double highIntensity);

    QCustomPlot* plot_;
    QLabel* note_;
    int points_ = 0;
};

} // namespace clscope::ui
