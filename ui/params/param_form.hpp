// The one parameter form of every algorithm panel, built from Algorithm::parameterSpecs():
// one editor per parameter (ui/params/param_field.hpp), the advanced ones folded away. Its
// values are always a valid parameter set: an edit that the spec (or the panel's check)
// refuses is marked red with the reason and not taken. The values are the JSON that
// `clscope-cli ALGO --params` takes, and persist across restarts in QSettings under
// "parameters/<algorithm id>/<parameter name>". The same form shows any other declared specs
// (the Generate dialog: each synthetic kind's options).
#pragma once
#include "core/params.hpp"

#include <QGroupBox>
#include <functional>
#include <map>
#include <set>
#include <string>

class QFormLayout;

namespace clscope {
class Algorithm;
}

namespace clscope::ui {

struct ParamField;

class ParamForm : public QGroupBox {
    Q_OBJECT
  public:
    // Checks a whole parameter set beyond each spec (e.g. the algorithm's own parameters());
    // throws UsageError saying what is wrong.
    using Check = std::function<void(const ParamSet&)>;

    // The form of the algorithm's parameters but those in `omit` (the panel shows them its own
    // way and sets them with setValue). Restores the saved values and saves each edit.
    ParamForm(const Algorithm& algorithm, const QString& title, std::set<std::string> omit = {},
              Check check = {}, QWidget* parent = nullptr);
    // The form of any declared specs (e.g. a synthetic kind's options), its values saved under
    // "parameters/<group>/<parameter name>".
    ParamForm(std::string group, std::vector<ParamSpec> specs, const QString& title,
              std::set<std::string> omit = {}, Check check = {}, QWidget* parent = nullptr);
    ~ParamForm() override;

    // The settings group: the algorithm id, or the form's own.
    const std::string& group() const { return group_; }
    // Every parameter of the algorithm: the form's values, the omitted ones as last set.
    const ParamSet& paramSet() const { return values_; }
    const nlohmann::json& value(const std::string& name) const { return values_.get(name); }
    // Sets, shows and saves one value; UsageError (and nothing changed) when it is not valid.
    void setValue(const std::string& name, const nlohmann::json& value);
    // Every parameter back at its default.
    void resetToDefaults();
    // The editor of a parameter (nullptr when omitted or unknown).
    QWidget* field(const std::string& name) const;
    // The reason the last edit of a field was refused (empty: its value is taken).
    QString error(const std::string& name) const;

  signals:
    // A value changed (by an edit, setValue or resetToDefaults).
    void changed();

  private:
    void addFields(const std::vector<ParamSpec>& specs, const std::set<std::string>& omit);
    QFormLayout* advancedLayout();
    void edited(const std::string& name);
    // The values with this one set; UsageError when the spec or the check refuses it.
    ParamSet with(const std::string& name, const nlohmann::json& value) const;
    void take(const std::string& name, ParamSet next);
    void restore();
    void save(const std::string& name) const;
    void markError(const std::string& name, const QString& message);

    std::string group_; // the settings group: the algorithm id, or the form's own
    ParamSet values_;
    Check check_;
    std::map<std::string, std::unique_ptr<ParamField>> fields_;
    std::map<std::string, QString> errors_;
    QFormLayout* layout_ = nullptr;
    QFormLayout* advanced_ = nullptr;
};

} // namespace clscope::ui
