// xpcs files: the /xpcs output group (DESIGN.md §3) and the optional q values of the bins.
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/xpcs.hpp"

#include <optional>
#include <string>

namespace clscope::xpcs {

inline const std::string outputGroup = "/xpcs";
inline const std::string qValuesPath = "/entry/processing/qmask_q";

// /xpcs/g2, g2_err, labels, pixels, tau, twotime/<label> and the provenance attributes.
void writeResult(H5Writer& out, const Result& result, const std::string& group = outputGroup);
// The datasets alone (the caller writes the provenance).
void writeResultData(H5Writer& out, const Result& result, const std::string& group = outputGroup);
// Read back what writeResult wrote (g2, g2_err, labels, pixels, tau, two-time maps).
Result readResult(const H5Reader& file, const std::string& group = outputGroup);

// q values (B) float64 beside the labels, one per bin in ascending label order, when present;
// InputError when present with the wrong length.
std::optional<std::vector<double>> readBinQ(const H5Reader& file, std::size_t binCount,
                                            const std::string& path = qValuesPath);

} // namespace clscope::xpcs
