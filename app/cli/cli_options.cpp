#include "app/cli/cli_options.hpp"

#include "core/errors.hpp"
#include "gpu/variant/user_variants.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace clscope::cli {

void addSpecOptions(CLI::App* sub, const std::vector<ParamSpec>& specs, SpecArgs& args) {
    for (const ParamSpec& spec : specs) {
        if (spec.flag.empty()) continue;
        const std::string help =
            spec.help + (spec.unit.empty() ? "" : " [" + spec.unit + "]") +
            (spec.defaultValue.is_null() ? "" : " (default " + spec.defaultValue.dump() + ")");
        if (spec.type == ParamSpec::Type::Bool)
            sub->add_flag(spec.flag, args.flags[spec.name], help);
        else
            sub->add_option(spec.flag, args.values[spec.name], help)->check(nonEmpty());
    }
}

void applySpecArgs(ParamSet& params, const SpecArgs& args) {
    for (const auto& [name, text] : args.values)
        if (!text.empty()) params.set(name, parseParamText(params.spec(name), text));
    for (const auto& [name, given] : args.flags)
        if (given) params.set(name, true);
}

CLI::Validator integerIn(std::uint64_t lo, std::uint64_t hi) {
    const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            const bool digits = !text.empty() && text.size() <= 20 &&
                                text.find_first_not_of("0123456789") == std::string::npos;
            errno = 0;
            const unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
            if (!digits || errno == ERANGE || v < lo || v > hi)
                return "'" + text + "' is not an integer in " + range;
            return {};
        },
        "INT in " + range);
}

CLI::Validator numberIn(double lo, double hi) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "[%g, %g]", lo, hi);
    const std::string range = buf;
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            char* end = nullptr;
            errno = 0;
            const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v < lo ||
                v > hi)
                return "'" + text + "' is not a finite number in " + range;
            return {};
        },
        "NUMBER in " + range);
}

CLI::Validator nonEmpty() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            return text.empty() ? "an empty value is not accepted" : "";
        },
        "");
}

namespace {
bool identifier(const std::string& name) {
    return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
           std::all_of(name.begin(), name.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}
} // namespace

void addSplitOption(CLI::App* sub, std::string& value) {
    sub->add_option("--split", value,
                    "Over several devices: auto (split only where the declared work saves a "
                    "second device's cost; else whole on the first, said in the device name) or "
                    "always")
        ->check(CLI::IsMember({"auto", "always"}))
        ->capture_default_str();
}

SplitRule splitRule(const std::string& value) {
    return value == "always" ? SplitRule::Always : SplitRule::Auto;
}

void addKernelTimeoutOption(CLI::App* sub, double& seconds) {
    sub->add_option("--kernel-timeout", seconds,
                    "Seconds a kernel of a user variant (user:NAME) may run before the run is "
                    "stopped with exit code 4, nothing written")
        ->check(numberIn(1e-3, 1e9))
        ->capture_default_str();
}

std::unique_ptr<KernelWatch> watchUserKernels(const std::vector<std::string>& variants,
                                              double seconds) {
    for (const std::string& v : variants)
        if (isUserVariantId(v)) return std::make_unique<KernelWatch>(seconds, kernelTimeoutExit);
    return nullptr;
}

std::map<std::string, int> parseTuning(const std::vector<std::string>& pairs) {
    std::map<std::string, int> out;
    for (const std::string& p : pairs) {
        const std::size_t eq = p.find('=');
        if (eq == std::string::npos || !identifier(p.substr(0, eq)))
            throw UsageError("--tune takes NAME=VALUE with NAME a C identifier, not '" + p + "'");
        try {
            std::size_t used = 0;
            out[p.substr(0, eq)] = std::stoi(p.substr(eq + 1), &used);
            if (used != p.size() - eq - 1) throw std::invalid_argument("trailing text");
        } catch (const std::exception&) {
            throw UsageError("--tune " + p + ": the value must be an integer");
        }
    }
    return out;
}

std::string optionOf(const ParamSet& params, const std::string& file) {
    for (const ParamSpec& s : params.specs())
        if (!s.flag.empty() && params.get(s.name) == file) return s.flag;
    return "output";
}

} // namespace clscope::cli
