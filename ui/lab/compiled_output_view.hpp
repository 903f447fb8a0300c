// The kernel lab's compiled output: pick a row's program and see what the driver made of it
// (CL_PROGRAM_BINARIES: PTX on NVIDIA, shown as text when it is text, else its size and the
// first bytes in hex), with its build options and build log (verbose on NVIDIA: registers and
// spills); Export… writes it whole. The files are clscope-cli lab --binary's.
#pragma once
#include <QWidget>
#include <nlohmann/json.hpp>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace clscope::ui {

class CompiledOutputView : public QWidget {
    Q_OBJECT
  public:
    explicit CompiledOutputView(QWidget* parent = nullptr);
    // Offers every program of every row that wrote its output; shows the fork's first.
    void showRows(const nlohmann::json& rows);
    int choices() const;
    void choose(int index);
    QString choiceText() const;
    QString shownText() const;
    // Writes the chosen program's compiled output to `path`; "" or why not.
    QString exportTo(const QString& path) const;

  private:
    void showChoice();

    QComboBox* choice_;
    QLabel* info_;
    QPlainTextEdit* text_;
    QPushButton* export_;
    std::vector<nlohmann::json> programs_; // per choice: the program's figures
};

} // namespace clscope::ui
