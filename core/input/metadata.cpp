#include "core/input/metadata.hpp"

#include "core/errors.hpp"
#include "core/input/units.hpp"

#include <cmath>

namespace clscope {

std::optional<double> readFrameTime(const H5Reader& file, const std::string& path) {
    if (!file.hasObject(path)) return std::nullopt; // a group there: "is not a dataset"
    const double t = file.readScalar(path);
    if (!(t > 0) || !std::isfinite(t))
        throw InputError(file.where(path) + ": frame time must be finite and > 0 s, found " +
                         std::to_string(t));
    return t;
}

std::optional<double> frameTimeSeconds(const H5Reader& file, const std::string& path) {
    std::optional<double> t = readFrameTime(file, path);
    if (t) *t *= units::datasetFactor(file, path, units::Quantity::Time, 1.0, "s");
    return t;
}

std::map<std::int32_t, double> labelQ(const H5Reader& labelFile, const std::string& qPath,
                                      const std::vector<std::int32_t>& labelIds,
                                      const std::vector<double>& q) {
    const double toInverseAngstrom =
        units::datasetFactor(labelFile, qPath, units::Quantity::InverseLength, 0.1, "1/nm (pyFAI)");
    std::map<std::int32_t, double> out;
    for (std::size_t i = 0; i < labelIds.size(); ++i)
        // Divided (nm^-1: by 10, as before units were read): q bit for bit as it was.
        out[labelIds[i]] = q[i] / (1.0 / toInverseAngstrom);
    return out;
}

double lengthMetres(const H5Reader& file, const std::string& path, double value) {
    return value * units::datasetFactor(file, path, units::Quantity::Length, 1.0, "m");
}

} // namespace clscope
