#include "ui/rbf/rbf_planes_plot.hpp"

#include "ui/image/colormaps.hpp"

#include <algorithm>
#include <cmath>

namespace clscope::ui {

namespace {

constexpr int sizeClasses = 5;
const QColor nanColour(208, 208, 208);

// A cyclic map for the phase (light – blue – dark – red – light, like matplotlib's twilight):
// −π and π get the same colour.
QCPColorGradient cyclicGradient() {
    QCPColorGradient g;
    g.setColorStops({{0.0, QColor("#e2d9e2")},
                     {0.25, QColor("#6b8bc2")},
                     {0.5, QColor("#301437")},
                     {0.75, QColor("#b5515c")},
                     {1.0, QColor("#e2d9e2")}});
    g.setLevelCount(350);
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(nanColour);
    return g;
}

void setUnitAxis(QCPAxis* axis, const QString& label, double halfCell) {
    axis->setLabel(label);
    axis->setRange(-halfCell, 1 + halfCell);
    auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    ticker->setTickStep(0.25);
    axis->setTicker(ticker);
}

// Class k holds |c| / max|c| in (k/5, (k+1)/5]: ring area ∝ the class's upper |c|.
double markerDiameter(int sizeClass) {
    return 11.0 * std::sqrt(double(sizeClass + 1) / sizeClasses);
}

} // namespace

RbfPlanesPlot::RbfPlanesPlot(QWidget* parent) : QCustomPlot(parent) {
    plotLayout()->clear();
    auto* group = new QCPMarginGroup(this);
    for (std::size_t p = 0; p < 3; ++p) {
        titles_[p] = new QCPTextElement(this, QString::fromStdString(planeTitle(p)),
                                        QFont(font().family(), 9, QFont::Bold));
        rects_[p] = new QCPAxisRect(this);
        rects_[p]->setMarginGroup(QCP::msTop | QCP::msBottom, group);
        const auto axes = planeAxes(p);
        setUnitAxis(rects_[p]->axis(QCPAxis::atBottom), QString::fromStdString(axes[0]), 0);
        setUnitAxis(rects_[p]->axis(QCPAxis::atLeft), QString::fromStdString(axes[1]), 0);
        maps_[p] =
            new QCPColorMap(rects_[p]->axis(QCPAxis::atBottom), rects_[p]->axis(QCPAxis::atLeft));
        maps_[p]->setInterpolate(false);
    }
    scale_ = new QCPColorScale(this);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale_->setBarWidth(14);
    for (QCPColorMap* m : maps_)
        m->setColorScale(scale_); // one scale: the three maps share range and gradient
    columns_ = 0;
    setColumns(3);
    profileLine_ = new QCPItemStraightLine(this);
    profileLine_->setPen(QPen(Qt::white, 1.5, Qt::DashLine));
    profileLine_->setVisible(false);
    setMinimumSize(360, 180); // fits the right-hand column (Results) too
}

// Row: titles in row 0, planes in row 1, the scale in column 3. Column: plane p's title in
// row 2p and its plane in row 2p + 1, the scale beside the middle plane.
void RbfPlanesPlot::setColumns(int columns) {
    columns = columns == 1 ? 1 : 3;
    if (columns == columns_) return;
    QCPLayoutGrid* grid = plotLayout();
    if (columns_ != 0) { // placed before: taken out (kept), the emptied cells removed
        grid->take(scale_);
        for (std::size_t p = 0; p < 3; ++p)
            grid->take(titles_[p]), grid->take(rects_[p]);
        grid->simplify();
    }
    const bool row = columns == 3;
    for (int p = 0; p < 3; ++p) {
        grid->addElement(row ? 0 : 2 * p, row ? p : 0, titles_[std::size_t(p)]);
        grid->addElement(row ? 1 : 2 * p + 1, row ? p : 0, rects_[std::size_t(p)]);
    }
    grid->addElement(row ? 1 : 3, row ? 3 : 1, scale_);
    for (int r = 0; r < grid->rowCount(); ++r)
        grid->setRowStretchFactor(r, (row ? r == 1 : r % 2 == 1) ? 1.0 : 0.001);
    for (int c = 0; c < grid->columnCount(); ++c)
        grid->setColumnStretchFactor(c, c == grid->columnCount() - 1 ? 0.001 : 1.0);
    columns_ = columns;
}

void RbfPlanesPlot::setImage(const RbfPlanesImage& image) {
    const int n = static_cast<int>(image.n);
    const double half = image.n > 1 ? 0.5 / double(image.n - 1) : 0.5;
    for (std::size_t p = 0; p < 3; ++p) {
        QCPColorMapData* data = maps_[p]->data();
        data->setSize(n, n);
        data->setRange(QCPRange(0, 1), QCPRange(0, 1)); // cell centres on the grid points
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                data->setCell(a, b, image.planes[p][std::size_t(a) * image.n + std::size_t(b)]);
        for (QCPAxis* axis : {rects_[p]->axis(QCPAxis::atBottom), rects_[p]->axis(QCPAxis::atLeft)})
            axis->setRange(-half, 1 + half);
    }
    scale_->setGradient(image.cyclic ? cyclicGradient() : colormapGradient("viridis", nanColour));
    scale_->setDataScaleType(image.log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (image.log)
        scale_->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        scale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    scale_->axis()->setNumberFormat("gb"); // 0.01 … 10, else 1·10⁻⁵
    scale_->axis()->setNumberPrecision(3);
    scale_->setDataRange(QCPRange(image.range.lower, image.range.upper));
    scale_->axis()->setLabel(QString::fromStdString(image.label));
}

void RbfPlanesPlot::setMarkers(const std::array<std::vector<RbfMarker>, 3>& markers,
                               double largest) {
    for (std::size_t p = 0; p < 3; ++p) {
        for (QCPGraph* g : markerGraphs_[p])
            removePlottable(g);
        markerGraphs_[p].clear();
        std::array<QVector<double>, sizeClasses> u, v;
        for (const RbfMarker& m : markers[p]) {
            const double share = largest > 0 ? m.weight / largest : 1.0;
            const int k = std::clamp(int(std::ceil(share * sizeClasses)), 1, sizeClasses) - 1;
            u[std::size_t(k)] << m.u, v[std::size_t(k)] << m.v;
        }
        for (int k = 0; k < sizeClasses; ++k) {
            if (u[std::size_t(k)].isEmpty()) continue;
            // Open rings, white inside a thin dark edge: visible on dark and bright colours
            // without hiding the field under them.
            for (const QPen& pen : {QPen(QColor(0, 0, 0, 160), 2.6), QPen(Qt::white, 1.2)}) {
                auto* g = new QCPGraph(rects_[p]->axis(QCPAxis::atBottom),
                                       rects_[p]->axis(QCPAxis::atLeft));
                g->setLineStyle(QCPGraph::lsNone);
                g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, pen, Qt::NoBrush,
                                                   markerDiameter(k)));
                g->setData(u[std::size_t(k)], v[std::size_t(k)]);
                markerGraphs_[p].push_back(g);
            }
        }
    }
}

int RbfPlanesPlot::markerCount(std::size_t plane) const {
    int count = 0;
    for (QCPGraph* g : markerGraphs_[plane])
        count += g->dataCount();
    return count / 2; // each marker is a dark and a white ring
}

void RbfPlanesPlot::setProfileLine(int plane, bool alongHorizontal, double coordinate) {
    profileLine_->setVisible(plane >= 0 && plane < 3);
    if (!profileLine_->visible()) return;
    QCPAxisRect* rect = rects_[std::size_t(plane)];
    profileLine_->setClipAxisRect(rect);
    for (QCPItemPosition* pos : {profileLine_->point1, profileLine_->point2})
        pos->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    if (alongHorizontal) {
        profileLine_->point1->setCoords(0, coordinate);
        profileLine_->point2->setCoords(1, coordinate);
    } else {
        profileLine_->point1->setCoords(coordinate, 0);
        profileLine_->point2->setCoords(coordinate, 1);
    }
}

int RbfPlanesPlot::squareHeight() const {
    const QRect r = rects_[0]->rect();
    return height() + (columns_ == 3 ? 1 : 3) * (r.width() - r.height());
}

} // namespace clscope::ui
