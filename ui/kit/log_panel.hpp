// The Log panel: time-stamped messages; errors in red with their full text (build logs).
#pragma once
#include <QWidget>

class QPlainTextEdit;

namespace clscope::ui {

enum class LogLevel { Info, Warning, Error };

class LogPanel : public QWidget {
    Q_OBJECT
  public:
    explicit LogPanel(QWidget* parent = nullptr);
    void append(LogLevel level, const QString& text);
    QString text() const;
    QPlainTextEdit* view() const { return view_; }

  private:
    QPlainTextEdit* view_ = nullptr;
};

} // namespace clscope::ui
