// The kernel lab's history panel: every lab row kept (LabHistory), newest first — date, row,
// result, median ms, device, source sha256 (first digits), tunables — with Export CSV… and Export
// JSON….
#pragma once
#include "ui/lab/lab_history.hpp"

#include <QWidget>

class QTreeWidget;

namespace clscope::ui {

class LabHistoryView : public QWidget {
    Q_OBJECT
  public:
    explicit LabHistoryView(QWidget* parent = nullptr);
    // Keeps one run's rows and shows them.
    void record(const nlohmann::json& rows, const std::string& from);
    LabHistory& history() { return history_; }
    // Reads the file again (another folder of user variants, e.g. in tests).
    void reload();

  private:
    void refill();
    void exportDialog(bool csv);

    LabHistory history_;
    QTreeWidget* list_;
};

} // namespace clscope::ui
