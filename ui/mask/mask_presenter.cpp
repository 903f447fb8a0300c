// MaskEditorPresenter: the mask and its edits (shapes, brush strokes, threshold, invert,
// clear), each one QUndoCommand holding a MaskDiff.
#include "ui/mask/mask_presenter.hpp"

#include "core/errors.hpp"
#include "ui/mask/mask_commands.hpp"

#include <algorithm>

namespace clscope::ui {

using mask::EditMode;
using mask::MaskDiff;
using mask::ShapeEdit;

MaskEditorPresenter::MaskEditorPresenter(QObject* parent) : QObject(parent) {}

MaskEditorPresenter::~MaskEditorPresenter() {
    // Commands refer back to this presenter; drop them before its members go.
    undo_.clear();
}

void MaskEditorPresenter::setImageSize(std::size_t height, std::size_t width) {
    if (height == height_ && width == width_) return;
    mask::checkPixelCount(height, width);
    height_ = height;
    width_ = width;
    undo_.clear();
    shapes_.clear();
    strokeActive_ = false;
    painted_ = PixelMask{height, width, std::vector<std::uint8_t>(height * width, 0)};
    spec_.reset();
    partition_.reset();
    if (geometrySource_ == "default") {
        geometry_.beamCenterX = static_cast<double>(width) / 2;
        geometry_.beamCenterY = static_cast<double>(height) / 2;
    }
    qmap_ = mask::computeQMap(geometry_, height, width);
    emit geometryChanged();
    emit partitionChanged();
    emit shapesChanged();
    refreshMask();
    refreshLabels();
}

std::size_t MaskEditorPresenter::maskedCount() const {
    return static_cast<std::size_t>(
        std::count_if(effective_.bad.begin(), effective_.bad.end(), [](auto v) { return v != 0; }));
}

void MaskEditorPresenter::setBaseMask(const PixelMask& mask) {
    checkShape(mask.height, mask.width, "pixel mask");
    undo_.clear();
    shapes_.clear();
    painted_ = mask;
    emit shapesChanged();
    refreshMask();
    refreshLabels();
}

// The mask in force: pending shapes rasterised onto the painted pixels, in order.
void MaskEditorPresenter::refreshMask() {
    effective_ = shapes_.empty() ? painted_ : mask::rasterizeEdits(shapes_, painted_);
    emit maskChanged();
}

void MaskEditorPresenter::refreshLabels() {
    combined_ = partition_ ? mask::applyPixelMask(partition_->labels, effective_) : LabelMask{};
    emit labelsChanged();
}

void MaskEditorPresenter::applyDiff(const MaskDiff& diff, bool undo,
                                    const std::vector<ShapeEdit>* shapes) {
    if (undo)
        mask::undoDiff(painted_, diff);
    else
        mask::redoDiff(painted_, diff);
    if (shapes) {
        shapes_ = *shapes;
        emit shapesChanged();
    }
    refreshMask();
    refreshLabels();
}

// One undo step for an edit already made to painted_ (and to come for the shapes).
void MaskEditorPresenter::pushEdit(const QString& text, MaskDiff diff,
                                   const std::vector<ShapeEdit>* shapesAfter) {
    if (diff.empty() && !shapesAfter) return;
    std::optional<MaskEditCommand::ShapeChange> change;
    if (shapesAfter) change = MaskEditCommand::ShapeChange{shapes_, *shapesAfter};
    undo_.push(new MaskEditCommand(*this, text, std::move(diff), std::move(change)));
}

void MaskEditorPresenter::addShape(const mask::MaskShape& shape) {
    if (!hasImage()) return;
    std::vector<ShapeEdit> after = shapes_;
    after.push_back({shape, mode_});
    static const char* names[] = {"rectangle", "ellipse", "polygon", "brush stroke"};
    pushEdit(QString("add %1").arg(names[shape.index()]), {}, &after);
}

void MaskEditorPresenter::removeShape(std::size_t index) {
    if (index >= shapes_.size()) return;
    std::vector<ShapeEdit> after = shapes_;
    after.erase(after.begin() + static_cast<std::ptrdiff_t>(index));
    pushEdit("delete shape", {}, &after);
}

void MaskEditorPresenter::setShapeMode(std::size_t index, EditMode mode) {
    if (index >= shapes_.size() || shapes_[index].mode == mode) return;
    std::vector<ShapeEdit> after = shapes_;
    after[index].mode = mode;
    pushEdit("change shape mode", {}, &after);
}

// Paint the pending shapes into painted_ (not yet recorded); returns what changed.
MaskDiff MaskEditorPresenter::burnShapes() {
    MaskDiff total;
    for (const ShapeEdit& edit : shapes_)
        mask::mergeDiff(
            total,
            mask::applyPixels(painted_, mask::rasterize(edit.shape, height_, width_), edit.mode));
    return total;
}

void MaskEditorPresenter::rasterizeShapes() {
    if (shapes_.empty()) return;
    const std::vector<ShapeEdit> none;
    pushEdit("rasterise shapes", burnShapes(), &none);
}

void MaskEditorPresenter::beginStroke(double radius) {
    if (strokeActive_) endStroke();
    strokeActive_ = hasImage();
    strokeRadius_ = radius;
    lastDab_.reset();
    strokeDiff_ = {};
}

// Paint the segment from the previous dab (a disc for the first) at once.
void MaskEditorPresenter::addDab(mask::Point point) {
    if (!strokeActive_) return;
    mask::BrushStroke segment{strokeRadius_, {}};
    if (lastDab_) segment.dabs.push_back(*lastDab_);
    segment.dabs.push_back(point);
    lastDab_ = point;
    mask::mergeDiff(strokeDiff_,
                    mask::applyPixels(painted_, mask::rasterize(segment, height_, width_), mode_));
    refreshMask();
}

void MaskEditorPresenter::endStroke() {
    if (!strokeActive_) return;
    strokeActive_ = false;
    if (strokeDiff_.empty()) return;
    pushEdit("brush stroke", std::move(strokeDiff_), nullptr);
    strokeDiff_ = {};
}

void MaskEditorPresenter::brushStroke(double radius, const std::vector<mask::Point>& dabs) {
    beginStroke(radius);
    for (const mask::Point& p : dabs)
        addDab(p);
    endStroke();
}

void MaskEditorPresenter::threshold(const Array& image, const mask::Threshold& t) {
    if (!hasImage()) return;
    checkShape(image.height(), image.width(), "threshold image");
    static const char* names[] = {"below", "between", "above", "NaN"};
    pushEdit(QString("threshold %1").arg(names[t.mode]),
             mask::applyPixels(painted_, mask::thresholdPixels(image, t), mode_), nullptr);
}

// Invert and clear act on the mask in force, so the pending shapes are rasterised first.
void MaskEditorPresenter::invert() {
    if (!hasImage()) return;
    MaskDiff diff = burnShapes();
    mask::mergeDiff(
        diff, mask::applyPixels(painted_, mask::allPixels(height_ * width_), EditMode::Toggle));
    const std::vector<ShapeEdit> none;
    pushEdit("invert", std::move(diff), shapes_.empty() ? nullptr : &none);
}

void MaskEditorPresenter::clear() {
    if (!hasImage()) return;
    MaskDiff diff =
        mask::applyPixels(painted_, mask::allPixels(height_ * width_), EditMode::Unmask);
    const std::vector<ShapeEdit> none;
    pushEdit("clear", std::move(diff), shapes_.empty() ? nullptr : &none);
}

// Replace the whole mask (pending shapes dropped): the pixels whose state differs are toggled.
void MaskEditorPresenter::replaceMask(const PixelMask& mask, const QString& what) {
    checkShape(mask.height, mask.width, "pixel mask");
    mask::PixelSet changed;
    for (std::size_t i = 0; i < mask.bad.size(); ++i)
        if ((mask.bad[i] != 0) != (painted_.bad[i] != 0))
            changed.push_back(static_cast<std::uint32_t>(i));
    MaskDiff diff = mask::applyPixels(painted_, changed, EditMode::Toggle);
    const std::vector<ShapeEdit> none;
    pushEdit(what, std::move(diff), shapes_.empty() ? nullptr : &none);
}

void MaskEditorPresenter::checkShape(std::size_t height, std::size_t width,
                                     const QString& what) const {
    if (height == height_ && width == width_) return;
    throw InputError(QString("the %1 is %2 x %3 pixels but the image is %4 x %5")
                         .arg(what)
                         .arg(height)
                         .arg(width)
                         .arg(height_)
                         .arg(width_)
                         .toStdString());
}

} // namespace clscope::ui
