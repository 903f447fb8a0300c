// The clscope-cli command line that reproduces a run (DESIGN.md §4): command, input file and
// datasets, --frames, device, variant, every parameter that differs from its default (fits
// included), kernel tuning. Generic: built from the algorithm's input roles and parameter specs.
#pragma once
#include "gpu/algorithm.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope {

// One run as the CLI would be asked for it.
struct RunCommand {
    std::string algorithm; // registered id
    InputSources sources;  // roles held in memory (sources.arrays) cannot be named: save them
    std::string device = "cpu";
    SplitRule split = SplitRule::Auto; // Always: --split always
    std::string variant;               // "" = the device's preferred
    ParamSet params;                   // empty specs: every parameter at its default
    std::map<std::string, int> tuning;
    std::string layout; // --layout NAME; "" = clscope's own
    std::string output = "OUT.h5";
};

// The run behind a result read back from its file (Algorithm::readResult): its device, variant,
// parameters and kernel overrides, and its sources as the `parameters` provenance records them
// ("input": file, "FILE:PATH" per role, frame range; a role held in memory stays so, and
// commandArgs refuses it). InputError naming `where` for a `parameters` that is not the
// algorithm's.
RunCommand storedCommand(const Algorithm& algorithm, const RunInfo& info, const std::string& where);

// The arguments, "clscope-cli" first. A parameter without a CLI option (or a Bool set to false
// against a true default) goes into one inline --params JSON. UsageError when a role is held in
// memory or overridden without an option that names it.
std::vector<std::string> commandArgs(const RunCommand& run);
// The arguments joined by spaces, each quoted for a POSIX shell when it needs it.
std::string commandLine(const RunCommand& run);
std::string shellQuote(const std::string& arg);
// The words of a line that commandLine wrote (shellQuote's single quotes undone).
std::vector<std::string> shellWords(const std::string& line);

} // namespace clscope
