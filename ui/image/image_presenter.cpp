#include "ui/image/image_presenter.hpp"

#include <algorithm>
#include <limits>

namespace clscope::ui {

namespace {
// Frames are read in chunks of this many so a long sum never holds the whole stack.
constexpr std::size_t chunkFrames = 64;
} // namespace

void ImagePresenter::setSource(std::shared_ptr<const FrameSource> source) {
    source_ = std::move(source);
    const std::size_t last = source_ && source_->frameCount() ? source_->frameCount() - 1 : 0;
    selection_ = ImageSelection{Reduction::Single, 0, 0, last};
    invalidate();
}

void ImagePresenter::clearSource() {
    source_.reset();
    invalidate();
}

void ImagePresenter::setPixelMask(std::vector<std::uint8_t> bad) {
    bad_ = std::move(bad);
    image_.reset(); // the reduced frames stay valid
}

void ImagePresenter::setSelection(ImageSelection selection) {
    const std::size_t last = frameCount() ? frameCount() - 1 : 0;
    selection.frame = std::min(selection.frame, last);
    selection.lastFrame = std::min(selection.lastFrame, last);
    selection.firstFrame = std::min(selection.firstFrame, selection.lastFrame);
    selection_ = selection;
    invalidate();
}

void ImagePresenter::setFrame(std::size_t frame) {
    ImageSelection s = selection_;
    s.frame = frame;
    setSelection(s);
}

const Image& ImagePresenter::image() {
    if (image_) return *image_;
    image_ = reducedImage();
    applyMask(*image_, bad_);
    return *image_;
}

const Image& ImagePresenter::reducedImage() {
    if (reduced_) return *reduced_;
    if (!source_) return *(reduced_ = Image{});
    const ImageSelection& s = selection_;
    if (s.reduction == Reduction::Single) {
        reduced_ = reduceFrames(source_->readFrames(s.frame, 1), Reduction::Single);
    } else {
        // Combine chunk results: sums add, maxima take the max; the mean divides at the end.
        const Reduction chunkReduction = s.reduction == Reduction::Max ? Reduction::Max : Reduction::Sum;
        Image total;
        for (std::size_t first = s.firstFrame; first <= s.lastFrame; first += chunkFrames) {
            const std::size_t count = std::min(chunkFrames, s.lastFrame + 1 - first);
            Image part = reduceFrames(source_->readFrames(first, count), chunkReduction);
            if (total.values.empty()) { total = std::move(part); continue; }
            for (std::size_t i = 0; i < part.values.size(); ++i)
                total.values[i] = chunkReduction == Reduction::Max ? std::max(total.values[i], part.values[i])
                                                                   : total.values[i] + part.values[i];
        }
        if (s.reduction == Reduction::Mean)
            for (double& v : total.values) v /= static_cast<double>(s.lastFrame + 1 - s.firstFrame);
        reduced_ = std::move(total);
    }
    return *reduced_;
}

ValueRange ImagePresenter::dataRange() { return autoContrast(image(), contrast_, normalisation_); }

std::vector<double> ImagePresenter::drawnValues() {
    std::vector<double> out = image().values;
    for (double& v : out) v = normalisedValue(v, normalisation_);
    // On a log axis, zero and negative values draw in the lowest colour, not as masked.
    if (normalisation_ == Normalisation::Log)
        for (double& v : out)
            if (v <= 0) v = std::numeric_limits<double>::min();
    return out;
}

std::string ImagePresenter::caption() const {
    if (!source_) return "no image";
    const ImageSelection& s = selection_;
    if (s.reduction == Reduction::Single)
        return "frame " + std::to_string(s.frame) + " of " + std::to_string(frameCount());
    return reductionName(s.reduction) + " of frames " + std::to_string(s.firstFrame) + "–" +
           std::to_string(s.lastFrame);
}

} // namespace clscope::ui
