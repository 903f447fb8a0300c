#include "gpu/command_line.hpp"

#include "core/errors.hpp"
#include "core/json_parse.hpp"

#include <algorithm>
#include <cctype>

namespace clscope {

namespace {

void addRoles(std::vector<std::string>& args, const Algorithm& algorithm, const InputSources& s) {
    for (const InputRole& role : algorithm.inputRoles()) {
        if (s.arrays.count(role.id))
            throw UsageError(algorithm.id() + ": the " + role.id +
                             " role is held in memory; save it to a file to name it on a "
                             "command line");
        if (s.disabled.count(role.id) && !role.disableFlag.empty()) {
            args.push_back(role.disableFlag);
            continue;
        }
        const auto it = s.overrides.find(role.id);
        if (it == s.overrides.end() || it->second.empty()) continue;
        if (role.flag.empty())
            throw UsageError(algorithm.id() + ": the " + role.id + " role has no option");
        args.insert(args.end(), {role.flag, it->second});
    }
}

// The text an option takes for a value; empty when the option cannot say it.
std::string optionText(const ParamSpec& spec, const nlohmann::json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_array()) {
        std::string out;
        for (const auto& v : value)
            out += (out.empty() ? "" : ",") + v.dump();
        return out;
    }
    if (spec.type == ParamSpec::Type::Bool || value.is_null()) return "";
    return value.dump();
}

void addParams(std::vector<std::string>& args, const ParamSet& params) {
    nlohmann::json inline_ = nlohmann::json::object();
    for (const ParamSpec& spec : params.specs()) {
        const nlohmann::json& value = params.get(spec.name);
        if (value == spec.defaultValue) continue;
        const bool flag = spec.type == ParamSpec::Type::Bool && value == true;
        const std::string text = optionText(spec, value);
        if (spec.flag.empty() || (!flag && text.empty()) ||
            (spec.type == ParamSpec::Type::IntList && value.empty()))
            inline_[spec.name] = value;
        else if (flag)
            args.push_back(spec.flag);
        else
            args.insert(args.end(), {spec.flag, text});
    }
    if (!inline_.empty()) args.insert(args.end(), {"--params", inline_.dump()});
}

} // namespace

std::vector<std::string> commandArgs(const RunCommand& run) {
    const Algorithm& algorithm = AlgorithmRegistry::instance().find(run.algorithm);
    std::vector<std::string> args{"clscope-cli", algorithm.command(), run.sources.file};
    addRoles(args, algorithm, run.sources);
    if (!run.sources.frames.all()) args.insert(args.end(), {"--frames", run.sources.frames.text()});
    args.insert(args.end(), {"--device", run.device});
    if (run.split == SplitRule::Always) args.insert(args.end(), {"--split", "always"});
    if (!run.variant.empty()) args.insert(args.end(), {"--variant", run.variant});
    addParams(args, run.params);
    for (const auto& [name, value] : run.tuning)
        args.insert(args.end(), {"--tune", name + "=" + std::to_string(value)});
    if (!run.layout.empty()) args.insert(args.end(), {"--layout", run.layout});
    args.insert(args.end(), {"-o", run.output});
    return args;
}

std::string shellQuote(const std::string& arg) {
    const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string("_-./:=,+@%").find(c) != std::string::npos;
    });
    if (plain) return arg;
    std::string out = "'";
    for (char c : arg)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::vector<std::string> shellWords(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    bool quoted = false, escaped = false, any = false;
    for (char c : line) {
        if (escaped) { // \' between quoted parts: a quote of the word
            word += c, escaped = false;
        } else if (c == '\\' && !quoted) {
            escaped = any = true;
        } else if (c == '\'') {
            quoted = !quoted, any = true;
        } else if (c == ' ' && !quoted) {
            if (any) words.push_back(word);
            word.clear(), any = false;
        } else {
            word += c, any = true;
        }
    }
    if (any) words.push_back(word);
    return words;
}

std::string commandLine(const RunCommand& run) {
    std::string out;
    for (const std::string& arg : commandArgs(run))
        out += (out.empty() ? "" : " ") + shellQuote(arg);
    return out;
}

} // namespace clscope

namespace clscope {

namespace {

// The sources the `input` provenance names: the file, each role at another path or file as an
// override, the frame range; "in memory" roles held (as an empty array) so that they are named
// as such.
InputSources storedSources(const Algorithm& algorithm, const nlohmann::json& input) {
    InputSources sources;
    if (!input.is_object()) return sources;
    sources.file = input.value("file", std::string());
    const nlohmann::json datasets = input.value("datasets", nlohmann::json::object());
    for (const InputRole& role : algorithm.inputRoles()) {
        if (!datasets.contains(role.id) || !datasets[role.id].is_string()) continue;
        const std::string at = datasets[role.id].get<std::string>();
        if (at == "in memory") {
            sources.arrays[role.id] = std::make_shared<const Array>();
            continue;
        }
        const auto colon = at.rfind(':');
        const std::string file = at.substr(0, colon), path = at.substr(colon + 1);
        if (colon == std::string::npos) continue;
        if (file == sources.file && path != role.defaultPath) sources.overrides[role.id] = path;
        if (file != sources.file && role.otherFile) sources.overrides[role.id] = at;
    }
    if (input.contains("frames") && input["frames"].is_string())
        sources.frames = FrameRange::parse(input["frames"].get<std::string>());
    return sources;
}

} // namespace

RunCommand storedCommand(const Algorithm& algorithm, const RunInfo& info,
                         const std::string& where) {
    RunCommand run;
    run.algorithm = algorithm.id();
    run.device = info.device.empty() ? "cpu" : info.device;
    run.variant = info.variant;
    const nlohmann::json j = parseJsonQuietly(info.parametersJson);
    if (!j.is_object()) throw InputError(where + ": attribute parameters is not a JSON object");
    run.params = algorithm.defaultParams();
    try {
        run.params.merge(j, where + " parameters");
        run.sources = storedSources(algorithm, j.value("input", nlohmann::json::object()));
    } catch (const UsageError& e) {
        throw InputError(e.what());
    }
    if (j.contains("tuning") && j["tuning"].is_object())
        for (const auto& [name, value] : j["tuning"].items())
            if (value.is_number_integer()) run.tuning[name] = value.get<int>();
    return run;
}

} // namespace clscope
