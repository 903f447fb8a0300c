// SpotsPanel, live: the frame on screen is thresholded again (on the job runner, debounced by
// LiveRerun) after every parameter, frame or image change while the panel is in front or
// pinned (Workbench::isPanelActive); its signal pixels go to the image view as the "signal
// pixels" overlay, its spots as boxes and centroids, and a debug image, when chosen, replaces
// the frame in the image view.
#include "core/errors.hpp"
#include "gpu/runtime/devices.hpp"
#include "ui/image/frame_source.hpp"
#include "ui/image/image_view.hpp"
#include "ui/image/resolution_rings.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/spots/spots_markers.hpp"
#include "ui/spots/spots_panel.hpp"

#include <QCheckBox>
#include <QLabel>
#include <QToolButton>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// The frames of the file with one frame replaced by a debug image of it, so the image view
// keeps its frame slider and caption ("frame 2 of 6") while it shows the debug image.
class DebugFrameSource : public FrameSource {
  public:
    DebugFrameSource(std::shared_ptr<const FrameSource> frames, std::size_t index, Array image,
                     std::string what)
        : frames_(std::move(frames)), index_(index), image_(std::move(image)),
          what_(std::move(what)) {}
    std::size_t frameCount() const override { return frames_->frameCount(); }
    std::size_t height() const override { return frames_->height(); }
    std::size_t width() const override { return frames_->width(); }
    Array readFrames(std::size_t first, std::size_t count) const override {
        return first == index_ && count == 1 ? image_ : frames_->readFrames(first, count);
    }
    std::string description() const override { return what_; }

  private:
    std::shared_ptr<const FrameSource> frames_;
    std::size_t index_;
    Array image_;
    std::string what_;
};

} // namespace

void SpotsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    requestLive();
}

// Only while the panel is in front or pinned: other algorithms' runs are not held up, nor
// their images covered, by a panel behind.
void SpotsPanel::requestLive() {
    if (frames_ && wb_.isPanelActive("spots")) live_->request();
}

// In front: the live view again; behind: its overlay (the image view hides it) and boxes hidden.
void SpotsPanel::onActiveChanged(bool active) {
    markers_->setVisible(active && markersBox_->isChecked());
    rings_->setOwnerActive(active);
    wb_.image().plot()->replot();
    if (active) requestLive();
}

std::optional<Job> SpotsPanel::makeLiveJob() {
    if (!frames_ || !wb_.isPanelActive("spots")) return std::nullopt;
    const std::size_t index = std::min(frame(), frames_->frameCount() - 1);
    if (!frameInput_ || frameInput_->index != index) {
        auto in = std::make_shared<SpotsFrameInput>();
        try {
            in->index = index;
            in->frame = frames_->readFrames(index, 1);
            in->mask = mask_;
        } catch (const std::exception& e) {
            wb_.log(LogLevel::Error,
                    QString("Spots: frame %1 not read: %2").arg(index).arg(e.what()));
            return std::nullopt;
        }
        frameInput_ = std::move(in);
    }
    Job job;
    job.title = "spots live: frame " + std::to_string(index);
    job.algorithm = "spots";
    job.device = hostDevice();
    const bool debug = image() != SpotsImage::Frame;
    job.work = [this, cache = cache_, input = frameInput_, params = params(),
                debug](const Progress& progress) {
        progress.checkCancel();
        auto result = std::make_shared<SpotsFrameResult>(cache->threshold(input, params, debug));
        JobOutcome outcome;
        outcome.summary = std::to_string(result->strong) + " signal pixels, " +
                          std::to_string(result->spots.size()) + " spots" +
                          (result->cachedSums ? " (window sums cached)" : "");
        outcome.deliver = [this, result] { deliverLive(std::move(*result)); };
        return outcome;
    };
    return job;
}

void SpotsPanel::deliverLive(SpotsFrameResult result) {
    const QString shown =
        image() == SpotsImage::Frame
            ? QString()
            : QString(" (image: %1)").arg(QString::fromStdString(spotsImageName(image())));
    liveInfo_->setText(QString("frame %1%6: %2 signal pixels, %3 spots; global threshold %4%5")
                           .arg(result.frame)
                           .arg(result.strong)
                           .arg(result.spots.size())
                           .arg(result.threshold)
                           .arg(result.cachedSums ? "; window sums reused" : "")
                           .arg(shown));
    presenter_->setFrameResult(std::move(result));
    showImage();
    showOverlay();
    showMarkers();
    emit liveUpdated();
}

// The frame from the file, or the chosen debug image of the live result as a one-image
// source; the zoom stays where it was.
void SpotsPanel::showImage() {
    ImageView& view = wb_.image();
    const auto& result = presenter_->frameResult();
    const SpotsImage kind = image();
    if (!frames_ || !result) return;
    const QCPRange x = view.plot()->xAxis->range(), y = view.plot()->yAxis->range();
    if (kind == SpotsImage::Frame || !result->debug) {
        if (showingDebug_) view.setFrameSource(frames_);
        showingDebug_ = false;
    } else {
        const std::vector<double> values = debugValues(*result->debug, kind);
        Array image = makeArray<double>({1, result->height, result->width}, values);
        const std::string what = spotsImageName(kind) + " of frame " +
                                 std::to_string(result->frame) + " (" +
                                 spots::methodName(params().method) + ")";
        showingDebug_ = true;
        view.setFrameSource(
            std::make_shared<DebugFrameSource>(frames_, result->frame, std::move(image), what));
    }
    view.controls()->setFrame(result->frame);
    view.showRegion(x.lower, x.upper, y.lower, y.upper);
}

// The live signal pixels as the one overlay type, solid red over the image.
void SpotsPanel::showOverlay() {
    const auto& result = presenter_->frameResult();
    if (!result) return;
    OverlayData overlay;
    overlay.name = "signal pixels";
    overlay.owner = "spots";
    overlay.width = result->width, overlay.height = result->height;
    overlay.labels = presenter_->signalLabels();
    overlay.style = OverlayData::Style::Solid;
    overlay.color = QColor(255, 40, 40);
    overlay.opacity = 0.6;
    const std::size_t frame = result->frame;
    overlay.labelText = [frame](std::int32_t) { return QString("signal (frame %1)").arg(frame); };
    OverlayLayer* layer = wb_.setOverlay(std::move(overlay));
    layer->setVisible(overlayBox_->isChecked());
    wb_.image().plot()->replot();
}

// Boxes of the live frame's spots; the table's selected spot, when it is one of them, in gold.
void SpotsPanel::showMarkers() {
    const auto& result = presenter_->frameResult();
    if (!result) return;
    std::optional<std::size_t> selected;
    if (presenter_->selectedSpot() && presenter_->hasRun()) {
        const spots::Spot& chosen = presenter_->run().spots.at(*presenter_->selectedSpot());
        for (std::size_t i = 0; i < result->spots.size(); ++i) {
            const spots::Spot& s = result->spots[i];
            if (s.frame == chosen.frame + runFirstFrame_ && s.x0 == chosen.x0 &&
                s.y0 == chosen.y0 && s.x1 == chosen.x1 && s.y1 == chosen.y1)
                selected = i;
        }
    }
    markers_->setSpots(result->spots, selected);
    markers_->setVisible(markersBox_->isChecked() && wb_.isPanelActive("spots"));
    wb_.image().plot()->replot();
}

// Play: the next frame once the current one has been thresholded; stops at the last frame.
void SpotsPanel::stepPlay() {
    if (live_->isPending() || wb_.jobs().isBusy()) return;
    if (frame() + 1 >= frameCount()) {
        setPlaying(false);
        return;
    }
    setFrame(frame() + 1);
}

void SpotsPanel::showSelectedSpot() {
    const auto target = presenter_->selectedTarget();
    if (!target) return;
    setFrame(target->frame + static_cast<std::size_t>(runFirstFrame_)); // the run's: from FIRST
    // The Image in front, not hidden behind the Results tab the spot was chosen in.
    if (window()->metaObject()->indexOfMethod("showImage()") >= 0)
        QMetaObject::invokeMethod(window(), "showImage");
    centreOn(target->x, target->y);
    showMarkers();
}

// Centre the image view on (x, y); zoomed out wider than 200 px, zoom in to about 64 px.
void SpotsPanel::centreOn(double x, double y) {
    QCustomPlot* plot = wb_.image().plot();
    double spanX = plot->xAxis->range().size(), spanY = plot->yAxis->range().size();
    if (spanX > 200 || spanY > 200) {
        const double scale = 64.0 / std::min(spanX, spanY);
        spanX *= scale, spanY *= scale;
    }
    wb_.image().showRegion(x - spanX / 2, x + spanX / 2, y - spanY / 2, y + spanY / 2);
}

} // namespace clscope::ui
