#include "core/input/units.hpp"

#include "core/errors.hpp"
#include "core/input/metadata.hpp"
#include "core/io.hpp"

#include <charconv>

#include <iostream>
#include <map>
#include <sstream>

namespace clscope::units {

namespace {

const std::map<std::string, double>& table(Quantity q) {
    static const std::map<std::string, double> inverseLength{
        {"1/angstrom", 1.0}, {"angstrom^-1", 1.0}, {"1/A", 1.0},   {"A^-1", 1.0}, {"Å^-1", 1.0},
        {"Å⁻¹", 1.0},        {"1/nm", 0.1},        {"nm^-1", 0.1}, {"nm⁻¹", 0.1}};
    static const std::map<std::string, double> time{
        {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9}};
    static const std::map<std::string, double> length{
        {"m", 1.0}, {"mm", 1e-3}, {"um", 1e-6}, {"µm", 1e-6}};
    return q == Quantity::InverseLength ? inverseLength : q == Quantity::Time ? time : length;
}

std::string accepted(Quantity q) {
    std::string list;
    for (const auto& [name, value] : table(q))
        list += (list.empty() ? "" : ", ") + name;
    return list;
}

// The attribute's text when it is one name: an array (rendered "ms, s") or a number is bad
// input, never its first element or a default.
const std::string& oneName(const std::string& text, const std::string& where) {
    double number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    const bool isNumber = ec == std::errc() && end == text.data() + text.size();
    if (isNumber || text.find(", ") != std::string::npos)
        throw InputError(where + ": the units attribute must be one unit name (a string), found " +
                         (isNumber ? "the number " : "the array ") + text);
    return text;
}

} // namespace

double factor(Quantity quantity, const std::string& unit, const std::string& where) {
    const auto& t = table(quantity);
    const auto it = t.find(unit);
    if (it == t.end())
        throw InputError(where + ": unknown unit '" + unit +
                         "' (units attribute); accepted: " + accepted(quantity));
    return it->second;
}

DatasetUnit datasetUnit(const H5Reader& file, const std::string& path, Quantity quantity,
                        double fallback, const std::string& fallbackName) {
    if (const auto unit = file.stringAttribute(path, "units"))
        return {factor(quantity, oneName(*unit, file.where(path)), file.where(path)), *unit, true};
    std::clog << "clscope: " << file.where(path) << " has no units attribute; taken in "
              << fallbackName << "\n";
    return {fallback, fallbackName, false};
}

double datasetFactor(const H5Reader& file, const std::string& path, Quantity quantity,
                     double fallback, const std::string& fallbackName) {
    return datasetUnit(file, path, quantity, fallback, fallbackName).factor;
}

std::optional<ResolvedValue> readFrameTime(const H5Reader& file, const std::string& path) {
    const std::optional<double> stored = clscope::readFrameTime(file, path);
    if (!stored) return std::nullopt;
    ResolvedValue v;
    v.stored = *stored, v.where = file.where(path);
    v.unit = datasetUnit(file, path, Quantity::Time, 1.0, "s");
    v.value = *stored * v.unit.factor;
    return v;
}

std::string ResolvedValue::origin() const {
    std::ostringstream text;
    text << stored << " " << unit.unit
         << (unit.fromFile ? " (file)" : " (file, no units attribute: the default)");
    return text.str();
}

} // namespace clscope::units
