#include "ui/xpcs/xpcs_views.hpp"

#include "ui/image/colormaps.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

QVector<double> qvec(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

// "value ± error"; "± —" when the fit gives no error (a bound, or an undetermined parameter).
QString withError(double value, double error, bool fixed = false) {
    if (!std::isfinite(value)) return "—";
    if (!(error > 0)) return QString::number(value, 'g', 4) + (fixed ? " (fixed)" : " ± —");
    return QString("%1 ± %2").arg(value, 0, 'g', 4).arg(error, 0, 'g', 2);
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

void setRow(QTableWidget* table, int row, const QStringList& cells) {
    for (int c = 0; c < cells.size(); ++c)
        table->setItem(row, c, new QTableWidgetItem(cells[c]));
}

// The value range of a two-time map without its diagonal (the τ = 0 Poisson spike):
// 1st to 99th percentile of the finite off-diagonal values.
QCPRange offDiagonalRange(const std::vector<float>& map, std::size_t frames) {
    std::vector<float> values;
    for (std::size_t i = 0; i < frames; ++i)
        for (std::size_t j = 0; j < frames; ++j)
            if (i != j && std::isfinite(map[i * frames + j])) values.push_back(map[i * frames + j]);
    if (values.empty()) return QCPRange(0, 1);
    const auto at = [&](double f) {
        auto it = values.begin() +
                  static_cast<std::ptrdiff_t>(f * static_cast<double>(values.size() - 1));
        std::nth_element(values.begin(), it, values.end());
        return static_cast<double>(*it);
    };
    const double lo = at(0.01), hi = at(0.99);
    return hi > lo ? QCPRange(lo, hi) : QCPRange(lo - 0.5, lo + 0.5);
}

} // namespace

XpcsFitsView::XpcsFitsView(std::shared_ptr<const XpcsPresenter> presenter, QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    const QString rateUnit = presenter_->tauUnit() == "s" ? "1/s" : "1/frame";
    table_ = makeTable(
        {"label", "q (nm⁻¹)", "baseline", "β", "Γ (" + rateUnit + ")", "α", "χ²_red", "status"},
        this);
    note_ = new QLabel("g₂(τ) = baseline + β·exp(−2(Γτ)^α), weighted by 1/g2_err²", this);
    note_->setWordWrap(true);
    layout->addWidget(table_, 1);
    layout->addWidget(note_);
    refresh();
}

void XpcsFitsView::refresh() {
    const auto& fits = presenter_->fits();
    table_->setRowCount(static_cast<int>(fits.size()));
    for (int row = 0; row < static_cast<int>(fits.size()); ++row) {
        const XpcsBinFit& f = fits[static_cast<std::size_t>(row)];
        QStringList cells{QString::number(f.label), f.q ? QString::number(*f.q, 'g', 4) : "—"};
        const XpcsFitOptions& o = presenter_->fitOptions();
        const bool fixed[4] = {o.baseline.fixed, o.beta.fixed, false,
                               !o.stretched || o.alpha.fixed};
        for (std::size_t p = 0; p < 4; ++p)
            cells << (f.ok() ? withError(f.fit.values[p], f.fit.errors[p], fixed[p])
                             : QString("—"));
        cells << (std::isfinite(f.fit.chiSquaredReduced)
                      ? QString::number(f.fit.chiSquaredReduced, 'g', 3)
                      : "—");
        cells << (f.fit.converged ? QString("ok")
                                  : QString::fromStdString(f.fit.message.empty() ? "not converged"
                                                                                 : f.fit.message));
        setRow(table_, row, cells);
    }
}

XpcsRateView::XpcsRateView(std::shared_ptr<const XpcsPresenter> presenter, QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(220, 180);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setAlignment(Qt::AlignCenter);
    layout->addWidget(plot_, 1);
    layout->addWidget(note_, 1);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        axis->setNumberFormat("eb");
        axis->setNumberPrecision(0);
    }
    plot_->xAxis->setLabel("q (nm⁻¹)");
    plot_->yAxis->setLabel(QString("Γ (%1)").arg(presenter_->tauUnit() == "s" ? "1/s" : "1/frame"));
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    refresh();
}

void XpcsRateView::refresh() {
    const XpcsRatePoints p = presenter_->rateVsQ();
    plot_->setVisible(p.note.empty());
    note_->setVisible(!p.note.empty());
    note_->setText(QString::fromStdString(p.note));
    plot_->clearPlottables();
    if (!p.note.empty()) return;
    auto* points = plot_->addGraph();
    points->setName("Γ of each bin");
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(31, 119, 180), 6));
    points->setData(qvec(p.q), qvec(p.rate));
    auto* errors = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    errors->removeFromLegend();
    errors->setDataPlottable(points);
    errors->setData(qvec(p.rateErr));
    if (!p.fitQ.empty()) {
        auto* fit = plot_->addGraph();
        const auto& v = p.powerLaw->values;
        const auto& e = p.powerLaw->errors;
        fit->setName(QString("Γ = A·q^n, n = %1").arg(withError(v[1], e[1])));
        fit->setPen(QPen(QColor(214, 39, 40), 2, Qt::DashLine));
        fit->setData(qvec(p.fitQ), qvec(p.fitRate));
    }
    plot_->rescaleAxes();
    plot_->xAxis->scaleRange(1.2);
    plot_->yAxis->scaleRange(1.5);
    plot_->replot();
}

QCustomPlot* makeTwoTimePlot(const xpcs::Result& result, std::int32_t label, QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumSize(220, 180);
    const std::vector<float>& map = result.twotime.at(label);
    const std::size_t frames = result.frames;
    const double step = frames > 1 ? result.tau[1] - result.tau[0] : 1.0;
    const QString unit = result.tauInSeconds ? "s" : "frames";
    auto* colorMap = new QCPColorMap(plot->xAxis, plot->yAxis);
    colorMap->data()->setSize(static_cast<int>(frames), static_cast<int>(frames));
    colorMap->data()->setRange(QCPRange(0, step * double(frames - 1)),
                               QCPRange(0, step * double(frames - 1)));
    for (std::size_t t1 = 0; t1 < frames; ++t1)
        for (std::size_t t2 = 0; t2 < frames; ++t2)
            colorMap->data()->setCell(int(t1), int(t2), map[t1 * frames + t2]);
    colorMap->setInterpolate(false);
    colorMap->setGradient(colormapGradient("viridis", QColor(200, 200, 200)));
    auto* scale = new QCPColorScale(plot);
    plot->plotLayout()->addElement(0, 1, scale);
    scale->axis()->setLabel("C(t₁, t₂)");
    colorMap->setColorScale(scale);
    colorMap->setDataRange(offDiagonalRange(map, frames));
    auto* group = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    plot->xAxis->setLabel(QString("t₁ (%1)").arg(unit));
    plot->yAxis->setLabel(QString("t₂ (%1)").arg(unit));
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(plot, QString("two-time correlation, label %1").arg(label)));
    plot->rescaleAxes();
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    return plot;
}

} // namespace clscope::ui
