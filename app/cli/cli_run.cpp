// clscope-cli's whole flow as a function (the executable and the tests call it). Exit codes:
// 0 done, 2 usage, 3 bad input, 4 device error.
#include "app/cli/cli_lab.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/temp_file.hpp"

#include <iostream>
#include <new>
#include <nlohmann/json.hpp>

namespace clscope::cli {

int run(int argc, const char* const* argv) {
    skipHdf5CleanupAtExit();      // a failed close (full disk) would crash libhdf5's shutdown
    removeTemporariesOnSignals(); // a killed run leaves no temporary output behind
    CLI::App app{"clscope-cli: GPU algorithms on detector data"};
    app.require_subcommand(1);
    cli::Action action;
    cli::addDevicesCommands(app, action);
    cli::addGenerateCommand(app, action);
    cli::addAlgorithmCommands(app, action);
    cli::addBenchCommand(app, action);
    cli::addBatchCommand(app, action);
    cli::addConvertCommand(app, action);
    cli::addResultCommands(app, action);
    cli::addLabCommand(app, action);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "clscope-cli: " << e.what() << " (see clscope-cli --help)\n";
        return ExitUsage;
    }
    try {
        if (action) action();
        return ExitOk;
    } catch (const CommandExit& e) {
        return e.code;
    } catch (const UsageError& e) {
        std::cerr << "clscope-cli: usage error: " << e.what() << "\n";
        return ExitUsage;
    } catch (const InputError& e) {
        std::cerr << "clscope-cli: bad input: " << e.what() << "\n";
        return ExitInput;
    } catch (const DeviceError& e) {
        std::cerr << "clscope-cli: device error: " << e.what() << "\n";
        return ExitDevice;
    } catch (const std::bad_alloc&) {
        std::cerr << "clscope-cli: out of host memory\n";
        return ExitInput;
    } catch (const std::length_error& e) {
        std::cerr << "clscope-cli: bad input: size too large: " << e.what() << "\n";
        return ExitInput;
    } catch (const nlohmann::json::exception& e) { // a value of the wrong JSON type
        std::cerr << "clscope-cli: bad input: " << e.what() << "\n";
        return ExitInput;
    } catch (const std::exception& e) { // every error exit is 2, 3 or 4 (DESIGN.md §4)
        std::cerr << "clscope-cli: error: " << e.what() << "\n";
        return ExitInput;
    }
}

} // namespace clscope::cli
