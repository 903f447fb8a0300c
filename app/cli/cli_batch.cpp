// clscope-cli batch MANIFEST.jsonl [--shard I/N] [--mpi] [--resume] [--report OUT.jsonl]
#include "app/cli/batch.hpp"
#include "app/cli/commands.hpp"
#include "core/errors.hpp"

#include <memory>
#include <stdexcept>
#include <unistd.h>

namespace clscope::cli {

namespace {

// This executable, so each line runs as its own clscope-cli process.
std::string selfPath() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) throw std::runtime_error("batch: cannot find the clscope-cli executable");
    return std::string(path, static_cast<std::size_t>(n));
}

} // namespace

void addBatchCommand(CLI::App& app, Action& action) {
    auto o = std::make_shared<BatchOptions>();
    auto* sub = app.add_subcommand(
        "batch", "Run one clscope-cli command per manifest line (JSON array of arguments)");
    sub->add_option("manifest", o->manifest, "Manifest, JSON lines")->required();
    sub->add_option("--shard", o->shard,
                    "Run lines with index = I mod N (default: SLURM_ARRAY_TASK_ID/COUNT)");
    sub->add_flag("--mpi", o->mpi, "Share the lines over the ranks of mpirun");
    sub->add_flag("--resume", o->resume, "Skip lines whose output exists and is complete");
    sub->add_option("--report", o->report,
                    "Append one JSON line per manifest line (status, exit code, times)");
    sub->callback([&action, o] {
        action = [o] {
            const std::size_t failed = runBatch(*o, selfPath());
            if (failed) // exit 3; each line's own code is in the report
                throw InputError("batch: " + std::to_string(failed) + " line(s) failed");
        };
    });
}

} // namespace clscope::cli
