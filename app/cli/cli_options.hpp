// Option helpers shared by the CLI commands.
#pragma once
#include "core/output_check.hpp"
#include "core/params.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/kernel_watch.hpp"

#include <CLI/CLI.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clscope::cli {

// Validators of numeric options, checked on the text before CLI11 converts it (CLI11 takes
// "-1" for an unsigned option as 2^64-1): failures name the accepted range (exit 2).
CLI::Validator integerIn(std::uint64_t lo, std::uint64_t hi); // decimal digits only
CLI::Validator numberIn(double lo, double hi);                // finite, no NaN

// What was given for options built from parameter specs: the text of each option, whether
// each Bool flag was given.
struct SpecArgs {
    std::map<std::string, std::string> values;
    std::map<std::string, bool> flags;
};
// One option per spec with a flag (Bool: a flag), its help with unit and default.
void addSpecOptions(CLI::App* sub, const std::vector<ParamSpec>& specs, SpecArgs& args);
// The given values set into params (UsageError naming the parameter when one does not fit).
void applySpecArgs(ParamSet& params, const SpecArgs& args);

// Refuses an empty value (`--gain ''` does not mean the default).
CLI::Validator nonEmpty();

// NAME=VALUE pairs of --tune (NAME a C identifier, VALUE an int); UsageError for anything else.
std::map<std::string, int> parseTuning(const std::vector<std::string>& pairs);
// --split auto|always on a command that takes several devices (SplitRule): the option added,
// its value stored as given (checked by CLI11); splitRule() turns it into the rule.
void addSplitOption(CLI::App* sub, std::string& value);
SplitRule splitRule(const std::string& value);
// --kernel-timeout S: how long a user variant's kernel may run (default 30 s, > 0).
void addKernelTimeoutOption(CLI::App* sub, double& seconds);
// A KernelWatch that ends the process (exit 4, nothing written) when a kernel runs `seconds`
// without finishing, where any of `variants` is a user variant (user:NAME); else none.
std::unique_ptr<KernelWatch> watchUserKernels(const std::vector<std::string>& variants,
                                              double seconds);
// The option of the parameter whose value is `file` (e.g. --phil for a side output), else
// "output".
std::string optionOf(const ParamSet& params, const std::string& file);

} // namespace clscope::cli
