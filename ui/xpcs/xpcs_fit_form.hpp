// The fit options of the XPCS panel: single or stretched exponential, the τ range, and for
// baseline, β and α a value and "fix", or lower/upper bounds. It shows and edits the xpcs fit
// parameters (core/xpcs/fit_params.hpp) that the panel's ParamForm holds: what Run sends to
// the run, its command line, its `parameters` and the session.
#pragma once
#include "core/xpcs/fit_bins.hpp"

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

    // What the widgets say (the τ(q) law: as last set; the panel's form shows it).
    xpcs::FitOptions options() const;
    // Shows options without emitting edited().
    void setOptions(const xpcs::FitOptions& options);
    QComboBox* modelBox() const { return model_; }

  signals:
    void refitRequested();
    // The user changed a value.
    void edited();

  private:
    struct Row {
        QDoubleSpinBox* value = nullptr;
        QCheckBox* fixed = nullptr;
        QDoubleSpinBox *lower = nullptr, *upper = nullptr;
    };
    Row addRow(int row, const QString& name, const QString& tip, bool unboundable);
    void addTauRange(QGridLayout* grid, int row);
    static xpcs::FitParameter read(const Row& row);
    static void write(const Row& row, const xpcs::FitParameter& p);
    void updateEnabled();
    QComboBox* model_ = nullptr;
    Row baseline_, beta_, alpha_;
    QDoubleSpinBox *tauMin_ = nullptr, *tauMax_ = nullptr;
    xpcs::FitOptions shown_; // the last options set (keeps what the box does not show)
    bool setting_ = false;
};

} // namespace clscope::ui
