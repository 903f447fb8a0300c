#include "ui/params/param_field.hpp"
#include "ui/base/qstring.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QLocale>
#include <QSignalBlocker>
#include <QSpinBox>
#include <cmath>

namespace clscope::ui {

namespace {

using json = nlohmann::json;

// A double spin box that shows the shortest form of its value (0.1, 6, 1e-06), not a fixed
// number of decimals.
class CompactDoubleBox : public QDoubleSpinBox {
  public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override {
        QLocale l = locale();
        l.setNumberOptions(QLocale::OmitGroupSeparator);
        return l.toString(value, 'g', 12);
    }
};

// A step of about half the default's order of magnitude (6 -> 0.5, 0.1 -> 0.05).
double stepFor(const json& value) {
    const double v = value.is_number() ? std::abs(value.get<double>()) : 0.0;
    return v > 0 ? std::pow(10.0, std::floor(std::log10(v))) / 2 : 0.1;
}

ParamField spinField(const ParamSpec& s, QWidget* parent, const std::function<void()>& edited) {
    ParamField f{s, nullptr, {}, {}};
    const double low = s.min.value_or(s.type == ParamSpec::Type::Int ? -(1 << 30) : -1e12);
    const double high = s.max.value_or(s.type == ParamSpec::Type::Int ? (1 << 30) : 1e12);
    if (s.type == ParamSpec::Type::Int) {
        auto* box = new QSpinBox(parent);
        box->setRange(static_cast<int>(low), static_cast<int>(high));
        box->setMinimumWidth(60); // not the width of 2^30
        box->setKeyboardTracking(false);
        QObject::connect(box, &QSpinBox::valueChanged, box, [edited] { edited(); });
        f.value = [box] { return json(box->value()); };
        f.show = [box](const json& v) {
            const QSignalBlocker block(box);
            box->setValue(static_cast<int>(v.get<double>()));
        };
        f.widget = box;
        return f;
    }
    auto* box = new CompactDoubleBox(parent);
    box->setDecimals(12);
    box->setRange(low, high);
    box->setSingleStep(stepFor(s.defaultValue));
    box->setKeyboardTracking(false);
    QObject::connect(box, &QDoubleSpinBox::valueChanged, box, [edited] { edited(); });
    f.value = [box] { return json(box->value()); };
    f.show = [box](const json& v) {
        const QSignalBlocker block(box);
        box->setValue(v.get<double>());
    };
    f.widget = box;
    return f;
}

QString textOf(const ParamSpec& s, const json& v) {
    if (v.is_null()) return {};
    if (v.is_string()) return q(v.get<std::string>());
    if (s.type == ParamSpec::Type::IntList && v.is_array()) {
        QStringList items;
        for (const json& item : v)
            items << q(item.dump());
        return items.join(',');
    }
    return q(v.dump());
}

// Text, IntList and parameters that may be unset: read as the command line reads the flag;
// empty is unset where the default is.
ParamField textField(const ParamSpec& s, QWidget* parent, const std::function<void()>& edited) {
    auto* line = new QLineEdit(parent);
    if (s.defaultValue.is_null()) line->setPlaceholderText("default");
    QObject::connect(line, &QLineEdit::editingFinished, line, [edited] { edited(); });
    ParamField f{s, line, {}, {}};
    f.value = [line, s]() -> json {
        const std::string text = line->text().trimmed().toStdString();
        if (text.empty() && s.defaultValue.is_null()) return nullptr;
        if (text.empty() && s.type == ParamSpec::Type::IntList) return json::array();
        return parseParamText(s, text);
    };
    f.show = [line, s](const json& v) {
        const QSignalBlocker block(line);
        line->setText(textOf(s, v));
    };
    return f;
}

ParamField checkField(const ParamSpec& s, QWidget* parent, const std::function<void()>& edited) {
    auto* box = new QCheckBox(parent);
    QObject::connect(box, &QCheckBox::toggled, box, [edited] { edited(); });
    ParamField f{s, box, {}, {}};
    f.value = [box] { return json(box->isChecked()); };
    f.show = [box](const json& v) {
        const QSignalBlocker block(box);
        box->setChecked(v.is_boolean() && v.get<bool>());
    };
    return f;
}

ParamField choiceField(const ParamSpec& s, QWidget* parent, const std::function<void()>& edited) {
    auto* box = new QComboBox(parent);
    for (const std::string& choice : s.choices)
        box->addItem(q(choice));
    QObject::connect(box, &QComboBox::currentIndexChanged, box, [edited] { edited(); });
    ParamField f{s, box, {}, {}};
    f.value = [box] { return json(box->currentText().toStdString()); };
    f.show = [box](const json& v) {
        const QSignalBlocker block(box);
        box->setCurrentText(v.is_string() ? q(v.get<std::string>()) : QString());
    };
    return f;
}

} // namespace

ParamField makeParamField(const ParamSpec& spec, QWidget* parent, std::function<void()> edited) {
    using T = ParamSpec::Type;
    const bool unsettable = spec.defaultValue.is_null();
    ParamField f;
    if ((spec.type == T::Int || spec.type == T::Double) && !unsettable)
        f = spinField(spec, parent, edited);
    else if (spec.type == T::Bool)
        f = checkField(spec, parent, edited);
    else if (spec.type == T::Choice)
        f = choiceField(spec, parent, edited);
    else
        f = textField(spec, parent, edited);
    f.widget->setObjectName(q("param_" + spec.name));
    f.widget->setToolTip(paramToolTip(spec));
    f.show(spec.defaultValue);
    return f;
}

QString paramLabel(const ParamSpec& spec) {
    const QString label = q(spec.label.empty() ? spec.name : spec.label);
    return spec.unit.empty() ? label : QString("%1 (%2)").arg(label, q(spec.unit));
}

QString paramToolTip(const ParamSpec& spec) {
    QString tip = q(spec.help);
    tip += QString("\n\n%1").arg(q(spec.name));
    if (!spec.flag.empty()) tip += QString(", clscope-cli %1").arg(q(spec.flag));
    return tip;
}

} // namespace clscope::ui
