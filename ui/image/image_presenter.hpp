// The image view's state and the image it shows, kept apart from the widgets (Mantid-style
// presenter): which frame or frame range, which reduction, normalisation and colour range.
#pragma once
#include "ui/image/frame_reduction.hpp"

#include <memory>
#include <optional>

namespace clscope::ui {

class ImagePresenter {
  public:
    void setSource(std::shared_ptr<const FrameSource> source);
    void clearSource();
    bool hasImage() const { return source_ != nullptr; }
    const FrameSource* source() const { return source_.get(); }
    const std::shared_ptr<const FrameSource>& sharedSource() const { return source_; }
    std::size_t frameCount() const { return source_ ? source_->frameCount() : 0; }

    // Pixel mask (non-zero = bad), empty for none; masked pixels show as NaN.
    void setPixelMask(std::vector<std::uint8_t> bad);
    // The selection with its frames clamped into the source's range.
    ImageSelection clampedSelection(ImageSelection selection) const;
    // Select frames; the image is reduced (synchronously) when next asked for.
    void setSelection(ImageSelection selection);
    // Select frames whose reduction was computed elsewhere (e.g. by a FrameReducer).
    void setReducedImage(const ImageSelection& selection, Image reduced);
    const ImageSelection& selection() const { return selection_; }
    void setFrame(std::size_t frame);
    void setNormalisation(Normalisation n) { normalisation_ = n; }
    Normalisation normalisation() const { return normalisation_; }
    void setContrast(const ContrastSettings& c) { contrast_ = c; }
    const ContrastSettings& contrast() const { return contrast_; }

    // The image in data values (NaN where masked), recomputed after a change.
    const Image& image();
    // The same before the pixel mask is applied (what a threshold tool looks at).
    const Image& reducedImage();
    // The automatic colour range in data values, and as drawn (after normalisation).
    ValueRange dataRange();
    ValueRange drawnRange() { return normalisedRange(dataRange(), normalisation_); }
    // The values to draw, one per pixel (normalisation applied).
    std::vector<double> drawnValues();
    // One line saying what is shown, e.g. "frame 3 / 500" or "mean of frames 0–99".
    std::string caption() const;

  private:
    void invalidate() {
        image_.reset();
        reduced_.reset();
    }
    std::shared_ptr<const FrameSource> source_;
    std::vector<std::uint8_t> bad_;
    ImageSelection selection_;
    Normalisation normalisation_ = Normalisation::Linear;
    ContrastSettings contrast_;
    std::optional<Image> image_;   // reduced_ with the pixel mask applied
    std::optional<Image> reduced_; // the selected frames reduced
};

} // namespace clscope::ui
