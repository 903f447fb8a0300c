#include "core/params.hpp"

#include "core/errors.hpp"
#include "core/json_parse.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace clscope {

namespace {

std::string typeName(ParamSpec::Type t) {
    switch (t) {
    case ParamSpec::Type::Int:
        return "an integer";
    case ParamSpec::Type::Double:
        return "a number";
    case ParamSpec::Type::Bool:
        return "true or false";
    case ParamSpec::Type::Choice:
        return "one of";
    case ParamSpec::Type::Text:
        return "a word or a finite number";
    case ParamSpec::Type::IntList:
        return "a list of integers";
    }
    return "";
}

std::string rangeText(const ParamSpec& s) {
    if (s.min && s.max)
        return " in [" + nlohmann::json(*s.min).dump() + ", " + nlohmann::json(*s.max).dump() + "]";
    if (s.min) return " >= " + nlohmann::json(*s.min).dump();
    if (s.max) return " <= " + nlohmann::json(*s.max).dump();
    return "";
}

bool inRange(const ParamSpec& s, double v) {
    return std::isfinite(v) && (!s.min || v >= *s.min) && (!s.max || v <= *s.max);
}

bool isInteger(const nlohmann::json& v) {
    if (v.is_number_integer()) return true;
    return v.is_number_float() && std::isfinite(v.get<double>()) &&
           std::floor(v.get<double>()) == v.get<double>() && std::abs(v.get<double>()) < 9.0e15;
}

// A Text value: not empty (unless that is the default), and not a number spelled so that it
// is not finite ("inf", "nan").
bool textWord(const ParamSpec& s, const nlohmann::json& v) {
    const std::string& t = v.get_ref<const std::string&>();
    if (t.empty()) return s.defaultValue == v;
    char* end = nullptr;
    const double d = std::strtod(t.c_str(), &end);
    return end != t.c_str() + t.size() || std::isfinite(d);
}

// The value converted to the spec's type, or nullopt when it does not fit.
std::optional<nlohmann::json> coerce(const ParamSpec& s, const nlohmann::json& v) {
    using T = ParamSpec::Type;
    if (v.is_null()) return s.defaultValue.is_null() ? std::optional(v) : std::nullopt;
    switch (s.type) {
    case T::Int:
        if (isInteger(v) && inRange(s, v.get<double>())) return nlohmann::json(v.get<long long>());
        return std::nullopt;
    case T::Double:
        if (v.is_number() && inRange(s, v.get<double>())) return nlohmann::json(v.get<double>());
        return std::nullopt;
    case T::Bool:
        if (v.is_boolean()) return v;
        return std::nullopt;
    case T::Choice:
        if (v.is_string() &&
            std::find(s.choices.begin(), s.choices.end(), v.get<std::string>()) != s.choices.end())
            return v;
        return std::nullopt;
    case T::Text: // a word or a finite number (e.g. a threshold that also takes "auto")
        if (v.is_number() ? std::isfinite(v.get<double>()) : v.is_string() && textWord(s, v))
            return v;
        return std::nullopt;
    case T::IntList: {
        if (!v.is_array()) return std::nullopt;
        nlohmann::json out = nlohmann::json::array();
        for (const auto& item : v) {
            if (!isInteger(item) || !inRange(s, item.get<double>())) return std::nullopt;
            out.push_back(item.get<long long>());
        }
        return out;
    }
    }
    return std::nullopt;
}

std::string expected(const ParamSpec& s) {
    std::string out = typeName(s.type);
    if (s.type == ParamSpec::Type::Choice) {
        for (std::size_t i = 0; i < s.choices.size(); ++i)
            out += (i ? ", " : " ") + s.choices[i];
    }
    out += rangeText(s);
    if (!s.unit.empty()) out += " (" + s.unit + ")";
    return out;
}

// A whole number as a JSON integer when it converts exactly (|v| < 2^53: the cast is defined),
// else as it was (a fraction, or too large: coerce() refuses it with the range).
nlohmann::json integralJson(double v) {
    if (std::floor(v) == v && std::abs(v) < 9.0e15) return static_cast<long long>(v);
    return v;
}

// A value as echoed in a message: at most 80 characters (a 50 MB --params value is not).
std::string shortened(const std::string& text) {
    if (text.size() <= 80) return text;
    return text.substr(0, 60) + "... (" + std::to_string(text.size()) + " characters)";
}

} // namespace

ParamSpec makeParam(std::string name, ParamSpec::Type type, nlohmann::json defaultValue,
                    std::string help, std::string unit) {
    ParamSpec s;
    s.name = std::move(name), s.type = type, s.defaultValue = std::move(defaultValue);
    s.help = std::move(help), s.unit = std::move(unit);
    return s;
}

ParamSpec makeOption(std::string name, ParamSpec::Type type, nlohmann::json defaultValue,
                     std::string label, std::string flag, std::string help, std::string unit) {
    ParamSpec s =
        makeParam(std::move(name), type, std::move(defaultValue), std::move(help), std::move(unit));
    s.label = std::move(label), s.flag = std::move(flag);
    return s;
}

ParamSet::ParamSet(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {
    for (const ParamSpec& s : specs_)
        values_[s.name] = s.defaultValue;
}

bool ParamSet::known(const std::string& name) const {
    return std::any_of(specs_.begin(), specs_.end(),
                       [&](const ParamSpec& s) { return s.name == name; });
}

const ParamSpec& ParamSet::spec(const std::string& name) const {
    for (const ParamSpec& s : specs_)
        if (s.name == name) return s;
    std::string names;
    for (const ParamSpec& s : specs_)
        names += (names.empty() ? "" : ", ") + s.name;
    throw UsageError("unknown parameter '" + name + "'; parameters: " + names);
}

void ParamSet::set(const std::string& name, const nlohmann::json& value) {
    const ParamSpec& s = spec(name);
    const std::optional<nlohmann::json> v = coerce(s, value);
    if (!v)
        throw UsageError("parameter " + name + " = " + shortened(value.dump()) + ": expected " +
                         expected(s));
    values_[name] = *v;
}

void ParamSet::merge(const nlohmann::json& values, const std::string& origin) {
    if (!values.is_object()) throw UsageError(origin + ": parameters must be a JSON object");
    for (const auto& [key, value] : values.items()) {
        if (isProvenanceKey(key)) continue;
        try {
            set(key, value);
        } catch (const UsageError& e) {
            throw UsageError(origin + ": " + e.what());
        }
    }
}

void ParamSet::mergeFile(const std::string& fileOrJson) {
    const bool inline_ = !fileOrJson.empty() && fileOrJson.front() == '{';
    merge(readParamsArgument(fileOrJson),
          inline_ ? "--params (inline JSON)" : "--params " + fileOrJson);
}

nlohmann::json parseParamsText(std::string_view text, const std::string& origin) {
    nlohmann::json j = parseJson(text, origin);
    if (j.is_discarded()) throw UsageError(origin + ": not valid JSON");
    return j;
}

nlohmann::json readParamsArgument(const std::string& path) {
    if (!path.empty() && path.front() == '{')
        return parseParamsText(path, "--params (inline JSON)");
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw InputError("--params " + path +
                         ": not a regular file (a folder, FIFO, socket or "
                         "device)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError("--params " + path + ": cannot open the file");
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return parseParamsText(text, "--params " + path);
}

const nlohmann::json& ParamSet::get(const std::string& name) const {
    spec(name); // UsageError when unknown
    return values_.at(name);
}

double ParamSet::number(const std::string& name) const {
    return get(name).get<double>();
}
long long ParamSet::integer(const std::string& name) const {
    return get(name).get<long long>();
}
bool ParamSet::boolean(const std::string& name) const {
    return get(name).get<bool>();
}
std::string ParamSet::text(const std::string& name) const {
    const nlohmann::json& v = get(name);
    return v.is_string() ? v.get<std::string>() : v.dump(); // Text also takes a number
}
std::vector<long long> ParamSet::intList(const std::string& name) const {
    const nlohmann::json& v = get(name);
    return v.is_null() ? std::vector<long long>{} : v.get<std::vector<long long>>();
}

nlohmann::json parseParamText(const ParamSpec& s, const std::string& text) {
    using T = ParamSpec::Type;
    const std::string what = (s.flag.empty() ? s.name : s.flag) + " " + text;
    const auto number = [&](const std::string& t) {
        try {
            std::size_t used = 0;
            const double v = std::stod(t, &used);
            if (used == t.size() && std::isfinite(v)) return v;
        } catch (const std::exception&) {
        }
        throw UsageError(what + ": expected " + expected(s));
    };
    switch (s.type) {
    case T::Int:
        return integralJson(number(text));
    case T::Double:
        return number(text);
    case T::Bool:
        return text == "true" || text == "1" || text == "yes";
    case T::Choice:
    case T::Text:
        return text;
    case T::IntList: {
        nlohmann::json out = nlohmann::json::array();
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            out.push_back(integralJson(number(text.substr(start, comma - start))));
            start = comma + 1;
        }
        return out;
    }
    }
    return text;
}

bool isProvenanceKey(const std::string& key) {
    static const std::vector<std::string> keys{"input",  "algorithm", "variant",
                                               "device", "tuning",    "clscope_version"};
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

} // namespace clscope
