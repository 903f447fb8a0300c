#include "ui/image/image_presenter.hpp"

#include <algorithm>
#include <limits>

namespace clscope::ui {

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

ImageSelection ImagePresenter::clampedSelection(ImageSelection selection) const {
    const std::size_t last = frameCount() ? frameCount() - 1 : 0;
    selection.frame = std::min(selection.frame, last);
    selection.lastFrame = std::min(selection.lastFrame, last);
    selection.firstFrame = std::min(selection.firstFrame, selection.lastFrame);
    return selection;
}

void ImagePresenter::setSelection(ImageSelection selection) {
    selection_ = clampedSelection(selection);
    invalidate();
}

void ImagePresenter::setReducedImage(const ImageSelection& selection, Image reduced) {
    selection_ = clampedSelection(selection);
    invalidate();
    reduced_ = std::move(reduced);
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
    reduced_ = reduceSelection(*source_, selection_);
    return *reduced_;
}

ValueRange ImagePresenter::dataRange() {
    return autoContrast(image(), contrast_, normalisation_);
}

std::vector<double> ImagePresenter::drawnValues() {
    std::vector<double> out = image().values;
    for (double& v : out)
        v = normalisedValue(v, normalisation_);
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
