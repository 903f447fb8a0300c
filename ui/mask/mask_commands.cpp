#include "ui/mask/mask_commands.hpp"

#include "ui/mask/mask_presenter.hpp"

namespace clscope::ui {

MaskEditCommand::MaskEditCommand(MaskEditorPresenter& editor, const QString& text,
                                 mask::MaskDiff diff, std::optional<ShapeChange> shapes)
    : editor_(editor), diff_(std::move(diff)), shapes_(std::move(shapes)) {
    setText(text);
}

void MaskEditCommand::undo() {
    editor_.applyDiff(diff_, true, shapes_ ? &shapes_->before : nullptr);
}

void MaskEditCommand::redo() {
    editor_.applyDiff(diff_, false, shapes_ ? &shapes_->after : nullptr);
}

} // namespace clscope::ui
