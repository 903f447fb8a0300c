#include "ui/xpcs/xpcs_rate_view.hpp"
#include "ui/base/q_unit.hpp"

#include "ui/results/plot_legend.hpp"
#include "ui/xpcs/xpcs_fit_quality.hpp"

#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

QVector<double> rateQVec(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

QString rateWithError(double value, double error) {
    return QString::fromStdString(valueWithError(value, error));
}

QString rateNumber(double v) {
    return QString::number(v, 'g', 4);
}

void logRateAxis(QCPAxis* axis, const QString& label) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    axis->setNumberFormat("eb"); // 10^k
    axis->setNumberPrecision(0);
    axis->setLabel(label);
}

} // namespace

XpcsRateView::XpcsRateView(std::shared_ptr<const XpcsPresenter> presenter, QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    law_ = new QLabel(this);
    law_->setWordWrap(true);
    law_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(220, 180);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setAlignment(Qt::AlignCenter);
    layout->addWidget(law_);
    layout->addWidget(plot_, 1);
    layout->addWidget(note_);
    logRateAxis(plot_->xAxis, "q (" + qUnit + ")");
    logRateAxis(plot_->yAxis, QString("Γ (1/%1)").arg(rateUnit()));
    placeLegendBelow(*plot_); // outside the data, whatever the points do
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    refresh();
}

QString XpcsRateView::rateUnit() const {
    return presenter_->tauUnit() == "s" ? "s" : "frame";
}

QString XpcsRateView::diffusionText(const XpcsRatePoints& p) const {
    if (!p.diffusion) return {};
    const bool seconds = presenter_->tauUnit() == "s";
    // q in Å⁻¹ (as clscope-cli writes /xpcs/q): D in Å²/(τ unit).
    const double d = p.diffusion->values[0], e = p.diffusion->errors[0];
    QString text = QString("D = %1 Å²/%2 (fit of Γ = D·q²)").arg(rateWithError(d, e), rateUnit());
    if (const auto truth = presenter_->trueDiffusion(); truth && seconds)
        text += QString("; the data were made with D = %1 Å²/s (%2 %)")
                    .arg(*truth, 0, 'g', 4)
                    .arg(100 * (d - *truth) / *truth, 0, 'f', 1);
    return text;
}

QString XpcsRateView::lawText(const XpcsRatePoints& p) const {
    const QString head = QString("<b>%1</b> law %2")
                             .arg(QString::fromStdString(xpcs::rateLawName(p.law)),
                                  QString::fromStdString(xpcs::rateLawFormula(p.law)));
    const std::size_t used =
        static_cast<std::size_t>(std::count(p.inRange.begin(), p.inRange.end(), true));
    const QString lo = std::isnan(p.range.lower) ? "0" : rateNumber(p.range.lower);
    const QString hi = std::isnan(p.range.upper) ? "∞" : rateNumber(p.range.upper);
    const QString range = p.range.bounded()
                              ? QString("q in [%1, %2] " + qUnit + ": %3 of %4 bins").arg(lo, hi)
                              : QString("all q: %3 of %4 bins");
    const QString bins = range.arg(used).arg(p.q.size());
    if (!p.lawFit) return head + " — " + bins + "<br>" + QString::fromStdString(p.lawNote);
    const auto& v = p.lawFit->values;
    const auto& e = p.lawFit->errors;
    const QString t = rateUnit();
    QString values;
    if (p.law == xpcs::RateLaw::Diffusion)
        values = QString("D = %1 Å²/%2").arg(rateWithError(v[0], e[0]), t);
    else if (p.law == xpcs::RateLaw::Ballistic)
        values = QString("v = %1 Å/%2").arg(rateWithError(v[0], e[0]), t);
    else
        values = QString("A = %1 Åⁿ/%2, n = %3")
                     .arg(rateWithError(v[0], e[0]), t, rateWithError(v[1], e[1]));
    values += QString(", χ²<sub>red</sub> = %1").arg(rateNumber(p.lawFit->chiSquaredReduced));
    const auto truth = presenter_->trueDiffusion();
    if (p.law == xpcs::RateLaw::Diffusion && truth && t == "s")
        values += QString(" (made with D = %1 Å²/s)").arg(rateNumber(*truth));
    return head + ": " + values + " — " + bins;
}

void XpcsRateView::plotPoints(const XpcsRatePoints& p, bool inRange) {
    std::vector<double> q, rate, err;
    for (std::size_t i = 0; i < p.q.size(); ++i)
        if (p.inRange[i] == inRange)
            q.push_back(p.q[i]), rate.push_back(p.rate[i]), err.push_back(p.rateErr[i]);
    if (q.empty()) return;
    const QColor colour = inRange ? QColor(31, 119, 180) : QColor(150, 150, 150);
    auto* points = plot_->addGraph();
    points->setName(inRange ? "Γ of each bin" : "Γ, outside the law's q range");
    points->setLineStyle(QCPGraph::lsNone);
    QCPScatterStyle style(QCPScatterStyle::ssCircle, colour, 7);
    if (inRange) style.setBrush(colour);
    points->setScatterStyle(style);
    points->setData(rateQVec(q), rateQVec(rate));
    auto* errors = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    errors->removeFromLegend();
    errors->setPen(QPen(colour));
    errors->setDataPlottable(points);
    errors->setData(rateQVec(err));
}

void XpcsRateView::plotLines(const XpcsRatePoints& p) {
    if (p.lawFit) {
        auto* line = plot_->addGraph();
        line->setName(
            QString::fromStdString(xpcs::rateLawName(p.law) + " " + xpcs::rateLawFormula(p.law)));
        line->setPen(QPen(QColor(214, 39, 40), 2));
        line->setData(rateQVec(p.lawQ), rateQVec(p.lawRate));
    }
    if (p.law == xpcs::RateLaw::Power || !p.powerLaw) return;
    auto* free = plot_->addGraph();
    free->setName(QString("free power law, n = %1")
                      .arg(rateWithError(p.powerLaw->values[1], p.powerLaw->errors[1])));
    free->setPen(QPen(QColor(120, 120, 120), 1, Qt::DashLine));
    free->setData(rateQVec(p.fitQ), rateQVec(p.fitRate));
}

// Dash-dotted orange verticals at the bounds of the law's q range.
void XpcsRateView::markRange(const XpcsRatePoints& p) {
    for (double bound : {p.range.lower, p.range.upper}) {
        if (!(bound > 0)) continue;
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(bound, 1);
        line->point2->setCoords(bound, 10);
        line->setPen(QPen(QColor(255, 127, 14), 1.5, Qt::DashDotLine)); // not the grid's dots
    }
}

void XpcsRateView::refresh() {
    const XpcsRatePoints p = presenter_->rateVsQ();
    plot_->setVisible(p.note.empty());
    law_->setVisible(p.note.empty());
    QStringList notes;
    for (const std::string& n : {p.note, p.fitNote})
        if (!n.empty()) notes << QString::fromStdString(n);
    if (p.note.empty() && p.law != xpcs::RateLaw::Diffusion && !diffusionText(p).isEmpty())
        notes.prepend(diffusionText(p));
    note_->setText(notes.join("\n"));
    note_->setVisible(!notes.isEmpty());
    plot_->clearPlottables();
    plot_->clearItems();
    if (!p.note.empty()) return;
    law_->setText(lawText(p));
    plotPoints(p, true);
    plotPoints(p, false);
    plotLines(p);
    markRange(p);
    plot_->rescaleAxes();
    plot_->xAxis->scaleRange(1.25);
    plot_->yAxis->scaleRange(1.4);
    fitLegendColumns(*plot_);
    plot_->replot();
}

} // namespace clscope::ui
