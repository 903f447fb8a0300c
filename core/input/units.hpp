// Units of physical inputs (DESIGN.md §3): the `units` attribute that NeXus, h5py and pyFAI
// write beside a value, converted to clscope's units (q in 1/Å, time in s, lengths in m).
#pragma once
#include "core/hdf5.hpp"

#include <optional>
#include <string>

namespace clscope::units {

enum class Quantity { InverseLength, Time, Length };

// The factor that takes a value in `unit` to 1/Å, s or m; InputError naming `where` and the
// unit when clscope does not know it.
double factor(Quantity quantity, const std::string& unit, const std::string& where);

// The factor of the `units` attribute of dataset `path`; without one, `fallback` (the
// documented default) and one line on the log (stderr) saying so.
double datasetFactor(const H5Reader& file, const std::string& path, Quantity quantity,
                     double fallback, const std::string& fallbackName);

} // namespace clscope::units
