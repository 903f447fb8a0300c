// clscope-cli batch: one clscope-cli command per manifest line (a JSON array of its
// arguments), each in its own process so one failing line never stops the others. Lines are
// shared between SLURM array tasks (--shard I/N, default from SLURM_ARRAY_TASK_ID/COUNT) or
// MPI ranks (--mpi: the rank and size mpirun gives each process), --resume skips lines whose
// output is complete, and a JSON-lines report says what happened to each line.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace clscope::cli {

struct Shard {
    long index = 0, count = 1;
};

struct BatchOptions {
    std::string manifest;
    std::string shard; // "I/N"; empty: from SLURM, else 0/1
    bool mpi = false;  // the rank/size of mpirun (OpenMPI, MPICH/PMI) as the shard
    bool resume = false;
    std::string report; // JSON lines; empty: none
};

// "I/N" with 0 <= I < N; UsageError otherwise.
Shard parseShard(const std::string& text);
// The shard of this process: --shard, else --mpi's rank/size, else SLURM's array task, else 0/1.
Shard currentShard(const BatchOptions& o);
// The output of a command's arguments, when there is one: -o F, -oF, --output F, --output=F.
std::optional<std::string> outputOf(const std::vector<std::string>& args);
// Whether `file` is a complete output of the command `args`: generate's dataset of its kind;
// an algorithm command's output group with provenance, datasets, and the line's input file as
// its parameters' input.
bool outputComplete(const std::string& file, const std::vector<std::string>& args);

// Runs the shard's lines; returns the number of lines that failed. The manifest may not be
// its own report (UsageError), and lines may not run batch or write the manifest or report.
std::size_t runBatch(const BatchOptions& o, const std::string& self);

} // namespace clscope::cli
