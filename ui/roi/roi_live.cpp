#include "ui/roi/roi_live.hpp"

#include "ui/base/qstring.hpp"
#include "ui/roi/roi_view.hpp"

namespace clscope::ui {

namespace {

const PixelMask* maskOf(const LiveContext& c) {
    return c.mask.bad.empty() ? nullptr : &c.mask;
}

} // namespace

RoiLive::RoiLive(std::vector<roi::Region> regions, const LiveContext& c)
    : series_(std::move(regions), c.height, c.width, maskOf(c)) {}

std::vector<LiveQuantity> RoiLive::quantities() const {
    std::vector<LiveQuantity> out;
    for (const roi::Region& r : series_.regions())
        out.push_back({"ROI " + q(r.name), "ROI mean (counts/px)", false});
    return out;
}

std::vector<double> RoiLive::analyse(const Array& frame, std::size_t) {
    series_.add(frame);
    std::vector<double> means;
    for (std::size_t r = 0; r < series_.regions().size(); ++r)
        means.push_back(series_.mean(r, series_.frames() - 1));
    return means;
}

void RoiLive::draw(QCustomPlot* image, std::size_t) {
    if (!outlines_.empty() && outlines_.front()) return;
    outlines_.clear();
    const QPen pen(QColor(255, 255, 255, 220), 1.2, Qt::DashLine);
    const auto box = [&](QCPAbstractItem* item, QCPItemPosition* a, QCPItemPosition* b,
                         const QRectF& r) {
        a->setCoords(r.left(), r.top()), b->setCoords(r.right(), r.bottom());
        item->setClipToAxisRect(true);
        outlines_.push_back(item);
    };
    for (const roi::Region& g : series_.regions()) {
        if (g.kind == roi::Region::Kind::Rect) {
            auto* rect = new QCPItemRect(image);
            rect->setPen(pen);
            box(rect, rect->topLeft, rect->bottomRight,
                QRectF(QPointF(g.a, g.b), QPointF(g.c, g.d)));
            continue;
        }
        for (const double radius : {g.c, g.d}) {
            auto* circle = new QCPItemEllipse(image);
            circle->setPen(pen);
            box(circle, circle->topLeft, circle->bottomRight,
                QRectF(g.a - radius, g.b - radius, 2 * radius, 2 * radius));
        }
    }
}

QString RoiLive::settings() const {
    QStringList regions; // their numbers are in the ROI dock: the names keep the line short
    for (const roi::Region& r : series_.regions())
        regions << q(r.name);
    return "ROI: " + regions.join(", ");
}

std::unique_ptr<LiveFrameAnalysis> makeRoiLive(const LiveContext& c) {
    std::vector<roi::Region> regions = RoiView::savedRegions();
    if (regions.empty() || c.height == 0 || c.width == 0) return nullptr;
    try {
        return std::make_unique<RoiLive>(std::move(regions), c);
    } catch (const std::exception&) { // a start message's mask of another size: no ROI curves
        return nullptr;
    }
}

} // namespace clscope::ui
