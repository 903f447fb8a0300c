// Detector geometry for q-bin masks: beam centre, distance, pixel size and wavelength give
// each pixel's momentum transfer q (nm^-1) and azimuth phi (degrees). PONI import/export
// follows pyFAI (poni_version 2), rotations included, with pyFAI's formulas.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace clscope::mask {

// Coordinates are in pixels with pixel (row j, column i) covering [i, i+1) x [j, j+1):
// its centre is (i + 0.5, j + 0.5). x runs along columns (fast axis), y along rows.
struct Geometry {
    double beamCenterX = 0.0, beamCenterY = 0.0;   // pixels; the PONI when rotated
    double distance = 1.0;                         // sample to PONI, metres
    double pixelSizeX = 75e-6, pixelSizeY = 75e-6; // metres
    double wavelength = 1e-10;                     // metres
    double rot1 = 0.0, rot2 = 0.0, rot3 = 0.0;     // pyFAI rotations, radians
    bool rotated() const { return rot1 != 0.0 || rot2 != 0.0 || rot3 != 0.0; }
};

// Throws UsageError naming the first value that is not finite or not > 0.
void validate(const Geometry& g);

// Photon energy (keV) <-> wavelength (m), lambda = h c / E.
double wavelengthFromEnergy(double keV);
double energyFromWavelength(double metres);

// Scattering angle 2theta (radians), q = 4 pi / lambda * sin(2theta / 2) (nm^-1) and azimuth
// phi = atan2(t1, t2) in degrees, (-180, 180], counter-clockwise from +x when rows grow
// upwards (pyFAI's chi; with no rotation t1 = y - beamCenterY, t2 = x - beamCenterX).
struct PixelAngles {
    double twoTheta, q, phi;
};
PixelAngles anglesAt(const Geometry& g, double x, double y);
// Bragg spacing d = 2 pi / q in ångström for q in nm^-1 (infinite at q = 0, the beam).
double dSpacingAngstrom(double qInverseNm);

// q and phi of every pixel centre of an (height, width) image, row-major.
struct PixelQMap {
    std::size_t height = 0, width = 0;
    std::vector<double> q;   // nm^-1
    std::vector<double> phi; // degrees
};
PixelQMap computeQMap(const Geometry& g, std::size_t height, std::size_t width);

// pyFAI PONI files. The detector shape comes from Detector_config's max_shape when present.
struct PoniFile {
    Geometry geometry;
    std::string detector = "Detector";
    std::size_t height = 0, width = 0; // 0 when unknown
};
// Parses PONI text (versions 1 and 2; key: value lines, '#' comments). `source` names the
// text in errors (a file name). Throws InputError on missing or malformed entries.
PoniFile parsePoni(const std::string& text, const std::string& source);
std::string formatPoni(const PoniFile& poni);
PoniFile readPoni(const std::string& fileName);
// Written to a temporary name, then renamed.
void writePoni(const std::string& fileName, const PoniFile& poni);

} // namespace clscope::mask
