// File ▸ Generate synthetic dataset: every synthetic kind of the registered algorithms
// (Algorithm::syntheticKinds), each with the generic parameter form of its declared specs (the
// options of `clscope-cli generate KIND`), plus the seed, compression and output every kind
// takes.
#pragma once
#include "ui/data/generate_request.hpp"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace clscope::ui {

class ParamForm;

class GenerateDialog : public QDialog {
    Q_OBJECT
  public:
    explicit GenerateDialog(QWidget* parent = nullptr);
    // The shown kind with the form's option values.
    GenerateRequest request() const;
    QString outputPath() const;
    void setOutputPath(const QString& path);
    // Shows the kind of that name (the output file is renamed after it); false when unknown.
    bool setKind(const QString& kind);
    // The form of the shown kind.
    ParamForm& options() const;

  private:
    QLayout* commonRows();
    void addKinds();
    void kindChosen(int index);

    QComboBox* kindBox_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QComboBox* compression_ = nullptr;
    QLineEdit* output_ = nullptr;
};

} // namespace clscope::ui
