#include "ui/rbf/rbf_views.hpp"
#include "ui/base/qstring.hpp"

#include <QCoreApplication>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

namespace clscope::ui {

namespace {

QLabel* wrappedLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

RbfPlanesImage planesImage(const RbfPresenter& p) {
    RbfPlanesImage image;
    image.n = p.gridSize();
    for (std::size_t plane = 0; plane < 3; ++plane)
        image.planes[plane] = p.planeValues(plane);
    image.range = p.colourRange();
    image.cyclic = p.display() == RbfDisplay::Phase;
    image.log = p.scale() == RbfScale::Log && !image.cyclic;
    image.label = p.colourLabel();
    return image;
}

RbfPlanesView::RbfPlanesView(std::shared_ptr<const RbfPresenter> presenter, const QString& title,
                             QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    title_ = wrappedLabel(this);
    title_->setText(title);
    planes_ = new RbfPlanesPlot(this);
    profile_ = new QCustomPlot(this);
    profile_->setMinimumSize(240, 150);
    profile_->plotLayout()->insertRow(0);
    profile_->plotLayout()->addElement(0, 0, new QCPTextElement(profile_, ""));
    caption_ = wrappedLabel(this);
    layout->addWidget(title_);
    layout->addWidget(planes_);
    layout->addWidget(profile_, 1);
    layout->addWidget(caption_);
}

void RbfPlanesView::refresh(const RbfProfileChoice& profile) {
    const RbfPresenter& p = *presenter_;
    if (p.empty()) return;
    planes_->setImage(planesImage(p));
    planes_->setMarkers({p.markers(0), p.markers(1), p.markers(2)}, p.largestWeight());
    drawProfile(profile);
    QString caption = QString("○ the %1 sources projected onto each plane, ring area ∝ |c| "
                              "(largest |c| = %2); dashed line: the profile below.")
                          .arg(p.markers(0).size())
                          .arg(p.largestWeight(), 0, 'g', 3);
    if (!p.note().empty()) caption += " " + q(p.note()) + " (grey).";
    caption_->setText(caption);
    planes_->replot();
    keepSquare();
}

void RbfPlanesView::drawProfile(const RbfProfileChoice& choice) {
    const RbfPresenter& p = *presenter_;
    const std::size_t plane = std::size_t(std::clamp(choice.plane, 0, 2));
    const std::size_t index = std::min(choice.index, p.gridSize() - 1);
    const RbfProfile line = p.profile(plane, choice.alongHorizontal, index);
    planes_->setProfileLine(int(plane), choice.alongHorizontal, line.fixedCoordinate);
    profile_->clearGraphs();
    auto* graph = profile_->addGraph();
    graph->setData(QVector<double>(line.coordinate.begin(), line.coordinate.end()),
                   QVector<double>(line.value.begin(), line.value.end()), true);
    graph->setPen(QPen(QColor(31, 119, 180), 1.5));
    const bool log = planesImage(p).log;
    profile_->yAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        profile_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        profile_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    profile_->yAxis->setNumberFormat("gb");
    profile_->yAxis->setNumberPrecision(3);
    profile_->xAxis->setLabel(q(line.axis));
    profile_->yAxis->setLabel(q(p.colourLabel()));
    if (auto* title = qobject_cast<QCPTextElement*>(profile_->plotLayout()->element(0, 0)))
        title->setText(QString("profile along %1 through the %2 at %3 = %4")
                           .arg(q(line.axis), q(planeTitle(plane)), q(line.fixedAxis))
                           .arg(line.fixedCoordinate, 0, 'g', 4));
    profile_->xAxis->setRange(0, 1);
    bool found = false;
    const QCPRange values = graph->data()->valueRange(found);
    if (found && values.size() > 0)
        profile_->yAxis->setRange(values.lower, values.upper), profile_->yAxis->scaleRange(1.08);
    else if (found)
        profile_->yAxis->setRange(values.lower - 1, values.upper + 1);
    if (log && found) profile_->yAxis->setRange(values.lower / 1.2, values.upper * 1.2);
    profile_->replot();
}

QString RbfPlanesView::captionText() const {
    return caption_->text();
}

void RbfPlanesView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    QTimer::singleShot(0, this, [this] { keepSquare(); });
}

// The planes are unit squares: the plot's height follows its width (within what fits).
void RbfPlanesView::keepSquare() {
    const int wanted = planes_->squareHeight();
    const int most = std::max(200, height() - profile_->minimumHeight() - 60);
    const int h = std::clamp(wanted, 200, most);
    if (std::abs(h - planes_->height()) > 2) planes_->setFixedHeight(h);
}

RbfDifferenceView::RbfDifferenceView(const rbf::Result& a, const std::string& labelA,
                                     const rbf::Result& b, const std::string& labelB,
                                     QWidget* parent)
    : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* caption = wrappedLabel(this);
    try {
        difference_ = planeDifference(a, b);
    } catch (const std::exception& e) {
        caption->setText(e.what());
        layout->addWidget(caption);
        return;
    }
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Always there: a bar that came and went would change the width, the planes' height with
    // it, and the bar again.
    scroll_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    planes_ = new RbfPlanesPlot(scroll_);
    scroll_->setWidget(planes_);
    scroll_->viewport()->installEventFilter(this);
    RbfPlanesImage image;
    image.n = difference_.n;
    image.planes = difference_.planes;
    image.range = {0, difference_.largest > 0 ? difference_.largest : 1.0};
    image.label = "|f − f_ref|";
    planes_->setImage(image);
    planes_->replot();
    const double relative =
        difference_.largestReference > 0 ? difference_.largest / difference_.largestReference : 0;
    caption->setText(QString("|f − f_ref| per plane, f = %1, f_ref = %2; max |f − f_ref| = %3, "
                             "%4 of max |f_ref| = %5")
                         .arg(q(labelA), q(labelB))
                         .arg(difference_.largest, 0, 'g', 3)
                         .arg(relative, 0, 'g', 3)
                         .arg(difference_.largestReference, 0, 'g', 4));
    layout->addWidget(scroll_, 1);
    layout->addWidget(caption);
}

bool RbfDifferenceView::eventFilter(QObject* watched, QEvent* event) {
    if (scroll_ && watched == scroll_->viewport() && event->type() == QEvent::Resize)
        QTimer::singleShot(0, this, [this] { arrange(); });
    return QWidget::eventFilter(watched, event);
}

// A row where three planes of leastSide px and the colour scale fit, else a column; then the
// height that makes the planes square at that width.
void RbfDifferenceView::arrange() {
    if (!planes_) return;
    const int width = scroll_->width();
    const bool row = width >= 3 * (leastSide + 60) + 90;
    planes_->setColumns(row ? 3 : 1);
    for (int pass = 0; pass < 4; ++pass) { // later passes correct for the axes' margins
        planes_->replot(QCustomPlot::rpImmediateRefresh);
        const int h = std::max(planes_->squareHeight(), planes_->minimumHeight());
        if (std::abs(h - planes_->height()) <= 2) break;
        planes_->setFixedHeight(h);
        QCoreApplication::sendPostedEvents(planes_, QEvent::LayoutRequest);
        scroll_->widget()->resize(scroll_->viewport()->width(), h);
    }
}

} // namespace clscope::ui
