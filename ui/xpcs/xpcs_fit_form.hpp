// The fit options of the XPCS panel: single or stretched exponential, and for baseline, β and
// α a start/fixed value, "fix", and lower/upper bounds.
#pragma once
#include "ui/xpcs/xpcs_presenter.hpp"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;

namespace clscope::ui {

class XpcsFitForm : public QGroupBox {
    Q_OBJECT
  public:
    explicit XpcsFitForm(QWidget* parent = nullptr);

    XpcsFitOptions options() const;
    void setOptions(const XpcsFitOptions& options);
    QComboBox* modelBox() const { return model_; }

  signals:
    void refitRequested();

  private:
    struct Row {
        QDoubleSpinBox* value = nullptr;
        QCheckBox* fixed = nullptr;
        QDoubleSpinBox *lower = nullptr, *upper = nullptr;
    };
    Row addRow(int row, const QString& name, const QString& tip);
    void addTauRange(QGridLayout* grid, int row);
    static xpcs::FitParameter read(const Row& row);
    static void write(const Row& row, const xpcs::FitParameter& p);
    void updateEnabled();
    QComboBox* model_ = nullptr;
    Row baseline_, beta_, alpha_;
    QDoubleSpinBox *tauMin_ = nullptr, *tauMax_ = nullptr;
};

} // namespace clscope::ui
