// clscope-cli batch MANIFEST.jsonl [--shard I/N] [--mpi] [--resume] [--report OUT.jsonl]
#include "app/cli/batch.hpp"
#include "app/cli/child_process.hpp"
#include "app/cli/commands.hpp"
#include "core/errors.hpp"

#include <memory>

namespace clscope::cli {

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
