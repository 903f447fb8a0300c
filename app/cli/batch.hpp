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
// The value after -o/--output in a command's arguments, when there is one.
std::optional<std::string> outputOf(const std::vector<std::string>& args);
// Whether an output file exists, opens as HDF5 and carries clscope's provenance on a group.
bool outputComplete(const std::string& file);

// Runs the shard's lines; returns the number of lines that failed.
std::size_t runBatch(const BatchOptions& o, const std::string& self);

} // namespace clscope::cli
