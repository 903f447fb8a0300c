#include "ui/image/image_view.hpp"

#include "ui/image/colormaps.hpp"

#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// The controls in a strip that scrolls sideways where the dock is narrower than they are (their
// 712 px made the window overrun a 1280 px screen).
QWidget* scrollingRow(QWidget* row) {
    auto* area = new QScrollArea;
    area->setWidget(row);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    area->setFixedHeight(row->sizeHint().height() +
                         area->horizontalScrollBar()->sizeHint().height());
    return area;
}

} // namespace

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    controls_ = new ImageControls(this);
    caption_ = new QLabel("no image", this);
    caption_->setObjectName("imageCaption");
    plot_ = new QCustomPlot(this);
    cancelButton_ = new QToolButton(this);
    cancelButton_->setText("Cancel");
    cancelButton_->setToolTip("Cancel the frame reduction (Esc)");
    cancelButton_->hide();
    reducer_ = new FrameReducer(this);
    readout_ = new QLabel(" ", this);
    readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long captions and readouts wrap instead of widening the dock (and the window).
    caption_->setWordWrap(true);
    readout_->setWordWrap(true);
    auto* captionRow = new QHBoxLayout;
    captionRow->addWidget(caption_, 1);
    captionRow->addWidget(cancelButton_);
    layout->addWidget(scrollingRow(controls_));
    layout->addLayout(captionRow);
    layout->addWidget(plot_, 1);
    layout->addWidget(readout_);
    buildPlot();
    connectReducer();
    connect(controls_, &ImageControls::selectionChanged, this, &ImageView::applySelection);
    connect(controls_, &ImageControls::appearanceChanged, this, &ImageView::applyAppearance);
    connect(controls_, &ImageControls::orientationChanged, this, [this](bool yDown) {
        plot_->yAxis->setRangeReversed(yDown);
        plot_->replot();
    });
    connect(controls_, &ImageControls::resetZoomRequested, this, &ImageView::fitImage);
    applyAppearance();
}

ImageView::~ImageView() {
    overlays_.clear();
}

void ImageView::buildPlot() {
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->xAxis->setLabel("x (pixel)");
    plot_->yAxis->setLabel("y (pixel)");
    plot_->yAxis->setRangeReversed(true);
    plot_->axisRect()->setupFullAxesBox(true);
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->setBarWidth(14);
    map_->setColorScale(scale_);
    // Keep the colour bar as tall as the image's axis rect.
    auto* margins = new QCPMarginGroup(plot_);
    plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    plot_->setMouseTracking(true);
    plot_->installEventFilter(this);
    connect(plot_, &QCustomPlot::mouseMove, this, &ImageView::onMouseMove);
    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { userZoomed_ = true; });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
        if (!drawingActive_) fitImage();
    });
    connect(plot_, &QCustomPlot::mouseRelease, this, [this] {
        if (!drawingActive_) userZoomed_ = true;
    });
}

bool ImageView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Resize && presenter_.hasImage())
        keepPixelsSquare();
    return QWidget::eventFilter(watched, event);
}

// On a resize (also one made while the dock was behind another, delivered when it is raised)
// the image is fitted again, or, once the user zoomed, keeps its units per screen pixel about
// the same centre: pixels stay square either way. The scale is read from the axis rect the
// ranges were set for, before the plot lays itself out again (a region shown before any layout
// is kept whole); later resizes before the queued call change only the size it adapts to.
void ImageView::keepPixelsSquare() {
    if (rescalePending_) return;
    const QRect before = plot_->axisRect()->rect();
    const bool laidOut = before.width() >= 10 && before.height() >= 10;
    const double perX = laidOut ? plot_->xAxis->range().size() / before.width() : 0;
    const double perY = laidOut ? plot_->yAxis->range().size() / before.height() : 0;
    rescalePending_ = true;
    QMetaObject::invokeMethod(
        this, [this, perX, perY] { rescaleAboutCentre(perX, perY); }, Qt::QueuedConnection);
}

void ImageView::rescaleAboutCentre(double perX, double perY) {
    rescalePending_ = false;
    if (!userZoomed_) return fitImage();
    const QRect now = plot_->axisRect()->rect();
    if (now.width() < 10 || now.height() < 10) return;
    const QCPRange rx = plot_->xAxis->range(), ry = plot_->yAxis->range();
    if (perX <= 0 || perY <= 0)
        perX = perY = std::max(rx.size() / now.width(), ry.size() / now.height());
    plot_->xAxis->setRange(rx.center() - perX * now.width() / 2,
                           rx.center() + perX * now.width() / 2);
    plot_->yAxis->setRange(ry.center() - perY * now.height() / 2,
                           ry.center() + perY * now.height() / 2);
    plot_->replot();
}

void ImageView::connectReducer() {
    connect(cancelButton_, &QToolButton::clicked, reducer_, &FrameReducer::cancel);
    connect(reducer_, &FrameReducer::progressed, this, &ImageView::showReductionProgress);
    connect(reducer_, &FrameReducer::finished, this,
            [this](const ImageSelection& s, const Image& image) {
                presenter_.setReducedImage(s, image);
                showReductionEnded({});
            });
    connect(reducer_, &FrameReducer::cancelled, this,
            [this] { showReductionEnded("reduction cancelled"); });
    connect(reducer_, &FrameReducer::failed, this,
            [this](const QString& message) { showReductionEnded("reduction failed: " + message); });
}

void ImageView::showReductionProgress(double fraction) {
    const ImageSelection& s = reducer_->pending();
    caption_->setText(QString("reducing frames %1–%2… %3 %")
                          .arg(s.firstFrame)
                          .arg(s.lastFrame)
                          .arg(static_cast<int>(fraction * 100.0)));
    cancelButton_->show();
}

// Redraw what the presenter holds (the new image, or the previous one) with a note after it.
void ImageView::showReductionEnded(const QString& note) {
    cancelButton_->hide();
    redraw();
    if (!note.isEmpty()) caption_->setText(caption_->text() + "  (" + note + ")");
}

void ImageView::setFrameSource(std::shared_ptr<const FrameSource> source) {
    reducer_->discard();
    cancelButton_->hide();
    overlays_.clear();
    rebuildOverlayMenu();
    readout_->setText(" "); // the previous file's readout
    if (!source)
        presenter_.clearSource();
    else
        presenter_.setSource(std::move(source));
    controls_->setFrameCount(presenter_.frameCount());
    userZoomed_ = false;
    redraw();
    fitImage();
}

void ImageView::setPixelMask(std::vector<std::uint8_t> bad) {
    presenter_.setPixelMask(std::move(bad));
    redraw();
}

// Short selections (one frame, a few frames) are read here; long ones go to the reducer,
// which supersedes any reduction still under way.
void ImageView::applySelection() {
    const ImageSelection s =
        presenter_.clampedSelection({controls_->reduction(), controls_->frame(),
                                     controls_->firstFrame(), controls_->lastFrame()});
    if (presenter_.hasImage() && isLongReduction(s)) {
        reducer_->start(presenter_.sharedSource(), s);
        return;
    }
    reducer_->discard();
    cancelButton_->hide();
    presenter_.setSelection(s);
    redraw();
}

void ImageView::applyAppearance() {
    presenter_.setNormalisation(controls_->normalisation());
    presenter_.setContrast(controls_->contrast());
    map_->setGradient(colormapGradient(controls_->colormap(), controls_->maskedColor()));
    redraw();
}

// Push the presenter's image, colour range and scale type into the colour map.
void ImageView::redraw() {
    const Normalisation n = presenter_.normalisation();
    const bool log = n == Normalisation::Log;
    scale_->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        scale_->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        scale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    scale_->axis()->setLabel(n == Normalisation::Sqrt ? "√ value" : "value");
    caption_->setText(QString::fromStdString(presenter_.caption()));
    try {
        if (presenter_.hasImage()) return drawImage();
    } catch (const std::exception& e) { // a frame that cannot be read: said, nothing drawn
        caption_->setText(caption_->text() + "  (" + QString::fromUtf8(e.what()) + ")");
    }
    map_->data()->clear();
    plot_->replot();
}

void ImageView::drawImage() {
    const Image& image = presenter_.image();
    const std::vector<double> drawn = presenter_.drawnValues();
    const int w = static_cast<int>(image.width), h = static_cast<int>(image.height);
    map_->data()->setSize(w, h);
    map_->data()->setRange(QCPRange(0.5, w - 0.5), QCPRange(0.5, h - 0.5));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            map_->data()->setCell(x, y, drawn[static_cast<std::size_t>(y) * w + x]);
    const ValueRange range = presenter_.drawnRange();
    map_->setDataRange(QCPRange(range.low, range.high));
    plot_->replot();
}

void ImageView::fitImage() {
    userZoomed_ = false;
    if (!presenter_.hasImage()) return;
    const double w = static_cast<double>(presenter_.source()->width());
    const double h = static_cast<double>(presenter_.source()->height());
    const QRect rect = plot_->axisRect()->rect();
    if (rect.width() < 10 || rect.height() < 10) {
        plot_->xAxis->setRange(0, w);
        plot_->yAxis->setRange(0, h);
    } else {
        // Square pixels: the axis that has room to spare is widened about the image centre.
        const double pixelsPerUnit = std::min(rect.width() / w, rect.height() / h);
        const double spanX = rect.width() / pixelsPerUnit, spanY = rect.height() / pixelsPerUnit;
        plot_->xAxis->setRange(w / 2 - spanX / 2, w / 2 + spanX / 2);
        plot_->yAxis->setRange(h / 2 - spanY / 2, h / 2 + spanY / 2);
    }
    plot_->replot();
}

void ImageView::showRegion(double x0, double x1, double y0, double y1) {
    userZoomed_ = true;
    plot_->xAxis->setRange(x0, x1);
    plot_->yAxis->setRange(y0, y1);
    plot_->replot();
}

void ImageView::showAround(double x, double y, double halfWidth) {
    const double halfHeight =
        halfWidth * plot_->yAxis->range().size() / plot_->xAxis->range().size();
    showRegion(x - halfWidth, x + halfWidth, y - halfHeight, y + halfHeight);
}

OverlayLayer* ImageView::setOverlay(OverlayData data) {
    removeOverlay(data.name);
    const bool active = !inactiveOwners_.contains(data.owner);
    overlays_.push_back(std::make_unique<OverlayLayer>(plot_, std::move(data), "main"));
    overlays_.back()->setOwnerActive(active);
    rebuildOverlayMenu();
    plot_->replot();
    return overlays_.back().get();
}

void ImageView::removeOverlay(const QString& name) {
    std::erase_if(overlays_, [&](const auto& o) { return o->name() == name; });
    rebuildOverlayMenu();
    plot_->replot();
}

OverlayLayer* ImageView::overlay(const QString& name) const {
    for (const auto& o : overlays_)
        if (o->name() == name) return o.get();
    return nullptr;
}

QStringList ImageView::overlayNames() const {
    QStringList names;
    for (const auto& o : overlays_)
        names << o->name();
    return names;
}

void ImageView::setOwnerActive(const QString& owner, bool active) {
    inactiveOwners_.removeAll(owner);
    if (!active) inactiveOwners_ << owner;
    for (const auto& o : overlays_)
        if (o->owner() == owner) o->setOwnerActive(active);
    plot_->replot();
}

// One checkable entry per overlay to show or hide it.
void ImageView::rebuildOverlayMenu() {
    QMenu* menu = controls_->overlayMenu();
    menu->clear();
    if (overlays_.empty()) menu->addAction("(no overlays)")->setEnabled(false);
    for (const auto& o : overlays_) {
        QAction* action = menu->addAction(o->name());
        action->setCheckable(true);
        action->setChecked(o->isUserVisible());
        OverlayLayer* layer = o.get();
        connect(action, &QAction::toggled, this, [this, layer](bool on) {
            layer->setVisible(on);
            plot_->replot();
        });
    }
}

QString ImageView::readoutAt(double x, double y) {
    if (!presenter_.hasImage()) return {};
    const Image* shown = nullptr;
    try {
        shown = &presenter_.image();
    } catch (const std::exception&) { // redraw() said why
        return {};
    }
    const Image& image = *shown;
    if (x < 0 || y < 0 || x >= static_cast<double>(image.width) ||
        y >= static_cast<double>(image.height))
        return {};
    const auto ix = static_cast<std::size_t>(x), iy = static_cast<std::size_t>(y);
    const double value = image.at(ix, iy);
    QString text = QString("x %1  y %2  value %3")
                       .arg(ix)
                       .arg(iy)
                       .arg(std::isnan(value) ? QString("masked") : QString::number(value, 'g', 6));
    if (readoutExtra_) {
        const QString extra = readoutExtra_(ix, iy);
        if (!extra.isEmpty()) text += "  " + extra;
    }
    for (const auto& o : overlays_) {
        const QString label = o->describeAt(ix, iy);
        if (!label.isEmpty()) text += "  |  " + label;
    }
    return text;
}

void ImageView::setReadoutExtra(std::function<QString(std::size_t, std::size_t)> extra) {
    readoutExtra_ = std::move(extra);
}

void ImageView::setDrawingActive(bool active) {
    drawingActive_ = active;
    plot_->setInteraction(QCP::iRangeDrag, !active);
}

void ImageView::onMouseMove(QMouseEvent* event) {
    const double x = plot_->xAxis->pixelToCoord(event->position().x());
    const double y = plot_->yAxis->pixelToCoord(event->position().y());
    const QString text = readoutAt(x, y);
    readout_->setText(text.isEmpty() ? " " : text);
    emit readoutChanged(text);
}

} // namespace clscope::ui
