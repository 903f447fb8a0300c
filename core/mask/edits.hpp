// Undoable edits of a pixel mask (non-zero = masked) that store diffs, not copies.
//
// A MaskDiff lists only pixels whose masked state changed, with their old values. Since a
// pixel's masked state is binary, its new value is (old != 0 ? 0 : 1): undo writes the old
// values back, redo writes the new ones. Both are idempotent, so a QUndoCommand may wrap a
// diff that was already applied (QUndoStack::push calls redo() once more; nothing changes).
#pragma once
#include "core/data.hpp"
#include "core/mask/shapes.hpp"

#include <cstdint>
#include <vector>

namespace clscope::mask {

enum class EditMode { Mask, Unmask, Toggle };

struct MaskDiff {
    std::vector<std::uint32_t> pixels;   // ascending
    std::vector<std::uint8_t> oldValues; // same length
    bool empty() const { return pixels.empty(); }
    std::size_t size() const { return pixels.size(); }
};

// Low-level operations on a mask; pixels must lie inside it (any order, repeats ignored).
MaskDiff applyPixels(PixelMask& mask, const PixelSet& pixels, EditMode mode);
void undoDiff(PixelMask& mask, const MaskDiff& diff);
void redoDiff(PixelMask& mask, const MaskDiff& diff);
// Folds a later diff (made after `earlier` on the same mask) into `earlier`: a pixel keeps its
// first old value; pixels that end at their first value are dropped.
void mergeDiff(MaskDiff& earlier, const MaskDiff& later);

// A shape with what it does: the editable vector form of a mask (BornAgain style), applied in
// order onto a base mask when a run starts.
struct ShapeEdit {
    MaskShape shape;
    EditMode mode = EditMode::Mask;
};
PixelMask rasterizeEdits(const std::vector<ShapeEdit>& edits, PixelMask base);

// A mask with an undo history. Every edit is one undo step and returns its diff (empty when
// nothing changed; empty diffs are not recorded). A new edit clears the redo steps. Brush
// dabs between beginStroke and endStroke paint at once and become one undo step; any other
// call ends an open stroke first.
class MaskEditor {
  public:
    MaskEditor(std::size_t height, std::size_t width);
    explicit MaskEditor(PixelMask initial);

    const PixelMask& mask() const { return mask_; }

    const MaskDiff& apply(const MaskShape& shape, EditMode mode);
    const MaskDiff& applyPixels(const PixelSet& pixels, EditMode mode);
    const MaskDiff& applyThreshold(const Array& image, const Threshold& t, EditMode mode);
    const MaskDiff& invert(); // every pixel toggled
    const MaskDiff& clear();  // every pixel unmasked
    // Replaces the whole mask (e.g. loaded from a file) as one undoable step.
    const MaskDiff& replace(const PixelMask& mask);

    void beginStroke(double radius, EditMode mode);
    void addDab(Point p); // paints the segment from the previous dab (a disc for the first)
    const MaskDiff& endStroke();
    bool strokeActive() const { return strokeActive_; }
    const BrushStroke& stroke() const { return stroke_; } // the open or last stroke

    bool canUndo() const { return done_ > 0; }
    bool canRedo() const { return done_ < history_.size(); }
    std::size_t undoCount() const { return done_; }
    std::size_t redoCount() const { return history_.size() - done_; }
    void undo();
    void redo();

  private:
    const MaskDiff& record(MaskDiff diff);
    PixelMask mask_;
    std::vector<MaskDiff> history_; // [0, done_) applied, [done_, end) undone
    std::size_t done_ = 0;
    bool strokeActive_ = false;
    EditMode strokeMode_ = EditMode::Mask;
    BrushStroke stroke_;
    MaskDiff strokeDiff_;
    PixelSet strokeCovered_; // pixels under the open stroke
    MaskDiff none_;
};

} // namespace clscope::mask
