// The kernel lab's editor: a QPlainTextEdit in a fixed-width font with line numbers in a
// gutter, OpenCL C colouring (OpenClHighlighter), and build messages marked at their lines
// (the line's background, the number in the gutter coloured); goToLine() puts the cursor there.
#pragma once
#include <QMap>
#include <QPlainTextEdit>

namespace clscope::ui {

class LineNumberArea;
class OpenClHighlighter;

class CodeEditor : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit CodeEditor(QWidget* parent = nullptr);

    // Lines (1-based) marked with their message's kind ("error", "warning", "note").
    void setMarks(const QMap<int, QString>& marks);
    const QMap<int, QString>& marks() const { return marks_; }
    void goToLine(int line);
    int currentLine() const;
    OpenClHighlighter* highlighter() const { return highlighter_; }

    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent* event);

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void updateGutterWidth();
    void updateGutter(const QRect& rect, int dy);
    void showMarks();

    LineNumberArea* gutter_;
    OpenClHighlighter* highlighter_;
    QMap<int, QString> marks_;
};

} // namespace clscope::ui
