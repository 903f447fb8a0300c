#include "core/mask/geometry.hpp"
#include "core/json_parse.hpp"
#include "core/number_text.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <sstream>

namespace clscope::mask {

namespace {

// h*c in keV*m (CODATA 2018, the value pyFAI uses: 12.398419843320026 keV*Angstrom).
constexpr double hcKeVMetre = 12.398419843320026e-10;

// pyFAI's detector-to-lab rotation, with sines and cosines computed once.
class Projector {
  public:
    explicit Projector(const Geometry& g) : g_(g) {
        const double c1 = std::cos(g.rot1), c2 = std::cos(g.rot2), c3 = std::cos(g.rot3);
        const double s1 = std::sin(g.rot1), s2 = std::sin(g.rot2), s3 = std::sin(g.rot3);
        // Rows: t1, t2, t3 as functions of (p1, p2, L), pyFAI geometry.calc_pos_zyx.
        m_[0] = c2 * c3, m_[1] = c3 * s1 * s2 - c1 * s3, m_[2] = -(c1 * c3 * s2 + s1 * s3);
        m_[3] = c2 * s3, m_[4] = c1 * c3 + s1 * s2 * s3, m_[5] = -(-(c3 * s1) + c1 * s2 * s3);
        m_[6] = s2, m_[7] = -c2 * s1, m_[8] = c1 * c2;
        qScale_ = 4.0e-9 * std::numbers::pi / g.wavelength;
    }

    PixelAngles at(double x, double y) const {
        const double p1 = (y - g_.beamCenterY) * g_.pixelSizeY;
        const double p2 = (x - g_.beamCenterX) * g_.pixelSizeX;
        const double L = g_.distance;
        const double t1 = m_[0] * p1 + m_[1] * p2 + m_[2] * L;
        const double t2 = m_[3] * p1 + m_[4] * p2 + m_[5] * L;
        const double t3 = m_[6] * p1 + m_[7] * p2 + m_[8] * L;
        const double twoTheta = std::atan2(std::hypot(t1, t2), t3);
        double phi = std::atan2(t1, t2) * (180.0 / std::numbers::pi);
        if (phi <= -180.0) phi = 180.0; // keep (-180, 180]
        return {twoTheta, qScale_ * std::sin(twoTheta / 2), phi};
    }

  private:
    Geometry g_;
    double m_[9];
    double qScale_;
};

void requirePositive(double v, const char* name) {
    if (!std::isfinite(v) || !(v > 0))
        throw UsageError(std::string("geometry: ") + name + " must be finite and > 0, found " +
                         std::to_string(v));
}

void requireFinite(double v, const char* name) {
    if (!std::isfinite(v)) throw UsageError(std::string("geometry: ") + name + " must be finite");
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// "key: value" lines of a PONI text, keys lower-cased.
std::map<std::string, std::string> poniEntries(const std::string& text) {
    std::map<std::string, std::string> entries;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        line = trim(line);
        const auto colon = line.find(':');
        if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
        entries[lower(trim(line.substr(0, colon)))] = trim(line.substr(colon + 1));
    }
    return entries;
}

class PoniReader {
  public:
    PoniReader(const std::string& text, const std::string& source)
        : entries_(poniEntries(text)), source_(source) {}

    bool has(const std::string& key) const { return entries_.count(key) != 0; }
    std::string text(const std::string& key) const {
        const auto it = entries_.find(key);
        return it == entries_.end() ? std::string() : it->second;
    }
    double number(const std::string& key) const {
        if (!has(key)) fail("missing entry '" + key + "'");
        const std::string v = text(key);
        double out = 0;
        const auto res = std::from_chars(v.data(), v.data() + v.size(), out);
        if (res.ec != std::errc() || res.ptr != v.data() + v.size())
            fail("entry '" + key + "' is not a number: '" + v + "'");
        return out;
    }
    const std::string& source() const { return source_; }
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(source_ + ": PONI file: " + what);
    }

  private:
    std::map<std::string, std::string> entries_;
    std::string source_;
};

// Pixel sizes and shape from Detector_config (version 2) or PixelSize1/2 (version 1).
void readDetector(const PoniReader& r, PoniFile& poni) {
    if (r.has("detector")) poni.detector = r.text("detector");
    if (!r.has("detector_config")) {
        poni.geometry.pixelSizeY = r.number("pixelsize1");
        poni.geometry.pixelSizeX = r.number("pixelsize2");
        return;
    }
    const nlohmann::json config =
        parseJson(r.text("detector_config"), r.source() + ": Detector_config");
    if (config.is_discarded()) r.fail("Detector_config is not JSON");
    if (!config.is_object() || !config.contains("pixel1") || !config.contains("pixel2") ||
        !config["pixel1"].is_number() || !config["pixel2"].is_number())
        r.fail("Detector_config of detector '" + poni.detector +
               "' must give pixel1 and pixel2 in metres (pyFAI's detector database is not "
               "available to clscope)");
    poni.geometry.pixelSizeY = config["pixel1"].get<double>();
    poni.geometry.pixelSizeX = config["pixel2"].get<double>();
    if (config.contains("orientation") && config["orientation"] != 3)
        r.fail("detector orientation " + config["orientation"].dump() +
               " is not supported (only 3, pyFAI's default)");
    const auto& shape = config.contains("max_shape") ? config["max_shape"] : nlohmann::json();
    if (shape.is_array() && shape.size() == 2 && shape[0].is_number_unsigned() &&
        shape[1].is_number_unsigned()) {
        poni.height = shape[0].get<std::size_t>();
        poni.width = shape[1].get<std::size_t>();
    }
}

} // namespace

void validate(const Geometry& g) {
    requireFinite(g.beamCenterX, "beam centre x");
    requireFinite(g.beamCenterY, "beam centre y");
    requirePositive(g.distance, "distance");
    requirePositive(g.pixelSizeX, "pixel size x");
    requirePositive(g.pixelSizeY, "pixel size y");
    requirePositive(g.wavelength, "wavelength");
    requireFinite(g.rot1, "rot1");
    requireFinite(g.rot2, "rot2");
    requireFinite(g.rot3, "rot3");
}

double wavelengthFromEnergy(double keV) {
    requirePositive(keV, "energy");
    return hcKeVMetre / keV;
}

double energyFromWavelength(double metres) {
    requirePositive(metres, "wavelength");
    return hcKeVMetre / metres;
}

double dSpacingAngstrom(double qInverseNm) {
    return qInverseNm > 0 ? 20.0 * std::numbers::pi / qInverseNm
                          : std::numeric_limits<double>::infinity();
}

PixelAngles anglesAt(const Geometry& g, double x, double y) {
    validate(g);
    return Projector(g).at(x, y);
}

PixelQMap computeQMap(const Geometry& g, std::size_t height, std::size_t width) {
    validate(g);
    const Projector projector(g);
    PixelQMap map{height, width, std::vector<double>(height * width),
                  std::vector<double>(height * width)};
    for (std::size_t j = 0; j < height; ++j)
        for (std::size_t i = 0; i < width; ++i) {
            const PixelAngles a =
                projector.at(static_cast<double>(i) + 0.5, static_cast<double>(j) + 0.5);
            map.q[j * width + i] = a.q;
            map.phi[j * width + i] = a.phi;
        }
    return map;
}

PoniFile parsePoni(const std::string& text, const std::string& source) {
    const PoniReader r(text, source);
    if (r.has("poni_version")) {
        const double version = r.number("poni_version");
        if (version < 1 || version >= 3)
            r.fail("poni_version " + r.text("poni_version") + " is not supported (1, 2 or 2.1)");
    }
    PoniFile poni;
    readDetector(r, poni);
    Geometry& g = poni.geometry;
    g.distance = r.number("distance");
    g.beamCenterY = r.number("poni1") / g.pixelSizeY;
    g.beamCenterX = r.number("poni2") / g.pixelSizeX;
    g.rot1 = r.number("rot1");
    g.rot2 = r.number("rot2");
    g.rot3 = r.number("rot3");
    g.wavelength = r.number("wavelength");
    try {
        validate(g);
    } catch (const UsageError& e) {
        r.fail(e.what());
    }
    return poni;
}

std::string formatPoni(const PoniFile& poni) {
    const Geometry& g = poni.geometry;
    validate(g);
    nlohmann::json config = {{"pixel1", g.pixelSizeY}, {"pixel2", g.pixelSizeX}};
    if (poni.height && poni.width) config["max_shape"] = {poni.height, poni.width};
    std::ostringstream out;
    out << "# Nota: C-Order, 1 refers to the Y axis, 2 to the X axis\n"
        << "# Written by clscope\n"
        << "poni_version: 2\n"
        << "Detector: " << poni.detector << "\n"
        << "Detector_config: " << config.dump() << "\n"
        << "Distance: " << shortestText(g.distance) << "\n"
        << "Poni1: " << shortestText(g.beamCenterY * g.pixelSizeY) << "\n"
        << "Poni2: " << shortestText(g.beamCenterX * g.pixelSizeX) << "\n"
        << "Rot1: " << shortestText(g.rot1) << "\n"
        << "Rot2: " << shortestText(g.rot2) << "\n"
        << "Rot3: " << shortestText(g.rot3) << "\n"
        << "Wavelength: " << shortestText(g.wavelength) << "\n";
    return out.str();
}

PoniFile readPoni(const std::string& fileName) {
    return parsePoni(readWholeFile(fileName), fileName);
}

void writePoni(const std::string& fileName, const PoniFile& poni) {
    writeFileAtomically(fileName, formatPoni(poni));
}

} // namespace clscope::mask
