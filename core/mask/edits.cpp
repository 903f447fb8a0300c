#include "core/mask/edits.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace clscope::mask {

namespace {

std::uint8_t editedValue(std::uint8_t old, EditMode mode) {
    switch (mode) {
    case EditMode::Mask:
        return 1;
    case EditMode::Unmask:
        return 0;
    case EditMode::Toggle:
        break;
    }
    return old ? 0 : 1;
}

void checkInside(const PixelMask& mask, const MaskDiff& diff) {
    if (!diff.empty() && diff.pixels.back() >= mask.bad.size())
        throw std::logic_error("mask diff does not belong to this mask");
}

} // namespace

MaskDiff applyPixels(PixelMask& mask, const PixelSet& pixels, EditMode mode) {
    if (!std::is_sorted(pixels.begin(), pixels.end()) ||
        std::adjacent_find(pixels.begin(), pixels.end()) != pixels.end()) {
        PixelSet sorted = pixels; // diffs must be ascending and distinct
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        return applyPixels(mask, sorted, mode);
    }
    MaskDiff diff;
    for (const std::uint32_t p : pixels) {
        if (p >= mask.bad.size()) throw UsageError("mask edit: pixel index outside the mask");
        const std::uint8_t old = mask.bad[p];
        const std::uint8_t now = editedValue(old, mode);
        if ((old != 0) == (now != 0)) continue; // masked state unchanged
        diff.pixels.push_back(p);
        diff.oldValues.push_back(old);
        mask.bad[p] = now;
    }
    return diff;
}

void undoDiff(PixelMask& mask, const MaskDiff& diff) {
    checkInside(mask, diff);
    for (std::size_t k = 0; k < diff.size(); ++k)
        mask.bad[diff.pixels[k]] = diff.oldValues[k];
}

void redoDiff(PixelMask& mask, const MaskDiff& diff) {
    checkInside(mask, diff);
    for (std::size_t k = 0; k < diff.size(); ++k)
        mask.bad[diff.pixels[k]] = diff.oldValues[k] ? 0 : 1;
}

void mergeDiff(MaskDiff& earlier, const MaskDiff& later) {
    MaskDiff merged;
    std::size_t a = 0, b = 0;
    while (a < earlier.size() || b < later.size()) {
        const bool takeEarlier =
            b == later.size() || (a < earlier.size() && earlier.pixels[a] < later.pixels[b]);
        const bool takeLater =
            a == earlier.size() || (b < later.size() && later.pixels[b] < earlier.pixels[a]);
        if (takeEarlier) {
            merged.pixels.push_back(earlier.pixels[a]);
            merged.oldValues.push_back(earlier.oldValues[a++]);
        } else if (takeLater) {
            merged.pixels.push_back(later.pixels[b]);
            merged.oldValues.push_back(later.oldValues[b++]);
        } else {
            ++a, ++b; // changed twice: back to its first state
        }
    }
    earlier = std::move(merged);
}

PixelMask rasterizeEdits(const std::vector<ShapeEdit>& edits, PixelMask base) {
    for (const ShapeEdit& e : edits)
        applyPixels(base, rasterize(e.shape, base.height, base.width), e.mode);
    return base;
}

MaskEditor::MaskEditor(std::size_t height, std::size_t width)
    : MaskEditor(PixelMask{height, width, std::vector<std::uint8_t>(height * width, 0)}) {}

MaskEditor::MaskEditor(PixelMask initial) : mask_(std::move(initial)) {
    checkPixelCount(mask_.height, mask_.width);
    if (mask_.bad.size() != mask_.height * mask_.width)
        throw UsageError("mask editor: mask size does not match its height x width");
}

const MaskDiff& MaskEditor::record(MaskDiff diff) {
    if (diff.empty()) return none_;
    history_.resize(done_);
    history_.push_back(std::move(diff));
    ++done_;
    return history_.back();
}

const MaskDiff& MaskEditor::apply(const MaskShape& shape, EditMode mode) {
    return applyPixels(rasterize(shape, mask_.height, mask_.width), mode);
}

const MaskDiff& MaskEditor::applyPixels(const PixelSet& pixels, EditMode mode) {
    if (strokeActive_) endStroke();
    return record(mask::applyPixels(mask_, pixels, mode));
}

const MaskDiff& MaskEditor::applyThreshold(const Array& image, const Threshold& t, EditMode mode) {
    if (image.rank() != 2 || image.height() != mask_.height || image.width() != mask_.width)
        throw InputError("threshold: image shape " + shapeString(image.shape()) +
                         " does not match the mask's (" + std::to_string(mask_.height) + ", " +
                         std::to_string(mask_.width) + ")");
    return applyPixels(thresholdPixels(image, t), mode);
}

const MaskDiff& MaskEditor::invert() {
    return applyPixels(allPixels(mask_.bad.size()), EditMode::Toggle);
}

const MaskDiff& MaskEditor::clear() {
    return applyPixels(allPixels(mask_.bad.size()), EditMode::Unmask);
}

const MaskDiff& MaskEditor::replace(const PixelMask& mask) {
    if (mask.height != mask_.height || mask.width != mask_.width)
        throw InputError("mask shape (" + std::to_string(mask.height) + ", " +
                         std::to_string(mask.width) + ") does not match the editor's (" +
                         std::to_string(mask_.height) + ", " + std::to_string(mask_.width) + ")");
    PixelSet differing;
    for (std::size_t i = 0; i < mask.bad.size(); ++i)
        if ((mask.bad[i] != 0) != (mask_.bad[i] != 0))
            differing.push_back(static_cast<std::uint32_t>(i));
    return applyPixels(differing, EditMode::Toggle);
}

void MaskEditor::beginStroke(double radius, EditMode mode) {
    if (strokeActive_) endStroke();
    if (!(radius >= 0)) throw UsageError("brush radius must be >= 0 pixels");
    strokeActive_ = true;
    strokeMode_ = mode;
    stroke_ = {radius, {}};
    strokeDiff_ = {};
    strokeCovered_.clear();
}

void MaskEditor::addDab(Point p) {
    if (!strokeActive_) throw std::logic_error("addDab outside beginStroke/endStroke");
    // Only the new segment is painted; the diff of the whole stroke grows.
    const BrushStroke segment{stroke_.radius, stroke_.dabs.empty()
                                                  ? std::vector<Point>{p}
                                                  : std::vector<Point>{stroke_.dabs.back(), p}};
    stroke_.dabs.push_back(p);
    // Pixels already under the stroke are left alone, so a toggling stroke flips each once.
    const PixelSet pixels = rasterize(segment, mask_.height, mask_.width);
    PixelSet fresh, covered;
    std::set_difference(pixels.begin(), pixels.end(), strokeCovered_.begin(), strokeCovered_.end(),
                        std::back_inserter(fresh));
    std::set_union(pixels.begin(), pixels.end(), strokeCovered_.begin(), strokeCovered_.end(),
                   std::back_inserter(covered));
    strokeCovered_ = std::move(covered);
    mergeDiff(strokeDiff_, mask::applyPixels(mask_, fresh, strokeMode_));
}

const MaskDiff& MaskEditor::endStroke() {
    if (!strokeActive_) return none_;
    strokeActive_ = false;
    return record(std::move(strokeDiff_));
}

void MaskEditor::undo() {
    if (strokeActive_) endStroke();
    if (!canUndo()) return;
    undoDiff(mask_, history_[--done_]);
}

void MaskEditor::redo() {
    if (strokeActive_) endStroke();
    if (!canRedo()) return;
    redoDiff(mask_, history_[done_++]);
}

} // namespace clscope::mask
