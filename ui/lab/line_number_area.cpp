#include "ui/lab/line_number_area.hpp"

#include "ui/lab/code_editor.hpp"

namespace clscope::ui {

LineNumberArea::LineNumberArea(CodeEditor* editor) : QWidget(editor), editor_(editor) {}

QSize LineNumberArea::sizeHint() const {
    return {editor_->lineNumberAreaWidth(), 0};
}

void LineNumberArea::paintEvent(QPaintEvent* event) {
    editor_->paintLineNumbers(event);
}

} // namespace clscope::ui
