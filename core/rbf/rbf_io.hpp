// rbf files: particles in (DESIGN.md §3: /particles/sources, targets, weights) and the
// /rbf/potential output, (M) real or (M,2) complex as [re, im].
#pragma once
#include "core/hdf5.hpp"
#include "core/rbf/rbf.hpp"

#include <string>

namespace clscope::rbf {

inline const std::string particlesGroup = "/particles";
inline const std::string outputGroup = "/rbf";

// Sources and weights of `group`; its targets unless `planes` > 0 (then plane targets and
// /targets need not exist). InputError naming file, dataset and what was expected.
Problem readProblem(const H5Reader& file, const std::string& group = particlesGroup,
                    std::size_t planes = 0);

// /rbf/potential (values only, no provenance).
void writePotential(H5Writer& out, const Result& result, const std::string& group = outputGroup);
// Read back what writePotential wrote.
Result readPotential(const H5Reader& file, const std::string& group = outputGroup);

} // namespace clscope::rbf
