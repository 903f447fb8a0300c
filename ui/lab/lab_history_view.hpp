// The kernel lab's history panel: every lab row kept (LabHistory), newest first — date, row,
// result, median ms, device, source sha256 (first digits), tunables — with Export CSV… and Export
// JSON…, and Diff selected: two entries (select two with Ctrl) side by side (gpu/lab/lab_diff.hpp:
// tunables, times, source, options, kernels' figures, compiled output) in a window of text.
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
    QTreeWidget* list() const { return list_; }
    // The diff of the two selected entries (the older as A), or why there is none.
    QString diffSelected() const;

  private:
    void refill();
    void exportDialog(bool csv);
    void showDiff();

    LabHistory history_;
    QTreeWidget* list_;
};

} // namespace clscope::ui
