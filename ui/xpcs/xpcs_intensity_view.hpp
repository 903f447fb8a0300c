// The intensity tabs of an xpcs result: "I(t)" (mean counts per pixel of each bin checked in
// g2(τ) against time: is the sample stable over the run?) and "I(q)" (that mean over the
// frames against q, bars ± its spread over the frames). Legends beside the data.
#pragma once
#include "gpu/xpcs/algorithm.hpp"
#include "ui/results/results_panel.hpp"
#include "ui/xpcs/xpcs_presenter.hpp"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QLabel;

namespace clscope::ui {

class XpcsG2View;

class XpcsIntensityView : public QWidget {
    Q_OBJECT
  public:
    explicit XpcsIntensityView(std::shared_ptr<const XpcsPresenter> presenter,
                               QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    // Bin indices drawn (in the colours g2(τ) gives them).
    void setBins(const std::vector<std::size_t>& bins);
    const std::vector<std::size_t>& bins() const { return bins_; }

  private:
    std::shared_ptr<const XpcsPresenter> presenter_;
    QCustomPlot* plot_ = nullptr;
    std::vector<std::size_t> bins_;
};

class XpcsIqView : public QWidget {
    Q_OBJECT
  public:
    explicit XpcsIqView(std::shared_ptr<const XpcsPresenter> presenter, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    void refresh();

  private:
    std::shared_ptr<const XpcsPresenter> presenter_;
    QCustomPlot* plot_ = nullptr;
};

// The mean intensity per bin per frame of a run's input (frames in memory or read by block);
// none when the input holds no frames.
std::optional<xpcs::BinIntensity> inputIntensity(const xpcs::XpcsInput& input);

// The "I(t)" and "I(q)" tabs (owner xpcs, CSV of their table; HDF5: the xpcs result's). I(t)
// follows the bins checked in g2View.
std::vector<ResultTab> intensityTabs(std::shared_ptr<const XpcsPresenter> presenter,
                                     XpcsG2View* g2View);

} // namespace clscope::ui
