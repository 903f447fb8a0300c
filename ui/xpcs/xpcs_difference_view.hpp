// xpcs's difference view for the Compare dock: g2(τ) of two runs overlaid for a few bins (run
// a solid, run b dashed), and below their difference a − b, in g2 units or in units of b's
// g2_err (a switch). Log τ axis; lags where either is NaN are left out of the curves and
// counted in the caption.
#pragma once
#include "core/xpcs/xpcs.hpp"

#include <QWidget>

class QCheckBox;
class QCustomPlot;
class QLabel;

namespace clscope::ui {

class XpcsDifferenceView : public QWidget {
    Q_OBJECT
  public:
    XpcsDifferenceView(xpcs::Result a, std::string labelA, xpcs::Result b, std::string labelB,
                       QWidget* parent = nullptr);
    QCustomPlot* curves() const { return curves_; }
    QCustomPlot* difference() const { return difference_; }
    QCheckBox* inErrorUnits() const { return errorUnits_; }
    void refresh();

  private:
    xpcs::Result a_, b_;
    std::string labelA_, labelB_;
    QCustomPlot *curves_ = nullptr, *difference_ = nullptr;
    QCheckBox* errorUnits_ = nullptr;
    QLabel* caption_ = nullptr;
};

} // namespace clscope::ui
