// File ▸ Export plot: which plot, format (PNG, PDF, JPG), size in pixels, output file.
#pragma once
#include <QDialog>
#include <QStringList>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace clscope::ui {

class ExportPlotDialog : public QDialog {
    Q_OBJECT
  public:
    ExportPlotDialog(const QStringList& plotNames, const QString& current,
                     QWidget* parent = nullptr);
    QString plotName() const;
    QString path() const;
    int plotWidth() const;
    int plotHeight() const;
    void setSize(int width, int height);

  private:
    QComboBox *plotBox_ = nullptr, *formatBox_ = nullptr;
    QSpinBox *width_ = nullptr, *height_ = nullptr;
    QLineEdit* path_ = nullptr;
};

} // namespace clscope::ui
