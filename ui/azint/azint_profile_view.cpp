#include "ui/azint/azint_profile_view.hpp"

#include "ui/azint/azint_plot_frame.hpp"

#include "ui/results/log_axis.hpp"
#include "ui/results/plot_legend.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

QSpinBox* frameBox(QWidget* parent, std::size_t frames, int value, const QString& tip) {
    auto* box = new QSpinBox(parent);
    box->setRange(0, int(frames) - 1);
    box->setValue(value);
    box->setToolTip(tip);
    return box;
}

} // namespace

AzintProfileView::AzintProfileView(std::shared_ptr<const AzintPresenter> presenter,
                                   const QString& title, QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    const std::size_t frames = std::max<std::size_t>(presenter_->frames(), 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    frame_ = frameBox(this, frames, 0, "The frame whose profile is drawn");
    sum_ = new QCheckBox("sum of frames", this);
    sum_->setToolTip("Also the profile of the frames in this range summed (Σ signal / Σ "
                     "normalization per bin)");
    first_ = frameBox(this, frames, 0, "First frame of the sum");
    last_ = frameBox(this, frames, int(frames) - 1, "Last frame of the sum");
    log_ = new QCheckBox("log I", this);
    controls->addWidget(new QLabel("Frame", this));
    controls->addWidget(frame_);
    controls->addWidget(sum_);
    controls->addWidget(first_);
    controls->addWidget(new QLabel("to", this));
    controls->addWidget(last_);
    controls->addWidget(log_);
    plot_ = controlsTitleAndPlot(*layout, controls, title, this);
    plot_->xAxis->setLabel(QString::fromStdString(presenter_->radialTitle()));
    plot_->yAxis->setLabel("intensity");
    placeLegendBelow(*plot_);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    layout->addWidget(plot_, 1);
    for (QSpinBox* box : {frame_, first_, last_})
        connect(box, &QSpinBox::valueChanged, this, [this] { refresh(); });
    for (QCheckBox* box : {sum_, log_})
        connect(box, &QCheckBox::toggled, this, [this] { refresh(); });
    refresh();
}

void AzintProfileView::addProfile(const AzintProfile& p, const QString& name, const QColor& color) {
    QVector<double> x, y, err;
    const bool log = log_->isChecked();
    for (std::size_t n = 0; n < p.radial.size(); ++n)
        if (std::isfinite(p.intensity[n]) && (!log || p.intensity[n] > 0)) {
            x << p.radial[n], y << p.intensity[n], err << p.error[n];
        }
    auto* graph = plot_->addGraph();
    graph->setName(name);
    graph->setPen(QPen(color, 1.5));
    graph->setData(x, y, true);
    auto* errors = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    errors->removeFromLegend();
    errors->setDataPlottable(graph);
    errors->setData(err);
    QColor bar = color;
    bar.setAlpha(90);
    errors->setPen(QPen(bar, 1));
}

void AzintProfileView::refresh() {
    plot_->clearPlottables();
    if (!presenter_->empty()) {
        const std::size_t f = std::size_t(frame_->value());
        addProfile(presenter_->profile(f), QString("frame %1").arg(f), QColor(31, 119, 180));
        first_->setEnabled(sum_->isChecked());
        last_->setEnabled(sum_->isChecked());
        if (sum_->isChecked()) {
            const std::size_t a = std::size_t(first_->value()), b = std::size_t(last_->value());
            addProfile(presenter_->profile(std::min(a, b), std::max(a, b)),
                       QString("frames %1–%2 summed").arg(std::min(a, b)).arg(std::max(a, b)),
                       QColor(214, 39, 40));
        }
    }
    setLogAxis(*plot_->yAxis, log_->isChecked());
    plot_->rescaleAxes();
    fitLegendColumns(*plot_);
    plot_->replot();
}

} // namespace clscope::ui
