// The XPCS result tab "τ(q)": each bin's Γ against q on log–log axes with error bars, the
// τ(q) law of the fit options (power, diffusion or ballistic) drawn over the bins of its q
// range (the others hollow), its parameters with errors in a label above the plot, the free
// power law beside a fixed law, or a label saying why there is nothing to plot.
#pragma once
#include "ui/xpcs/xpcs_presenter.hpp"

#include <QWidget>
#include <memory>

class QCustomPlot;
class QLabel;

namespace clscope::ui {

class XpcsRateView : public QWidget {
    Q_OBJECT
  public:
    explicit XpcsRateView(std::shared_ptr<const XpcsPresenter> presenter,
                          QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    QLabel* note() const { return note_; }
    QLabel* lawLabel() const { return law_; }
    void refresh();

    // "D = … Å²/s (fit of Γ = D·q²)" and the true D beside it when known; empty without a fit.
    QString diffusionText(const XpcsRatePoints& points) const;
    // The law, its parameters ± errors with units, the q range and the bins it used.
    QString lawText(const XpcsRatePoints& points) const;

  private:
    void plotPoints(const XpcsRatePoints& p, bool inRange);
    void plotLines(const XpcsRatePoints& p);
    void markRange(const XpcsRatePoints& p);
    QString rateUnit() const; // "s" or "frame"
    std::shared_ptr<const XpcsPresenter> presenter_;
    QCustomPlot* plot_ = nullptr;
    QLabel* law_ = nullptr;
    QLabel* note_ = nullptr;
};

} // namespace clscope::ui
