// The mask editor's one undo command: a core MaskDiff (the pixels that changed and their old
// values, never a copy of the mask) plus, when the edit touched them, the shape list before
// and after. Redo is idempotent, so an edit applied before QUndoStack::push stays as it is.
#pragma once
#include "core/mask/edits.hpp"

#include <QUndoCommand>
#include <optional>
#include <vector>

namespace clscope::ui {

class MaskEditorPresenter;

class MaskEditCommand : public QUndoCommand {
  public:
    struct ShapeChange {
        std::vector<mask::ShapeEdit> before, after;
    };
    MaskEditCommand(MaskEditorPresenter& editor, const QString& text, mask::MaskDiff diff,
                    std::optional<ShapeChange> shapes);
    void undo() override;
    void redo() override;
    const mask::MaskDiff& diff() const { return diff_; }

  private:
    MaskEditorPresenter& editor_;
    mask::MaskDiff diff_;
    std::optional<ShapeChange> shapes_;
};

} // namespace clscope::ui
