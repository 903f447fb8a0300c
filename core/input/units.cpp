#include "core/input/units.hpp"

#include "core/errors.hpp"

#include <iostream>
#include <map>

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

} // namespace

double factor(Quantity quantity, const std::string& unit, const std::string& where) {
    const auto& t = table(quantity);
    const auto it = t.find(unit);
    if (it == t.end())
        throw InputError(where + ": unknown unit '" + unit +
                         "' (units attribute); accepted: " + accepted(quantity));
    return it->second;
}

double datasetFactor(const H5Reader& file, const std::string& path, Quantity quantity,
                     double fallback, const std::string& fallbackName) {
    if (const auto unit = file.stringAttribute(path, "units"))
        return factor(quantity, *unit, file.where(path));
    std::clog << "clscope: " << file.where(path) << " has no units attribute; taken in "
              << fallbackName << "\n";
    return fallback;
}

} // namespace clscope::units
