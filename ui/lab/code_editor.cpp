#include "ui/lab/code_editor.hpp"

#include "ui/lab/line_number_area.hpp"
#include "ui/lab/opencl_highlighter.hpp"

#include <QFontDatabase>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>

namespace clscope::ui {

namespace {

QColor markColor(const QString& kind) {
    if (kind.contains("error")) return QColor(0xff, 0xd0, 0xd0);
    if (kind == "warning") return QColor(0xff, 0xf0, 0xb0);
    return QColor(0xd8, 0xe8, 0xff);
}

} // namespace

CodeEditor::CodeEditor(QWidget* parent)
    : QPlainTextEdit(parent), gutter_(new LineNumberArea(this)),
      highlighter_(new OpenClHighlighter(document())) {
    setObjectName("LabEditor");
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSize(10);
    setFont(mono);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(4 * fontMetrics().horizontalAdvance(' '));
    connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::updateGutter);
    updateGutterWidth();
}

void CodeEditor::setMarks(const QMap<int, QString>& marks) {
    marks_ = marks;
    showMarks();
    gutter_->update();
}

void CodeEditor::showMarks() {
    QList<QTextEdit::ExtraSelection> selections;
    for (auto it = marks_.begin(); it != marks_.end(); ++it) {
        const QTextBlock block = document()->findBlockByNumber(it.key() - 1);
        if (!block.isValid()) continue;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(markColor(it.value()));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(block);
        selections << s;
    }
    setExtraSelections(selections);
}

void CodeEditor::goToLine(int line) {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid()) return;
    setTextCursor(QTextCursor(block));
    centerCursor();
    setFocus();
}

int CodeEditor::currentLine() const {
    return textCursor().blockNumber() + 1;
}

int CodeEditor::lineNumberAreaWidth() const {
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10)
        ++digits;
    return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3);
}

void CodeEditor::updateGutterWidth() {
    setViewportMargins(lineNumberAreaWidth(), 0, 0, 0);
}

void CodeEditor::updateGutter(const QRect& rect, int dy) {
    if (dy)
        gutter_->scroll(0, dy);
    else
        gutter_->update(0, rect.y(), gutter_->width(), rect.height());
    if (rect.contains(viewport()->rect())) updateGutterWidth();
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    gutter_->setGeometry(QRect(r.left(), r.top(), lineNumberAreaWidth(), r.height()));
}

void CodeEditor::paintLineNumbers(QPaintEvent* event) {
    QPainter painter(gutter_);
    painter.fillRect(event->rect(), QColor(0xf0, 0xf0, 0xf0));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int height = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int line = block.blockNumber() + 1;
        if (block.isVisible() && top + height >= event->rect().top()) {
            const bool marked = marks_.contains(line);
            if (marked) painter.fillRect(0, top, gutter_->width(), height, markColor(marks_[line]));
            painter.setPen(marked ? QColor(0xb0, 0x00, 0x00) : QColor(0x80, 0x80, 0x80));
            painter.drawText(0, top, gutter_->width() - 6, height, Qt::AlignRight,
                             QString::number(line));
        }
        block = block.next();
        top += qRound(blockBoundingRect(block.previous()).height());
    }
}

} // namespace clscope::ui
