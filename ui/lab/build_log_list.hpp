// The kernel lab's build log: the fork's errors and warnings, one item per message at its
// line of the edited program ("12:27  error: use of undeclared identifier 'this'"); a click
// (or Enter) tells lineChosen(line), which the window sends to the editor.
#pragma once
#include "gpu/lab/build_log.hpp"

#include <QListWidget>
#include <vector>

namespace clscope::ui {

class BuildLogList : public QListWidget {
    Q_OBJECT
  public:
    explicit BuildLogList(QWidget* parent = nullptr);
    void showMessages(const std::vector<BuildMessage>& messages);
    // One line of text when there are no messages (e.g. "built", "not built: ...").
    void showText(const QString& text);
    // The line an item points at (0: none).
    static int lineOf(const QListWidgetItem* item);

  signals:
    void lineChosen(int line);
};

} // namespace clscope::ui
