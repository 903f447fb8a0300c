// clscope-cli lab-worker JOB (hidden): one row of the kernel lab in a process of its own. It
// reads the job (gpu/lab/lab_job.hpp), fills every device buffer with 0xFF before use
// (CLSCOPE_POISON_BUFFERS, so an output a kernel leaves unwritten is NaN or -1, never a previous
// run's values), and tells the lab on descriptor 3 each phase it starts ("phase ...") and then
// its row ("row {json}"); errors become the row's failure. The lab kills it when it stays silent
// too long (cli_lab.cpp).
#include "app/cli/cli_lab.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_parse.hpp"
#include "gpu/lab/contained.hpp"
#include "gpu/lab/lab_job.hpp"

#include <cstdlib>

namespace clscope::cli {

namespace {

LabRow failed(const LabJob& job, std::string failure, const std::string& message) {
    LabRow row;
    row.job = job, row.failure = std::move(failure), row.message = message;
    return row;
}

LabRow runWorker(const LabJob& job) {
    try {
        return runLabJob(job, [](const std::string& phase) { tellCaller("phase " + phase); });
    } catch (const UsageError& e) {
        return failed(job, "usage", e.what());
    } catch (const InputError& e) {
        return failed(job, "input", e.what());
    } catch (const DeviceError& e) {
        const std::string message = e.what();
        const bool build = message.find("kernel build failed") != std::string::npos;
        return failed(job, build ? "build" : "device", message);
    } catch (const std::exception& e) {
        return failed(job, "input", e.what());
    }
}

} // namespace

void addLabWorkerCommand(CLI::App& app, Action& action) {
    auto jobFile = std::make_shared<std::string>();
    auto* sub = app.add_subcommand("lab-worker", "");
    sub->group(""); // hidden: the lab starts it
    sub->add_option("JOB", *jobFile)->required();
    sub->callback([&action, jobFile] {
        action = [jobFile] {
            setenv("CLSCOPE_POISON_BUFFERS", "1", 1);
            const LabJob job = labJobFromJson(parseJson(readWholeFile(*jobFile), *jobFile));
            tellCaller("row " + jsonText(toJson(runWorker(job))));
        };
    });
}

} // namespace clscope::cli
