// Units of physical inputs (DESIGN.md §3): the `units` attribute that NeXus, h5py and pyFAI
// write beside a value, converted to clscope's units (q in 1/Å, time in s, lengths in m).
// A `units` attribute that is not one string, or names a unit clscope does not know, is bad
// input (InputError naming the dataset and what it found).
#pragma once
#include "core/hdf5.hpp"

#include <optional>
#include <string>

namespace clscope::units {

enum class Quantity { InverseLength, Time, Length };

// The factor that takes a value in `unit` to 1/Å, s or m; InputError naming `where` and the
// unit when clscope does not know it.
double factor(Quantity quantity, const std::string& unit, const std::string& where);

// The unit a dataset's value is read in: its `units` attribute, or the documented default.
struct DatasetUnit {
    double factor = 1.0; // to 1/Å, s or m
    std::string unit;    // the attribute's text, or the default's name
    bool fromFile = false;
};

// The unit of dataset `path` (its `units` attribute); without one, `fallback` (the
// documented default, named `fallbackName`) and one line on the log (stderr) saying so.
DatasetUnit datasetUnit(const H5Reader& file, const std::string& path, Quantity quantity,
                        double fallback, const std::string& fallbackName);
// datasetUnit(...).factor.
double datasetFactor(const H5Reader& file, const std::string& path, Quantity quantity,
                     double fallback, const std::string& fallbackName);

// A value as the readers resolved it, and where it came from (what a GUI shows beside it).
struct ResolvedValue {
    double value = 0;  // in clscope's unit
    double stored = 0; // as the file holds it
    DatasetUnit unit;  // how it was converted
    std::string where; // FILE:/path
    // "1 ms (file)" or "0.001 s (file, no units attribute: s)".
    std::string origin() const;
};

// The frame time in seconds (core/io readFrameTime) with its `units` attribute honoured (s
// without one) and where it came from; InputError for a units attribute that is not one
// known time unit.
std::optional<ResolvedValue> readFrameTime(const H5Reader& file, const std::string& path);

} // namespace clscope::units
