#include "ui/cluster/cluster_overview.hpp"

#include "ui/cluster/cluster_layout.hpp"
#include "ui/image/colormaps.hpp"

#include <QLabel>
#include <QVBoxLayout>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

namespace clscope::ui {

namespace layout = clusterlayout;

namespace {

const QColor emptyColor(215, 215, 215); // log scale: modules with 0

// Ticks on whole numbers only (counts); at most about `count` of them.
QSharedPointer<QCPAxisTicker> integerTicker(int count = 6) {
    auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    ticker->setTickCount(count);
    return ticker;
}

// Forward grid: one tick per disk in the middle of its two panel columns.
QSharedPointer<QCPAxisTicker> diskTicker() {
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int slot = 0; slot < layout::disks; ++slot)
        ticker->addTick(
            slot * layout::panels + 1.5,
            QString::fromStdString(layout::columnText(layout::forwardGrid, slot * layout::panels))
                .section('/', 0, 0));
    return ticker;
}

void styleAxes(QCPAxisRect* rect, int grid) {
    QCPAxis *x = rect->axis(QCPAxis::atBottom), *y = rect->axis(QCPAxis::atLeft);
    const bool forward = grid == layout::forwardGrid;
    x->setLabel(forward ? "disk (panels 1, 2)" : "module along z");
    y->setLabel(forward ? "blade (≤ 22: inner ring)" : "ladder");
    x->setTicker(forward ? diskTicker() : integerTicker(4));
    y->setTicker(integerTicker(8));
    x->setRange(0.5, layout::columns(grid) + 0.5);
    y->setRange(0.5, layout::rows(grid) + 0.5);
    x->grid()->setVisible(false);
    y->grid()->setVisible(false);
}

} // namespace

ClusterOverview::ClusterOverview(QWidget* parent) : QWidget(parent) {
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(260);
    plot_->setMinimumWidth(400); // not the sum of the five grids: the window fits 1600 px
    readout_ = new QLabel("click a module to open its map", this);
    box->addWidget(plot_, 1);
    box->addWidget(readout_);
    buildGrids();
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const int module = moduleAtPixel(event->position());
        if (module >= 0) emit moduleClicked(module);
    });
    connect(plot_, &QCustomPlot::mouseMove, this, &ClusterOverview::onMouseMove);
}

// Row 0: grid titles; row 1: the five grids and the colour bar.
void ClusterOverview::buildGrids() {
    QCPLayoutGrid* grid = plot_->plotLayout();
    grid->clear();
    auto* margins = new QCPMarginGroup(plot_);
    QFont titleFont = font();
    titleFont.setBold(true);
    for (int g = 0; g < layout::gridCount; ++g) {
        auto* rect = new QCPAxisRect(plot_);
        grid->addElement(
            0, g,
            new QCPTextElement(plot_, QString::fromStdString(layout::gridTitle(g)), titleFont));
        grid->addElement(1, g, rect);
        styleAxes(rect, g);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
        auto* map = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        map->setInterpolate(false);
        map->setTightBoundary(false);
        map->data()->setSize(layout::columns(g), layout::rows(g));
        map->data()->setRange(QCPRange(1, layout::columns(g)), QCPRange(1, layout::rows(g)));
        rects_.push_back(rect);
        maps_.push_back(map);
    }
    // Inner and outer rings of the forward disks.
    QCPAxisRect* forward = rects_[layout::forwardGrid];
    auto* ring = new QCPItemStraightLine(plot_);
    ring->setClipAxisRect(forward);
    for (QCPItemPosition* p : {ring->point1, ring->point2})
        p->setAxes(forward->axis(QCPAxis::atBottom), forward->axis(QCPAxis::atLeft));
    ring->point1->setCoords(0, layout::innerBlades + 0.5);
    ring->point2->setCoords(1, layout::innerBlades + 0.5);
    ring->setPen(QPen(Qt::white, 2, Qt::DashLine));
    scale_ = new QCPColorScale(plot_);
    scale_->setType(QCPAxis::atRight);
    scale_->setBarWidth(14);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    grid->addElement(1, layout::gridCount, scale_);
    for (QCPColorMap* map : maps_) {
        map->setColorScale(scale_);
        map->setGradient(colormapGradient("viridis", emptyColor));
    }
    grid->setRowStretchFactor(0, 0.01);
    for (int g = 0; g < layout::gridCount; ++g)
        grid->setColumnStretchFactor(g, g == layout::forwardGrid ? 1.5 : 1.0);
    grid->setColumnStretchFactor(layout::gridCount, 0.01);
    frame_ = new QCPItemRect(plot_);
    frame_->setPen(QPen(Qt::red, 2.5));
    frame_->setVisible(false);
}

void ClusterOverview::setValues(std::vector<double> perModule, const QString& what) {
    values_ = std::move(perModule);
    what_ = what;
    redraw();
}

void ClusterOverview::setLogScale(bool log) {
    log_ = log;
    redraw();
}

double ClusterOverview::cellValue(int module) const {
    const auto p = layout::placeOf(module);
    if (!p) return std::numeric_limits<double>::quiet_NaN();
    return maps_[p->grid]->data()->cell(p->column, p->row);
}

// Fill the grids; log scale: 0 is NaN (grey) and the range starts at the smallest count > 0.
void ClusterOverview::redraw() {
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (int module = 0; module < layout::phase1Modules; ++module) {
        const double v = module < static_cast<int>(values_.size()) ? values_[module] : 0.0;
        const auto p = layout::placeOf(module);
        const bool hidden = log_ && v <= 0;
        maps_[p->grid]->data()->setCell(p->column, p->row,
                                        hidden ? std::numeric_limits<double>::quiet_NaN() : v);
        if (v > 0) low = std::min(low, v);
        high = std::max(high, v);
    }
    QCPAxis* axis = scale_->axis();
    scale_->setDataScaleType(log_ ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log_)
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        axis->setTicker(integerTicker());
    axis->setNumberFormat("g");
    axis->setLabel(what_ + (log_ ? " (log; grey: none)" : ""));
    const double top = std::max(high, 1.0), bottom = std::isfinite(low) ? low : 1.0;
    const QCPRange range = log_ ? QCPRange(bottom, std::max(top, bottom * 2)) : QCPRange(0, top);
    for (QCPColorMap* map : maps_)
        map->setDataRange(range);
    plot_->replot();
}

void ClusterOverview::setSelectedModule(int module) {
    selected_ = module;
    const auto p = layout::placeOf(module);
    frame_->setVisible(p.has_value());
    if (p) {
        QCPAxisRect* rect = rects_[p->grid];
        frame_->setClipAxisRect(rect);
        for (QCPItemPosition* corner : {frame_->topLeft, frame_->bottomRight})
            corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        frame_->topLeft->setCoords(p->column + 0.5, p->row + 1.5);
        frame_->bottomRight->setCoords(p->column + 1.5, p->row + 0.5);
    }
    plot_->replot();
}

int ClusterOverview::moduleAtPixel(const QPointF& pos) const {
    for (int g = 0; g < layout::gridCount; ++g) {
        QCPAxisRect* rect = rects_[g];
        if (!rect->rect().contains(pos.toPoint())) continue;
        const double x = rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
        const double y = rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y());
        return layout::moduleAt(g, static_cast<int>(std::lround(x)) - 1,
                                static_cast<int>(std::lround(y)) - 1);
    }
    return -1;
}

QPoint ClusterOverview::cellCentre(int module) const {
    const auto p = layout::placeOf(module);
    if (!p) return {-1, -1};
    QCPAxisRect* rect = rects_[p->grid];
    const double x = rect->axis(QCPAxis::atBottom)->coordToPixel(p->column + 1);
    const double y = rect->axis(QCPAxis::atLeft)->coordToPixel(p->row + 1);
    return QPointF(x, y).toPoint();
}

void ClusterOverview::onMouseMove(QMouseEvent* event) {
    const int module = moduleAtPixel(event->position());
    if (module < 0) return;
    const double v = module < static_cast<int>(values_.size()) ? values_[module] : 0.0;
    readout_->setText(QString("%1 — %2: %3")
                          .arg(QString::fromStdString(layout::moduleName(module)), what_)
                          .arg(v));
}

} // namespace clscope::ui
