// The gutter of the lab's code editor: it asks the editor to paint the line numbers.
#pragma once
#include <QWidget>

namespace clscope::ui {

class CodeEditor;

class LineNumberArea : public QWidget {
    Q_OBJECT
  public:
    explicit LineNumberArea(CodeEditor* editor);
    QSize sizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    CodeEditor* editor_;
};

} // namespace clscope::ui
