#include "ui/xpcs/xpcs_views.hpp"

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

QVector<double> qvec(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

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
    table_ = makeTable({"label", "q (Å⁻¹)", "baseline", "β", "Γ (" + rateUnit + ")", "α", "β₂",
                        "Γ₂ (" + rateUnit + ")", "v (" + speedUnit + ")", "χ²_red", "AIC", "BIC",
                        "status"},
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
    layout->addWidget(note_);
    const bool seconds = presenter_->tauUnit() == "s";
    plot_->xAxis->setLabel("q² (Å⁻²)");
    plot_->yAxis->setLabel(QString("Γ (%1)").arg(seconds ? "1/s" : "1/frame"));
    // The legend in its own row under the axes, never over the points.
    auto* legendRow = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(0, 0, 0, 4));
    legendRow->addElement(0, 0, plot_->legend);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->legend->setVisible(true);
    refresh();
}

QString XpcsRateView::diffusionText(const XpcsRatePoints& p) const {
    if (!p.diffusion) return {};
    const bool seconds = presenter_->tauUnit() == "s";
    // q in Å⁻¹ (as clscope-cli writes /xpcs/q): D in Å²/(τ unit).
    const double d = p.diffusion->values[0], e = p.diffusion->errors[0];
    QString text = QString("D = %1 Å²/%2 (fit of Γ = D·q²)")
                       .arg(QString::fromStdString(valueWithError(d, e)), seconds ? "s" : "frame");
    if (const auto truth = presenter_->trueDiffusion(); truth && seconds)
        text += QString("; the data were made with D = %1 Å²/s (%2 %)")
                    .arg(*truth, 0, 'g', 4)
                    .arg(100 * (d - *truth) / *truth, 0, 'f', 1);
    return text;
}

void XpcsRateView::refresh() {
    const XpcsRatePoints p = presenter_->rateVsQ();
    plot_->setVisible(p.note.empty());
    QStringList notes;
    for (const std::string& n : {p.note, p.fitNote})
        if (!n.empty()) notes << QString::fromStdString(n);
    if (p.note.empty() && !diffusionText(p).isEmpty()) notes.prepend(diffusionText(p));
    note_->setText(notes.join("\n"));
    note_->setVisible(!notes.isEmpty());
    plot_->clearPlottables();
    if (!p.note.empty()) return;
    std::vector<double> q2;
    for (double q : p.q)
        q2.push_back(q * q);
    auto* points = plot_->addGraph();
    points->setName("Γ of each bin");
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(31, 119, 180), 6));
    points->setData(qvec(q2), qvec(p.rate));
    auto* errors = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    errors->removeFromLegend();
    errors->setDataPlottable(points);
    errors->setData(qvec(p.rateErr));
    const double q2max = *std::max_element(q2.begin(), q2.end());
    if (p.diffusion) {
        auto* line = plot_->addGraph();
        line->setName("Γ = D·q²");
        line->setPen(QPen(QColor(44, 160, 44), 2));
        line->setData(QVector<double>{0, q2max},
                      QVector<double>{0, p.diffusion->values[0] * q2max});
    }
    if (!p.fitQ.empty()) {
        auto* fit = plot_->addGraph();
        const auto& v = p.powerLaw->values;
        const auto& e = p.powerLaw->errors;
        fit->setName(QString("Γ = A·qⁿ, n = %1").arg(withError(v[1], e[1])));
        fit->setPen(QPen(QColor(214, 39, 40), 2, Qt::DashLine));
        std::vector<double> fitQ2;
        for (double q : p.fitQ)
            fitQ2.push_back(q * q);
        fit->setData(qvec(fitQ2), qvec(p.fitRate));
    }
    plot_->rescaleAxes();
    plot_->xAxis->setRange(0, q2max * 1.05);
    plot_->yAxis->setRangeLower(0);
    plot_->yAxis->scaleRange(1.1, plot_->yAxis->range().lower);
    plot_->replot();
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
