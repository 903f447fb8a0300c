// The "g2(τ)" result tab: g2 of the checked bins on a log τ axis with error bars, the fit
// curves dashed in the bin's colour, a legend "label L, q = … Å⁻¹", and the bin checklist.
#pragma once
#include "ui/xpcs/xpcs_presenter.hpp"

#include <QWidget>
#include <memory>
#include <vector>

class QCheckBox;
class QCustomPlot;
class QListWidget;
class QPushButton;
class QCPTextElement;

namespace clscope::ui {

// The colour of the n-th plotted bin (distinct for up to ten bins).
QColor seriesColor(std::size_t rank);

class XpcsG2View : public QWidget {
    Q_OBJECT
  public:
    XpcsG2View(std::shared_ptr<const XpcsPresenter> presenter, QString title,
               QWidget* parent = nullptr);

    QCustomPlot* plot() const { return plot_; }
    QListWidget* binList() const { return bins_; }
    // Display: every lag, or lags averaged in log-spaced τ bins (the default).
    QCheckBox* logBinBox() const { return logBin_; }
    // Bin indices checked in the list.
    std::vector<std::size_t> selectedBins() const;
    void setSelectedBins(const std::vector<std::size_t>& bins);
    // Redraw from the presenter (after a refit).
    void refresh();
    // The run's title as given (shown cut in the middle where the plot is narrower).
    const QString& title() const { return fullTitle_; }

    // "Overlay a result…" / "Remove overlay": the button under the bin list.
    QPushButton* overlayButton() const { return overlay_; }

  signals:
    void selectionChanged();
    // The user asks for another result file's g2 beside the run's (none shown), or for the
    // one shown to go (shown).
    void overlayRequested(bool shown);

  protected:
    // The plot's resizes: as many legend columns as its width gives, the title fitted.
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    int fillBinList(); // the widest entry's text, in pixels
    void drawSeries(const XpcsSeries& series, const QColor& color);
    // The overlay's points: hollow markers in the bin's colour, lighter error bars.
    void drawOverlay(const XpcsSeries& series, const QColor& color);
    XpcsSeries shown(const XpcsSeries& series) const; // log-binned when chosen
    void rescaleAxes();
    void drawLevels();
    // Log-binning applies to dense lags only (multi-tau lags are log-spaced already).
    bool logBinning() const;
    std::shared_ptr<const XpcsPresenter> presenter_;
    QCustomPlot* plot_ = nullptr;
    QListWidget* bins_ = nullptr;
    QCheckBox* logBin_ = nullptr;
    QPushButton* overlay_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QString fullTitle_;
    void fitTitle();
};

} // namespace clscope::ui
