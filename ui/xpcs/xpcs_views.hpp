// The other XPCS result tabs: "Fits" (per-bin parameters ± errors, χ²_red), "τ(q)"
// (xpcs_rate_view.hpp), "Two-time" (the chosen bin's C(t1,t2) as a colour map).
#pragma once
#include "ui/xpcs/xpcs_presenter.hpp"
#include "ui/xpcs/xpcs_rate_view.hpp"

#include <QStringList>
#include <QWidget>
#include <memory>

class QCustomPlot;
class QLabel;
class QTableWidget;

namespace clscope::ui {

class XpcsFitsView : public QWidget {
    Q_OBJECT
  public:
    explicit XpcsFitsView(std::shared_ptr<const XpcsPresenter> presenter,
                          QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }
    void refresh();

  private:
    void showModel();
    QStringList cells(const XpcsBinFit& f) const;
    std::shared_ptr<const XpcsPresenter> presenter_;
    QTableWidget* table_ = nullptr;
    QLabel* note_ = nullptr;
};

// Frames per cell of a two-time map: the run's twotime_bin for multi-tau results, else 1.
std::size_t twoTimeFramesPerCell(const xpcs::Result& result);
// C(t1,t2) of one bin; t in seconds when the frame time is known, else frames.
QCustomPlot* makeTwoTimePlot(const xpcs::Result& result, std::int32_t label,
                             QWidget* parent = nullptr);

} // namespace clscope::ui
