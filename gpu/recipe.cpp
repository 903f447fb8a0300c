#include "gpu/recipe.hpp"

#include "core/errors.hpp"
#include "gpu/kernel_source.hpp"

#include <algorithm>
#include <charconv>
#include <regex>
#include <sstream>

namespace clscope {

namespace {

std::optional<long long> integerOf(const std::string& text) {
    long long value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
    return value;
}

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
    std::string text;
    for (const auto& item : items)
        text += (text.empty() ? "" : sep) + item;
    return text;
}

} // namespace

std::string Tunable::allowedText() const {
    if (kind == Kind::Choice) return joined(allowed, "|");
    return std::to_string(min.value_or(0)) + ".." + (max ? std::to_string(*max) : "");
}

void Tunable::check(const std::string& value) const {
    bool ok = false;
    if (kind == Kind::Choice) {
        ok = std::find(allowed.begin(), allowed.end(), value) != allowed.end();
    } else if (const auto n = integerOf(value)) {
        ok = (!min || *n >= *min) && (!max || *n <= *max);
    }
    if (!ok)
        throw UsageError("tunable " + name + " = " + value +
                         " is not allowed (allowed: " + allowedText() + ")");
}

Tunable integerTunable(std::string name, long long defaultValue, long long min, long long max,
                       std::string help) {
    Tunable t;
    t.name = std::move(name), t.kind = Tunable::Kind::Integer;
    t.defaultValue = std::to_string(defaultValue), t.min = min, t.max = max;
    t.help = std::move(help);
    return t;
}

Tunable choiceTunable(std::string name, std::string defaultValue, std::vector<std::string> allowed,
                      std::string help) {
    Tunable t;
    t.name = std::move(name), t.kind = Tunable::Kind::Choice;
    t.defaultValue = std::move(defaultValue), t.allowed = std::move(allowed);
    t.help = std::move(help);
    return t;
}

Tunable flagTunable(std::string name, bool defaultValue, std::string help) {
    return choiceTunable(std::move(name), defaultValue ? "1" : "0", {"0", "1"}, std::move(help));
}

Tunable fromInput(Tunable tunable) {
    tunable.fromInput = true;
    return tunable;
}

TunableValues tunableValues(const std::map<std::string, int>& integers) {
    TunableValues values;
    for (const auto& [name, value] : integers)
        values[name] = std::to_string(value);
    return values;
}

ProgramRecipe::ProgramRecipe(std::string name, std::vector<std::string> sources,
                             std::vector<Tunable> tunables)
    : name_(std::move(name)), sources_(std::move(sources)), tunables_(std::move(tunables)) {}

const Tunable& ProgramRecipe::tunable(const std::string& name) const {
    for (const auto& t : tunables_)
        if (t.name == name) return t;
    std::vector<std::string> names;
    for (const auto& t : tunables_)
        names.push_back(t.name);
    throw UsageError("program " + name_ + " has no tunable " + name +
                     " (it has: " + joined(names, ", ") + ")");
}

bool ProgramRecipe::declares(const std::string& name) const {
    return std::any_of(tunables_.begin(), tunables_.end(),
                       [&](const Tunable& t) { return t.name == name; });
}

ProgramRecipe& ProgramRecipe::baseOptions(std::string options) {
    baseOptions_ = std::move(options);
    return *this;
}

ProgramRecipe& ProgramRecipe::launch(std::string kernel, LaunchRule rule) {
    launches_[std::move(kernel)] = std::move(rule);
    return *this;
}

TunableValues ProgramRecipe::resolve(const TunableValues& values) const {
    TunableValues resolved;
    for (const auto& t : tunables_) {
        const auto it = values.find(t.name);
        const std::string& value = it == values.end() ? t.defaultValue : it->second;
        t.check(value);
        resolved[t.name] = value;
    }
    return resolved;
}

std::string ProgramRecipe::source() const {
    if (replacedSource_) return *replacedSource_;
    std::string text;
    for (const auto& file : sources_)
        text.append(text.empty() ? "" : "\n").append(kernelSource(file));
    return text;
}

std::string ProgramRecipe::options(const TunableValues& values) const {
    const TunableValues resolved = resolve(values);
    std::string text = baseOptions_;
    for (const auto& t : tunables_)
        text.append(text.empty() ? "" : " ").append("-D" + t.name + "=" + resolved.at(t.name));
    return text;
}

std::string ProgramRecipe::printable(const TunableValues& values) const {
    const TunableValues resolved = resolve(values);
    std::ostringstream out;
    out << "// clscope program " << name_ << " (" << joined(sources_, ".cl, ")
        << ".cl), built with " << baseOptions_ << " and one -D per tunable\n";
    for (const auto& t : tunables_)
        out << "// tunable " << t.name << " = " << resolved.at(t.name)
            << " (allowed: " << t.allowedText() << ")" << (t.fromInput ? " [from input]" : "")
            << " " << t.help << "\n";
    out << source();
    return out.str();
}

long long ProgramRecipe::number(const std::string& nameOrLiteral,
                                const TunableValues& values) const {
    if (const auto literal = integerOf(nameOrLiteral)) return *literal;
    const auto it = values.find(nameOrLiteral);
    const std::string text = it != values.end() ? it->second : tunable(nameOrLiteral).defaultValue;
    const auto n = integerOf(text);
    if (!n) throw UsageError("tunable " + nameOrLiteral + " = " + text + " is not a number");
    return *n;
}

LaunchShape ProgramRecipe::shape(const std::string& kernel, const TunableValues& values,
                                 const std::vector<std::size_t>& extent) const {
    const auto it = launches_.find(kernel);
    if (it == launches_.end())
        throw UsageError("program " + name_ + " declares no launch of kernel " + kernel);
    const LaunchRule& rule = it->second;
    LaunchShape shape;
    for (std::size_t d = 0; d < extent.size(); ++d) {
        const long long per = d < rule.perItem.size() ? number(rule.perItem[d], values) : 1;
        const long long local = d < rule.local.size() ? number(rule.local[d], values) : 1;
        const std::size_t items =
            per > 0 ? (extent[d] + std::size_t(per) - 1) / std::size_t(per) : extent[d];
        shape.global.push_back(items);
        shape.local.push_back(std::size_t(std::max(1LL, local)));
    }
    return shape;
}

ProgramRecipe ProgramRecipe::withSource(std::string text) const {
    ProgramRecipe copy = *this;
    copy.replacedSource_ = std::move(text);
    return copy;
}

TunableValues parseTunableLines(const std::string& text) {
    static const std::regex line(R"(^// tunable ([A-Za-z_][A-Za-z0-9_]*) = (\S+))");
    TunableValues values;
    std::istringstream in(text);
    std::string row;
    std::smatch m;
    while (std::getline(in, row))
        if (std::regex_search(row, m, line)) values[m[1]] = m[2];
    return values;
}

ProgramRecipe ProgramOverrides::apply(const ProgramRecipe& recipe) const {
    const auto it = sources.find(recipe.name());
    return it == sources.end() ? recipe : recipe.withSource(it->second);
}

TunableValues ProgramOverrides::over(TunableValues base) const {
    for (const auto& [name, value] : values)
        base[name] = value;
    return base;
}

} // namespace clscope
