// An algorithm's parameter set: typed specs with defaults, ranges and units, and the values
// as one JSON object. The same JSON is what `--params FILE.json` loads, what outputs carry in
// their `parameters` attribute and what the GUI builds its form from.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clscope {

struct ParamSpec {
    enum class Type { Int, Double, Bool, Choice, Text, IntList };
    std::string name; // JSON key, e.g. "sigma_b"
    Type type = Type::Double;
    nlohmann::json defaultValue;      // null: unset (optional parameter)
    std::string label;                // for people, e.g. "σ background"
    std::string unit;                 // e.g. "s", "px", "" for none
    std::string help;                 // one line
    std::optional<double> min, max;   // inclusive range of Int and Double (and IntList items)
    std::vector<std::string> choices; // Choice: the allowed texts
    std::string flag;                 // CLI option, e.g. "--sigma-b"; empty: only through --params
    bool advanced = false;            // the GUI folds it away
};

// A spec with its name, type, default and help; set the other fields after.
ParamSpec makeParam(std::string name, ParamSpec::Type type, nlohmann::json defaultValue,
                    std::string help, std::string unit = "");
// The same with its label for people and its command-line flag.
ParamSpec makeOption(std::string name, ParamSpec::Type type, nlohmann::json defaultValue,
                     std::string label, std::string flag, std::string help, std::string unit = "");

// Values of one algorithm's parameters, always valid against the specs.
class ParamSet {
  public:
    ParamSet() = default;
    explicit ParamSet(std::vector<ParamSpec> specs); // every value at its default

    const std::vector<ParamSpec>& specs() const { return specs_; }
    const ParamSpec& spec(const std::string& name) const; // UsageError when unknown
    bool known(const std::string& name) const;

    // Set one value; UsageError naming the parameter, the value and what was expected.
    void set(const std::string& name, const nlohmann::json& value);
    // Set every key of a JSON object (unknown keys are an error naming `origin`).
    void merge(const nlohmann::json& values, const std::string& origin);
    // The argument of --params: a file, or inline JSON when it starts with '{' (a JSON object,
    // or an output's `parameters` attribute, whose provenance keys "input", "device", ... are
    // skipped).
    void mergeFile(const std::string& fileOrJson);

    const nlohmann::json& get(const std::string& name) const;
    bool has(const std::string& name) const { return !get(name).is_null(); }
    double number(const std::string& name) const;
    long long integer(const std::string& name) const;
    bool boolean(const std::string& name) const;
    std::string text(const std::string& name) const;
    std::vector<long long> intList(const std::string& name) const;

    const nlohmann::json& values() const { return values_; }
    std::string dump() const { return values_.dump(); }

  private:
    std::vector<ParamSpec> specs_;
    nlohmann::json values_ = nlohmann::json::object();
};

// A value as typed on the command line, converted for the spec (IntList: "1,2,3"; Double and
// Int: numbers; Choice and Text: as is; a Double that also takes a word, e.g. "auto", is Text).
// UsageError naming the option and what was expected.
nlohmann::json parseParamText(const ParamSpec& spec, const std::string& text);

// Parameters' values given as JSON text (inline --params, CLSCOPE_DEMO_OPTIONS): UsageError
// "ORIGIN: not valid JSON" (InputError past the nesting limit: parseJson).
nlohmann::json parseParamsText(std::string_view text, const std::string& origin);
// The JSON of a --params argument: inline when it starts with '{', else the file's. UsageError
// (InputError for a file that is not a regular file) naming the argument.
nlohmann::json readParamsArgument(const std::string& fileOrJson);

// Keys of a `parameters` attribute that describe the run rather than set a parameter.
bool isProvenanceKey(const std::string& key);

} // namespace clscope
