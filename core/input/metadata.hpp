// The physical values an input carries beside its arrays, read with their units (units.hpp):
// the frame time, q of the labels and the geometry's lengths. Part of the input module
// (DESIGN.md §1).
#pragma once
#include "core/hdf5.hpp"
#include "core/io.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clscope {

// The frame time as stored (finite and > 0, InputError otherwise) when the file has one; its
// units attribute is not applied (frameTimeSeconds does).
std::optional<double> readFrameTime(const H5Reader& file,
                                    const std::string& path = paths::frameTime);
// The frame time in seconds when the file has one: converted by its units attribute (s, with
// a line on the log, when it has none).
std::optional<double> frameTimeSeconds(const H5Reader& file, const std::string& path);

// q of each label in 1/Å: `q` (the label table's q column at qPath in the labels' file, one
// value per label of labelIds) converted by its units attribute (nm^-1, pyFAI's, without one).
std::map<std::int32_t, double> labelQ(const H5Reader& labelFile, const std::string& qPath,
                                      const std::vector<std::int32_t>& labelIds,
                                      const std::vector<double>& q);

// A geometry length read at path (a dataset) in metres: converted by its units attribute (m,
// with a line on the log, when it has none).
double lengthMetres(const H5Reader& file, const std::string& path, double value);

} // namespace clscope
