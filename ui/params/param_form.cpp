#include "ui/params/param_form.hpp"

#include "core/errors.hpp"
#include "core/json_parse.hpp"
#include "gpu/algorithm.hpp"
#include "ui/params/param_field.hpp"

#include <QFormLayout>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

namespace clscope::ui {

namespace {

QString settingsKey(const std::string& group, const std::string& name) {
    return QString::fromStdString("parameters/" + group + "/" + name);
}

} // namespace

ParamForm::ParamForm(const Algorithm& algorithm, const QString& title, std::set<std::string> omit,
                     Check check, QWidget* parent)
    : ParamForm(algorithm.id(), algorithm.parameterSpecs(), title, std::move(omit),
                std::move(check), parent) {}

ParamForm::ParamForm(std::string group, std::vector<ParamSpec> specs, const QString& title,
                     std::set<std::string> omit, Check check, QWidget* parent)
    : QGroupBox(title, parent), group_(std::move(group)), values_(std::move(specs)),
      check_(std::move(check)) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);
    layout_ = new QFormLayout;
    outer->addLayout(layout_);
    addFields(values_.specs(), omit);
    auto* reset = new QPushButton("Defaults", this);
    reset->setToolTip("Every parameter back at its default");
    connect(reset, &QPushButton::clicked, this, [this] { resetToDefaults(); });
    outer->addWidget(reset, 0, Qt::AlignRight);
    restore();
}

ParamForm::~ParamForm() = default;

// The advanced ones last, under their toggle.
void ParamForm::addFields(const std::vector<ParamSpec>& specs, const std::set<std::string>& omit) {
    std::vector<ParamSpec> ordered;
    for (const bool advanced : {false, true})
        for (const ParamSpec& spec : specs)
            if (spec.advanced == advanced && !omit.count(spec.name)) ordered.push_back(spec);
    for (const ParamSpec& spec : ordered) {
        const std::string name = spec.name;
        auto field = std::make_unique<ParamField>(
            makeParamField(spec, this, [this, name] { edited(name); }));
        QFormLayout* into = spec.advanced ? advancedLayout() : layout_;
        into->addRow(paramLabel(spec), field->widget);
        fields_[name] = std::move(field);
    }
}

// The advanced parameters: under a button that unfolds them.
QFormLayout* ParamForm::advancedLayout() {
    if (advanced_) return advanced_;
    auto* toggle = new QToolButton(this);
    toggle->setText("Advanced");
    toggle->setCheckable(true);
    toggle->setArrowType(Qt::RightArrow);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto* box = new QWidget(this);
    advanced_ = new QFormLayout(box);
    advanced_->setContentsMargins(0, 0, 0, 0);
    box->setVisible(false);
    connect(toggle, &QToolButton::toggled, box, [toggle, box](bool open) {
        box->setVisible(open);
        toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
    layout_->addRow(toggle);
    layout_->addRow(box);
    return advanced_;
}

void ParamForm::edited(const std::string& name) {
    try {
        take(name, with(name, fields_.at(name)->value()));
    } catch (const UsageError& e) {
        markError(name, QString::fromStdString(e.what())); // the previous value stays
        return;
    }
    emit changed();
}

ParamSet ParamForm::with(const std::string& name, const nlohmann::json& value) const {
    ParamSet next = values_;
    next.set(name, value);
    if (check_) check_(next);
    return next;
}

void ParamForm::take(const std::string& name, ParamSet next) {
    values_ = std::move(next);
    markError(name, {});
    save(name);
}

void ParamForm::setValue(const std::string& name, const nlohmann::json& value) {
    take(name, with(name, value));
    if (const auto it = fields_.find(name); it != fields_.end())
        it->second->show(values_.get(name));
    emit changed();
}

void ParamForm::resetToDefaults() {
    for (const auto& [name, field] : fields_) {
        values_.set(name, field->spec.defaultValue);
        markError(name, {});
        QSettings().remove(settingsKey(group_, name));
        field->show(field->spec.defaultValue);
    }
    emit changed();
}

QWidget* ParamForm::field(const std::string& name) const {
    const auto it = fields_.find(name);
    return it == fields_.end() ? nullptr : it->second->widget;
}

QString ParamForm::error(const std::string& name) const {
    const auto it = errors_.find(name);
    return it == errors_.end() ? QString() : it->second;
}

// The saved values of the shown parameters; one that is no longer valid is dropped.
void ParamForm::restore() {
    QSettings settings;
    for (const auto& [name, field] : fields_) {
        const QString key = settingsKey(group_, name);
        if (!settings.contains(key)) continue;
        const auto saved = parseJsonQuietly(settings.value(key).toString().toStdString());
        try {
            values_ = with(name, saved);
        } catch (const UsageError&) {
            settings.remove(key);
        }
        field->show(values_.get(name));
    }
}

void ParamForm::save(const std::string& name) const {
    if (!fields_.count(name)) return; // omitted: the panel's own
    QSettings().setValue(settingsKey(group_, name),
                         QString::fromStdString(values_.get(name).dump()));
}

void ParamForm::markError(const std::string& name, const QString& message) {
    const auto it = fields_.find(name);
    if (message.isEmpty())
        errors_.erase(name);
    else
        errors_[name] = message;
    if (it == fields_.end()) return;
    QWidget* w = it->second->widget;
    w->setStyleSheet(message.isEmpty() ? QString() : QString("background: #f4c7c3;"));
    w->setToolTip(message.isEmpty() ? paramToolTip(it->second->spec)
                                    : message + "\n\n" + paramToolTip(it->second->spec));
}

} // namespace clscope::ui
