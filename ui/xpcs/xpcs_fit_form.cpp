#include "ui/xpcs/xpcs_fit_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScopedValueRollback>
#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::ui {

namespace {
constexpr double unbounded = 1000;   // a bound box at ±this end means "no bound"
constexpr double tauUnbounded = 1e9; // the τ max box at this end means "auto"

// Shows its ends as −∞ and +∞.
class BoundSpinBox : public QDoubleSpinBox {
  public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override {
        if (value >= maximum()) return "+∞";
        if (value <= minimum()) return "−∞";
        return QDoubleSpinBox::textFromValue(value);
    }
    double valueFromText(const QString& text) const override {
        if (text.contains("+∞")) return maximum();
        if (text.contains("∞")) return minimum();
        return QDoubleSpinBox::valueFromText(text);
    }
    QValidator::State validate(QString& text, int& pos) const override {
        return text.contains("∞") ? QValidator::Acceptable : QDoubleSpinBox::validate(text, pos);
    }
};

// τ max: its top end means "auto" (the first third of the lags).
class AutoSpinBox : public QDoubleSpinBox {
  public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override {
        return value >= maximum() ? "auto" : QDoubleSpinBox::textFromValue(value);
    }
    double valueFromText(const QString& text) const override {
        return text.contains("auto") ? maximum() : QDoubleSpinBox::valueFromText(text);
    }
    QValidator::State validate(QString& text, int& pos) const override {
        return text.contains("auto") ? QValidator::Acceptable : QDoubleSpinBox::validate(text, pos);
    }
};

QDoubleSpinBox* spin(QWidget* parent, double lo, double hi, bool bound = false) {
    QDoubleSpinBox* box = bound ? new BoundSpinBox(parent) : new QDoubleSpinBox(parent);
    box->setRange(lo, hi);
    box->setDecimals(3);
    box->setSingleStep(0.05);
    box->setButtonSymbols(QAbstractSpinBox::NoButtons); // narrow: the dock is narrow
    box->setMinimumWidth(48);
    return box;
}
} // namespace

XpcsFitForm::XpcsFitForm(QWidget* parent) : QGroupBox("Fit", parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(6, 6, 6, 6);
    grid->setHorizontalSpacing(4);
    model_ = new QComboBox(this);
    for (const std::string& name : xpcs::shapeNames()) { // the choices of the parameter "fit"
        model_->addItem(QString::fromStdString(name), QString::fromStdString(name));
        model_->setItemData(model_->count() - 1,
                            QString::fromStdString(xpcs::shapeFormula(xpcs::shapeFrom(name))),
                            Qt::ToolTipRole);
    }
    model_->setToolTip("g₂(τ) with b the baseline; β₂, Γ₂ (double) and v (flow, needs q) are "
                       "started from the data");
    grid->addWidget(model_, 0, 0, 1, 5);
    int column = 0;
    for (const char* head : {"", "value", "fix", "min", "max"})
        grid->addWidget(new QLabel(head, this), 1, column++);
    baseline_ = addRow(2, "baseline", "g₂ at long τ", true);
    beta_ = addRow(3, "β", "contrast (speckle visibility)", false);
    alpha_ = addRow(4, "α", "stretching exponent (1: simple exponential)", false);
    addTauRange(grid, 5);
    auto* refit = new QPushButton("Refit", this);
    refit->setToolTip("Run again with these fit settings: they are parameters of the run (its "
                      "command line, exports and /xpcs/fit)");
    grid->addWidget(refit, 6, 0, 1, 5);
    setOptions({});
    connect(model_, &QComboBox::currentIndexChanged, this, [this] { updateEnabled(); });
    for (QDoubleSpinBox* box : findChildren<QDoubleSpinBox*>())
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            if (!setting_) emit edited();
        });
    for (QCheckBox* box : findChildren<QCheckBox*>())
        connect(box, &QCheckBox::toggled, this, [this] {
            if (!setting_) emit edited();
        });
    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        if (!setting_) emit edited();
    });
    connect(refit, &QPushButton::clicked, this, &XpcsFitForm::refitRequested);
}

// The lags fitted, tauMin < τ ≤ tauMax, in the result's τ unit (s or frames).
void XpcsFitForm::addTauRange(QGridLayout* grid, int row) {
    auto* label = new QLabel("τ range", this);
    label->setToolTip("Fit only the lags with min < τ ≤ max (in the result's τ unit: s when the "
                      "frame time is known, else frames); max auto: the first third of the lags");
    tauMin_ = spin(this, 0, tauUnbounded);
    tauMax_ = new AutoSpinBox(this);
    tauMax_->setRange(0, tauUnbounded);
    tauMax_->setButtonSymbols(QAbstractSpinBox::NoButtons);
    for (QDoubleSpinBox* box : {tauMin_, tauMax_}) {
        box->setDecimals(6);
        box->setSingleStep(0.001);
    }
    tauMax_->setValue(tauUnbounded);
    grid->addWidget(label, row, 0);
    grid->addWidget(tauMin_, row, 1, 1, 2);
    grid->addWidget(tauMax_, row, 3, 1, 2);
}

// Bounds: baseline's may be open (±∞ at the box's ends); β's and α's are numbers.
XpcsFitForm::Row XpcsFitForm::addRow(int row, const QString& name, const QString& tip,
                                     bool unboundable) {
    auto* grid = static_cast<QGridLayout*>(layout());
    Row r;
    auto* label = new QLabel(name, this);
    label->setToolTip(tip);
    r.value = spin(this, -100, 100);
    r.fixed = new QCheckBox(this);
    r.value->setToolTip("The value of " + name + " when fixed (free: started from the data)");
    r.fixed->setToolTip("Keep " + name + " at the value");
    const double end = unboundable ? unbounded : 100; // below ±unbounded: never "no bound"
    r.lower = spin(this, -end, end, unboundable);
    r.upper = spin(this, -end, end, unboundable);
    grid->addWidget(label, row, 0);
    grid->addWidget(r.value, row, 1);
    grid->addWidget(r.fixed, row, 2);
    grid->addWidget(r.lower, row, 3);
    grid->addWidget(r.upper, row, 4);
    connect(r.fixed, &QCheckBox::toggled, this, [this] { updateEnabled(); });
    return r;
}

xpcs::FitParameter XpcsFitForm::read(const Row& row) {
    xpcs::FitParameter p;
    p.value = row.value->value();
    p.fixed = row.fixed->isChecked();
    const double inf = std::numeric_limits<double>::infinity();
    p.lower = row.lower->value() <= -unbounded ? -inf : row.lower->value();
    p.upper = row.upper->value() >= unbounded ? inf : row.upper->value();
    return p;
}

void XpcsFitForm::write(const Row& row, const xpcs::FitParameter& p) {
    row.value->setValue(p.value);
    row.fixed->setChecked(p.fixed);
    row.lower->setValue(std::isfinite(p.lower) ? p.lower : -unbounded);
    row.upper->setValue(std::isfinite(p.upper) ? p.upper : unbounded);
}

xpcs::FitOptions XpcsFitForm::options() const {
    xpcs::FitOptions o = shown_;
    o.shape = xpcs::shapeFrom(model_->currentData().toString().toStdString());
    o.baseline = read(baseline_);
    o.beta = read(beta_);
    o.alpha = read(alpha_);
    o.tauMin = tauMin_->value();
    o.tauMax = tauMax_->value() >= tauUnbounded ? std::numeric_limits<double>::quiet_NaN()
                                                : tauMax_->value();
    return o;
}

void XpcsFitForm::setOptions(const xpcs::FitOptions& options) {
    const QScopedValueRollback<bool> quiet(setting_, true);
    shown_ = options;
    model_->setCurrentIndex(
        std::max(0, model_->findData(QString::fromStdString(xpcs::shapeName(options.shape)))));
    write(baseline_, options.baseline);
    write(beta_, options.beta);
    write(alpha_, options.alpha);
    tauMin_->setValue(options.tauMin);
    tauMax_->setValue(std::isfinite(options.tauMax) ? options.tauMax : tauUnbounded);
    updateEnabled();
}

// α only matters for the stretched model; bounds only for free parameters.
void XpcsFitForm::updateEnabled() {
    const bool stretched = model_->currentData().toString() == "stretched";
    for (const Row* row : {&baseline_, &beta_, &alpha_}) {
        const bool active = row != &alpha_ || stretched;
        row->value->setEnabled(active);
        row->fixed->setEnabled(active);
        row->lower->setEnabled(active && !row->fixed->isChecked());
        row->upper->setEnabled(active && !row->fixed->isChecked());
    }
}

} // namespace clscope::ui
