// A synthetic dataset to generate (core/synthetic/request.hpp, shared with clscope-cli
// generate): the Generate dialog fills it, the job runner writes it.
#pragma once
#include "core/synthetic/request.hpp"

#include <string>

namespace clscope::ui {

using SyntheticRequest = synthetic::Request;
using synthetic::kindName;

// Generate and write the dataset to path (temporary name, then renamed); returns a summary.
inline std::string writeSynthetic(const SyntheticRequest& request, const std::string& path) {
    return synthetic::writeDataset(request, path);
}
// The dataset each algorithm's demo uses (xpcs: xpcs, spots: diffraction, cluster: digis,
// rbf: particles), small enough to run in seconds on PoCL.
SyntheticRequest demoRequest(const std::string& algorithm);

} // namespace clscope::ui
