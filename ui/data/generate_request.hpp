// A synthetic dataset to generate: one of the registered algorithms' synthetic kinds
// (Algorithm::syntheticKinds) by name with its option values. The Generate dialog fills it, the
// demos start from their algorithm's first kind, and the job runner writes it through the
// kind's own write function, as `clscope-cli generate` does.
#pragma once
#include "core/hdf5.hpp"
#include "core/params.hpp"

#include <cstdint>
#include <string>

namespace clscope::ui {

struct GenerateRequest {
    std::string kind; // the `clscope-cli generate` subcommand
    ParamSet options; // valid against the kind's specs
    std::uint64_t seed = 0;
    Compression compression = Compression::Gzip;
};

// The kind at its defaults; UsageError listing the kinds when none is called so.
GenerateRequest generateRequest(const std::string& kind);
// The algorithm's first synthetic kind (its demo's) at its defaults; UsageError when the
// algorithm is unknown or generates nothing.
GenerateRequest demoRequest(const std::string& algorithm);
// Writes the dataset to path (temporary name, then renamed) through the kind's write
// function; returns its one-line summary.
std::string writeGenerated(const GenerateRequest& request, const std::string& path);

} // namespace clscope::ui
