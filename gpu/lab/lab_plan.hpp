// What `clscope-cli lab` was asked, resolved against the algorithm's declarations before any
// device is touched: the variant forked (built-in or user:NAME), its programs (recipes), the
// program whose source is replaced, the tunable values (from the source file's tunable lines,
// then --set), the sweep, and the rows to run: the variant it was forked from first, then
// the fork (one row per sweep value). Generic: no algorithm is named here.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/lab/build_log.hpp"
#include "gpu/lab/lab_job.hpp"
#include "gpu/variant/user_variants.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope {

struct LabOptions {
    std::string algorithm, from, program, sourceFile, input, size = "seed", device, save;
    std::vector<std::string> sets; // NAME=VALUE
    std::string sweep;             // NAME=V1,V2,...
    // The run's parameters over the input's defaults or the bench case's (--params: a file or
    // inline JSON) and kernel tuning (--tune NAME=VALUE): every row runs with them.
    std::string params;
    std::map<std::string, int> tuning;
    int repeat = 5;
    double kernelTimeout = 30; // seconds
    bool coldCache = false;    // write the device's cache over before each timed run
    bool noCache = false;      // measure every sweep row again (else: the sweep cache's rows)
};

class LabPlan {
  public:
    // UsageError for anything that does not fit the declarations; InputError for a source
    // file that cannot be read.
    LabPlan(const Algorithm& algorithm, const LabOptions& options);

    // --print-source: every program of the variant (or the one picked), as printable(), with
    // the fork's values over `host` (the host's own on the device: hostTunablesOf). Given back
    // unchanged (--source) it is the program the base builds: the printed header is not built.
    std::string printSource(const TunableValues& host = {}) const;
    // The rows: the variant forked from, then the fork once or per sweep value.
    std::vector<LabJob> jobs() const;
    // The text of the job's programs (the picked one, or all joined): what source_sha256 hashes.
    std::string sourceOf(const LabJob& job) const;
    // Every tunable's value in the job's programs: its own, else the host's (hostTunablesOf),
    // else the declared default.
    TunableValues tunablesOf(const LabJob& job, const TunableValues& host = {}) const;
    // The files the job's programs were made of, for the build log's lines.
    std::vector<SourcePart> sourcePartsOf(const LabJob& job) const;
    // The user variant --save writes for a row of the fork.
    UserVariant toSave(const LabJob& job) const;

  private:
    std::vector<ProgramRecipe> chosen() const; // the picked program, or all
    ProgramOverrides forkWith(const TunableValues& extra) const;
    // What a job's programs are built with (a user variant's own for its base row).
    const ProgramOverrides& overridesOf(const LabJob& job) const;
    const Tunable& settable(const std::string& name, const std::string& value) const;

    const Algorithm& algorithm_;
    LabOptions options_;
    std::string base_;                   // the built-in variant whose host code runs
    std::vector<ProgramRecipe> recipes_; // its programs
    std::string program_;                // the picked program ("" all)
    ProgramOverrides start_;             // the user variant's own when forked from one
    ProgramOverrides fork_;              // the fork's sources and values (sweep aside)
    std::string sweepName_;
    std::vector<std::string> sweepValues_;
    std::size_t headerLines_ = 0; // the printed header lines of --source's file
    nlohmann::json params_ = nlohmann::json::object(); // --params, checked against the specs
};

} // namespace clscope
