// The kernel lab's check and timings: one row per run of `clscope-cli lab` (the variant forked
// from, the fork, or each sweep value) with its check (pass/FAIL, or why it did not run), the
// largest deviation and where, kernel min/p20/median/p80 and wall median in ms, as the CLI's
// JSON rows give them. The fastest passing fork row is in bold.
#pragma once
#include <QTableWidget>
#include <nlohmann/json.hpp>

namespace clscope::ui {

class LabRowsTable : public QTableWidget {
    Q_OBJECT
  public:
    explicit LabRowsTable(QWidget* parent = nullptr);
    void showRows(const nlohmann::json& rows, int bestRow);
    // The text of a cell by column title ("row", "check", "median ms", ...), for tests.
    QString cell(int row, const QString& column) const;
    // Row `row`'s check in full: "fork: FAIL — first at …; N of M beyond T" or its note (every
    // line), as the details line under the table shows it (the note column lies far to the
    // right; issue 52). Empty for no such row.
    QString details(int row) const;
    // The first row that did not pass, else -1.
    int firstProblem() const;

  private:
    nlohmann::json rows_ = nlohmann::json::array();
};

} // namespace clscope::ui
