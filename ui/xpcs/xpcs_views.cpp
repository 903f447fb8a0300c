#include "ui/xpcs/xpcs_views.hpp"
#include "ui/base/q_unit.hpp"

#include "ui/image/colormaps.hpp"
#include "ui/xpcs/xpcs_fit_quality.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// "value ± error" with the digits the error justifies; "(fixed)" for a parameter held fixed.
QString withError(double value, double error, bool fixed = false) {
    if (fixed && std::isfinite(value)) return QString::number(value, 'g', 4) + " (fixed)";
    return QString::fromStdString(valueWithError(value, error));
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

// "ok", or "⚠ bad (χ²_red 28.5): β at its bound".
QString statusText(const XpcsBinFit& f) {
    if (f.trusted()) return "ok";
    QString text = "⚠ " + QString::fromStdString(gradeName(f.grade));
    if (f.grade == FitGrade::Poor || f.grade == FitGrade::Bad || f.grade == FitGrade::Overfit)
        text += QString(" (χ²_red %1)").arg(f.fit.chiSquaredReduced, 0, 'g', 3);
    return f.concerns.empty() ? text : text + ": " + QString::fromStdString(f.concerns);
}

} // namespace

namespace {

// The Fits table's parameter columns start here, in xpcs::G2Param order.
constexpr int firstParamColumn = 2;

// "(fixed)" for a parameter held fixed in this model.
bool heldFixed(const xpcs::FitOptions& o, std::size_t param) {
    if (param == xpcs::ParamBaseline) return o.baseline.fixed;
    if (param == xpcs::ParamBeta) return o.beta.fixed;
    return param == xpcs::ParamAlpha && o.alpha.fixed;
}

QString number(double value) {
    return std::isfinite(value) ? QString::number(value, 'g', 4) : QString("—");
}

} // namespace

XpcsFitsView::XpcsFitsView(std::shared_ptr<const XpcsPresenter> presenter, QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    const bool seconds = presenter_->tauUnit() == "s";
    const QString rateUnit = seconds ? "1/s" : "1/frame";
    const QString speedUnit = seconds ? "Å/s" : "Å/frame";
    table_ = makeTable({"label", "q (" + qUnit + ")", "baseline", "β", "Γ (" + rateUnit + ")", "α",
                        "β₂", "Γ₂ (" + rateUnit + ")", "v (" + speedUnit + ")", "χ²_red", "AIC",
                        "BIC", "status"},
                       this);
    const QString legend = QString::fromStdString(fitGradeLegend());
    table_->horizontalHeaderItem(table_->columnCount() - 1)->setToolTip(legend);
    table_->horizontalHeaderItem(10)->setToolTip("χ² + 2k (k free parameters): compare models "
                                                 "on the same bin, lower is better");
    table_->horizontalHeaderItem(11)->setToolTip("χ² + k·ln n (n points): compare models on the "
                                                 "same bin, lower is better");
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    layout->addWidget(table_, 1);
    layout->addWidget(note_);
    refresh();
}

// The columns of the model's parameters (others hidden) and its formula in the note.
void XpcsFitsView::showModel() {
    const xpcs::G2Shape shape = presenter_->fitOptions().shape;
    for (std::size_t p = 0; p < xpcs::G2ParamCount; ++p)
        table_->setColumnHidden(firstParamColumn + static_cast<int>(p),
                                !xpcs::shapeUses(shape, static_cast<xpcs::G2Param>(p)));
    note_->setText("g₂(τ) = " + QString::fromStdString(xpcs::shapeFormula(shape)) + " (" +
                   QString::fromStdString(xpcs::shapeName(shape)) +
                   "), weighted by 1/g2_err². Status — " +
                   QString::fromStdString(fitGradeLegend()));
}

QStringList XpcsFitsView::cells(const XpcsBinFit& f) const {
    QStringList cells{QString::number(f.label), f.q ? QString::number(*f.q, 'g', 4) : "—"};
    const xpcs::FitOptions& o = presenter_->fitOptions();
    for (std::size_t p = 0; p < xpcs::G2ParamCount; ++p)
        cells << (f.ok() ? withError(f.fit.values[p], f.fit.errors[p], heldFixed(o, p))
                         : QString("—"));
    for (double v : {f.fit.chiSquaredReduced, f.fit.aic, f.fit.bic})
        cells << (f.fit.converged ? number(v) : QString("—"));
    cells << statusText(f);
    return cells;
}

void XpcsFitsView::refresh() {
    showModel();
    const auto& fits = presenter_->fits();
    table_->setRowCount(static_cast<int>(fits.size()));
    for (int row = 0; row < static_cast<int>(fits.size()); ++row) {
        const XpcsBinFit& f = fits[static_cast<std::size_t>(row)];
        const QStringList rowCells = cells(f);
        setRow(table_, row, rowCells);
        if (!f.trusted())
            for (int c = 0; c < rowCells.size(); ++c)
                table_->item(row, c)->setBackground(QColor(255, 236, 200));
    }
}

std::size_t twoTimeFramesPerCell(const xpcs::Result& result) {
    return result.multitau ? std::max<std::size_t>(result.twotimeBin, 1) : 1;
}

QCustomPlot* makeTwoTimePlot(const xpcs::Result& result, std::int32_t label, QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumSize(220, 180);
    const std::vector<float>& map = result.twotime.at(label);
    // The map is N × N (N = T, or T / twotime_bin for multi-tau, whose `frames` counts lags).
    const auto frames = static_cast<std::size_t>(std::llround(std::sqrt(double(map.size()))));
    const double frameStep = result.tau.size() > 1 ? result.tau[1] - result.tau[0] : 1.0;
    const double step = frameStep * double(twoTimeFramesPerCell(result));
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
