// clscope-cli subcommands: each file adds its own to the CLI11 app.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace clscope {
struct Deviation;
}

namespace clscope::cli {

// A table cell for a check against the reference: "1.23e-07 ok" (`passWord`) or "... FAIL".
std::string deviationCell(const Deviation& deviation, const char* passWord);

// Parse and run one clscope-cli command line; returns the exit code (DESIGN.md §4).
int run(int argc, const char* const* argv);

// Every subcommand's action; run after parsing, its exceptions map to exit codes in main.
using Action = std::function<void()>;

void addDevicesCommands(CLI::App& app, Action& action);
void addGenerateCommand(CLI::App& app, Action& action);
// One command per registered algorithm (its Algorithm::command()).
void addAlgorithmCommands(CLI::App& app, Action& action);
void addBenchCommand(CLI::App& app, Action& action);
// bench stream: the live input's receive and decode rates on this host, and with `then`
// (an algorithm that reads frames) that algorithm run on `device` over the received frames.
struct StreamBenchArgs {
    std::string size, json, then, device, variant;
    std::vector<int> threads;
    int frames = 0;       // frames sent; 0: the size's default
    double occupancy = 0; // photon frames with this share of non-zero pixels (0: the default)
    std::string params;   // --then's parameters (--params: a file or inline JSON)
    bool file = false;    // also the frames from an HDF5 file of bslz4 chunks
};
void runStreamBench(StreamBenchArgs a);
void addBatchCommand(CLI::App& app, Action& action);
// The commands over result files the algorithms declare (cli_result_commands.cpp).
void addResultCommands(CLI::App& app, Action& action);
// convert: a frame stack rewritten as sparse frames or a dense stack (docs/SPARSE.md).
void addConvertCommand(CLI::App& app, Action& action);

} // namespace clscope::cli
