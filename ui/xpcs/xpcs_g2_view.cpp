#include "ui/xpcs/xpcs_g2_view.hpp"

#include "ui/image/colormaps.hpp"
#include "ui/results/plot_legend.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {
QVector<double> qvec(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

// Error bars of `data` in `color` at `alpha`, not in the legend.
QCPErrorBars* addErrorBars(QCustomPlot& plot, QCPGraph* data, const std::vector<double>& err,
                           QColor color, int alpha) {
    auto* errors = new QCPErrorBars(plot.xAxis, plot.yAxis);
    errors->removeFromLegend();
    errors->setDataPlottable(data);
    errors->setData(qvec(err));
    color.setAlpha(alpha);
    errors->setPen(QPen(color, 1));
    return errors;
}
} // namespace

QColor seriesColor(std::size_t rank) {
    const auto& palette = labelPalette();
    return palette[static_cast<int>(rank % static_cast<std::size_t>(palette.size()))];
}

XpcsG2View::XpcsG2View(std::shared_ptr<const XpcsPresenter> presenter, QString title,
                       QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)), fullTitle_(std::move(title)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    plot_ = new QCustomPlot(splitter);
    plot_->setMinimumSize(220, 180); // not the title's width: the dock may be narrow
    plot_->plotLayout()->insertRow(0);
    title_ = new QCPTextElement(plot_, fullTitle_, QFont(font().family(), 9));
    plot_->plotLayout()->addElement(0, 0, title_);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    plot_->xAxis->setNumberFormat("eb");
    plot_->xAxis->setNumberPrecision(0);
    plot_->xAxis->setLabel(
        QString("lag time τ (%1)").arg(QString::fromStdString(presenter_->tauUnit())));
    plot_->yAxis->setLabel("g₂(τ)");
    placeLegendBelow(*plot_); // outside the data, whatever the curves do
    plot_->installEventFilter(this);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    auto* side = new QWidget(splitter);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(2, 2, 2, 2);
    sideLayout->addWidget(new QLabel("Bins", side));
    bins_ = new QListWidget(side);
    bins_->setToolTip("Check the q bins to plot");
    sideLayout->addWidget(bins_, 1);
    logBin_ = new QCheckBox("log-bin τ", side);
    logBin_->setChecked(true);
    logBin_->setToolTip(
        "Show g2 averaged in 12 log-spaced τ bins per decade (weighted by 1/err²);\n"
        "unchecked: every lag. Fits always use every lag.");
    sideLayout->addWidget(logBin_);
    auto* defaults = new QPushButton("Default", side);
    defaults->setToolTip("About five bins spread over the range");
    sideLayout->addWidget(defaults);
    overlay_ = new QPushButton("Overlay…", side);
    overlay_->setToolTip("Draw another result's g2 beside this run's: a clscope result, an APS "
                         "8-ID-I / boost_corr file or a NeXus NXxpcs file of the same bins");
    sideLayout->addWidget(overlay_);
    splitter->addWidget(plot_);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 1);
    layout->addWidget(splitter);
    // The list as wide as its longest entry ("label 12, q = 0.258 Å⁻¹"; 110 px cut it) with its
    // check box, frame and scroll bar, within 240 px so that a narrow dock keeps its plot; each
    // entry's tooltip says it whole.
    splitter->setSizes({600, std::min(fillBinList() + 64, 240)});
    connect(bins_, &QListWidget::itemChanged, this, [this] {
        refresh();
        emit selectionChanged();
    });
    connect(logBin_, &QCheckBox::toggled, this, [this] { refresh(); });
    connect(defaults, &QPushButton::clicked, this,
            [this] { setSelectedBins(presenter_->defaultSelection()); });
    connect(overlay_, &QPushButton::clicked, this,
            [this] { emit overlayRequested(presenter_->overlay().has_value()); });
    setSelectedBins(presenter_->defaultSelection());
}

int XpcsG2View::fillBinList() {
    const QSignalBlocker block(bins_);
    bins_->clear();
    int widest = 0;
    for (std::size_t b = 0; b < presenter_->binCount(); ++b) {
        const QString text = QString::fromStdString(presenter_->legendText(b));
        auto* item = new QListWidgetItem(text, bins_);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(text);
        widest = std::max(widest, bins_->fontMetrics().horizontalAdvance(text));
    }
    return widest;
}

std::vector<std::size_t> XpcsG2View::selectedBins() const {
    std::vector<std::size_t> out;
    for (int i = 0; i < bins_->count(); ++i)
        if (bins_->item(i)->checkState() == Qt::Checked) out.push_back(static_cast<std::size_t>(i));
    return out;
}

void XpcsG2View::setSelectedBins(const std::vector<std::size_t>& bins) {
    {
        const QSignalBlocker block(bins_);
        for (int i = 0; i < bins_->count(); ++i) {
            const bool on =
                std::find(bins.begin(), bins.end(), static_cast<std::size_t>(i)) != bins.end();
            bins_->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        }
    }
    refresh();
    emit selectionChanged();
}

bool XpcsG2View::logBinning() const {
    return logBin_->isChecked() && presenter_->levelStarts().empty();
}

// Multi-tau: a dotted line where each level starts, labelled at the foot of the axis rect.
void XpcsG2View::drawLevels() {
    plot_->clearItems();
    const auto starts = presenter_->levelStarts();
    logBin_->setEnabled(starts.empty());
    for (const auto& [level, tau] : starts) {
        auto* line = new QCPItemStraightLine(plot_);
        line->setPen(QPen(QColor(140, 140, 140), 1, Qt::DotLine));
        line->point1->setCoords(tau, 0);
        line->point2->setCoords(tau, 1);
        auto* text = new QCPItemText(plot_);
        text->position->setTypeX(QCPItemPosition::ptPlotCoords);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(tau, 1.0);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        text->setText(QString("L%1").arg(level));
        text->setColor(QColor(110, 110, 110));
        text->setFont(QFont(font().family(), 7));
    }
}

void XpcsG2View::refresh() {
    plot_->clearPlottables();
    drawLevels();
    bool anyFit = false;
    std::size_t rank = 0;
    const QSignalBlocker block(bins_);
    for (int i = 0; i < bins_->count(); ++i) {
        QListWidgetItem* item = bins_->item(i);
        if (item->checkState() != Qt::Checked) {
            item->setIcon(QIcon());
            continue;
        }
        const QColor color = seriesColor(rank++);
        const XpcsSeries series = shown(presenter_->series(static_cast<std::size_t>(i)));
        drawSeries(series, color);
        if (const auto other = presenter_->overlaySeries(static_cast<std::size_t>(i)))
            drawOverlay(shown(*other), color);
        anyFit = anyFit || !series.fitTau.empty();
        QPixmap swatch(10, 10);
        swatch.fill(color);
        item->setIcon(QIcon(swatch));
    }
    const auto& overlay = presenter_->overlay();
    overlay_->setText(overlay ? "Remove overlay" : "Overlay…");
    if (overlay) { // one legend entry for the hollow markers
        auto* key = plot_->addGraph();
        key->setLineStyle(QCPGraph::lsNone);
        key->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, Qt::darkGray, 7));
        key->setName(QString::fromStdString(overlay->deviceLabel));
    }
    if (anyFit) {
        // One legend entry that explains the dashed curves.
        auto* key = plot_->addGraph();
        key->setPen(QPen(Qt::darkGray, 1.5, Qt::DashLine));
        key->setName("fits: " +
                     QString::fromStdString(xpcs::shapeName(presenter_->fitOptions().shape)));
    }
    rescaleAxes();
    fitLegendColumns(*plot_);
    plot_->replot();
}

bool XpcsG2View::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Resize) {
        fitLegendColumns(*plot_);
        fitTitle();
    }
    return QWidget::eventFilter(watched, event);
}

// The title cut in the middle to the plot's width (a device's name is long: at 1280x800 the
// title ran past both edges of the plot).
void XpcsG2View::fitTitle() {
    const int room = std::max(60, plot_->width() - 12);
    title_->setText(QFontMetrics(title_->font()).elidedText(fullTitle_, Qt::ElideMiddle, room));
}

// Data as markers with error bars; the fit dashed in the same colour, not in the legend.
void XpcsG2View::drawSeries(const XpcsSeries& series, const QColor& color) {
    auto* data = plot_->addGraph();
    data->setName(QString::fromStdString(series.legend));
    data->setLineStyle(QCPGraph::lsNone);
    data->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, logBinning() ? 6 : 4));
    data->setPen(QPen(color));
    data->setData(qvec(series.tau), qvec(series.g2), true);
    addErrorBars(*plot_, data, series.err, color, 110)->setWhiskerWidth(3);
    if (series.fitTau.empty()) return;
    auto* fit = plot_->addGraph();
    fit->removeFromLegend();
    fit->setPen(QPen(color.darker(115), 2, Qt::DashLine));
    fit->setData(qvec(series.fitTau), qvec(series.fitG2), true);
}

XpcsSeries XpcsG2View::shown(const XpcsSeries& series) const {
    return logBinning() ? logBinned(series) : series;
}

void XpcsG2View::drawOverlay(const XpcsSeries& series, const QColor& color) {
    auto* data = plot_->addGraph();
    data->removeFromLegend();
    data->setLineStyle(QCPGraph::lsNone);
    data->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, 7));
    data->setData(qvec(series.tau), qvec(series.g2), true);
    addErrorBars(*plot_, data, series.err, color, 60);
}

// τ over the positive lags; g2 over the 1st to 99th percentile of the plotted values (the
// last lags average few frame pairs and scatter widely).
void XpcsG2View::rescaleAxes() {
    std::vector<double> values;
    double tauLo = INFINITY, tauHi = -INFINITY;
    for (std::size_t bin : selectedBins()) {
        const XpcsSeries s = shown(presenter_->series(bin));
        values.insert(values.end(), s.g2.begin(), s.g2.end());
        values.insert(values.end(), s.fitG2.begin(), s.fitG2.end());
        for (double tau : s.tau)
            tauLo = std::min(tauLo, tau), tauHi = std::max(tauHi, tau);
    }
    double lo = 0.9, hi = 1.1;
    if (!values.empty()) {
        std::sort(values.begin(), values.end());
        lo = values[values.size() / 100];
        hi = values[values.size() - 1 - values.size() / 100];
    } else {
        tauLo = 1, tauHi = 10;
    }
    const double pad = std::max(0.08 * (hi - lo), 1e-3);
    plot_->yAxis->setRange(lo - pad, hi + pad);
    plot_->xAxis->setRange(tauLo / 1.3, tauHi * 1.3);
}

} // namespace clscope::ui
