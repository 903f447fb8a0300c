// Where an azint run's geometry comes from: --poni FILE, --expt FILE (a DIALS experiment list),
// else the input file's geometry group (/entry/processing/geometry, core/mask/mask_io.hpp: beam
// centre in pixels, distance, pixel sizes, wavelength, optional pyFAI rotations), else a live
// stream's start message (its detector geometry: core/azint/header_geometry.hpp).
#pragma once
#include "core/azint/geometry.hpp"
#include "core/hdf5.hpp"
#include "core/params.hpp"
#include "core/stream/stream_v2.hpp"

#include <optional>
#include <string>

namespace clscope::azint {

struct GeometrySource {
    Geometry geometry;
    std::string origin; // "poni FILE", "expt FILE", "FILE:/entry/processing/geometry" or
                        // "the start message of tcp://…"
};

// The geometry file the parameters name (poni or expt), if any: UsageError when both are given,
// InputError for a bad file. The live view's azint, which has no input file, takes it alone.
std::optional<GeometrySource> namedGeometry(const ParamSet& params);

// The geometry the parameters name, else the file's, else (`start`: a live run's start message)
// the detector geometry it sent: UsageError when both --poni and --expt are given or none is
// found; InputError for a bad file or a detector shape unlike the frames'.
GeometrySource resolveGeometry(const ParamSet& params, const H5Reader& input, std::size_t height,
                               std::size_t width, const stream::StartMessage* start = nullptr);

// The geometry as the input file's geometry group holds it (what `generate powder` writes).
void writeFileGeometry(H5Writer& out, const Geometry& g);

} // namespace clscope::azint
