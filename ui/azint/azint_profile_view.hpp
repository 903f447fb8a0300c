// The Azint panel's "I(q)" result tab: the radial profile of the chosen frame with Poisson error
// bars, and optionally the profile of the frames first..last summed (pyFAI's integration of
// their sum) beside it; linear or log intensity axis. Legend below the plot.
#pragma once
#include "ui/azint/azint_presenter.hpp"

#include <QWidget>
#include <memory>

class QCheckBox;
class QCustomPlot;
class QSpinBox;

namespace clscope::ui {

class AzintProfileView : public QWidget {
    Q_OBJECT
  public:
    AzintProfileView(std::shared_ptr<const AzintPresenter> presenter, const QString& title,
                     QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    QSpinBox* frameSpin() const { return frame_; }
    // "sum of frames" and its range (inclusive).
    QCheckBox* sumBox() const { return sum_; }
    QSpinBox* sumFirst() const { return first_; }
    QSpinBox* sumLast() const { return last_; }
    QCheckBox* logBox() const { return log_; }
    void refresh();

  private:
    void addProfile(const AzintProfile& profile, const QString& name, const QColor& color);
    std::shared_ptr<const AzintPresenter> presenter_;
    QCustomPlot* plot_ = nullptr;
    QSpinBox *frame_ = nullptr, *first_ = nullptr, *last_ = nullptr;
    QCheckBox *sum_ = nullptr, *log_ = nullptr;
};

} // namespace clscope::ui
