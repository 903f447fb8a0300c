#include "core/xpcs/aps_layout.hpp"

#include "core/xpcs/lag_sums.hpp"
#include "core/xpcs/normalisation.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace clscope::xpcs {

namespace {

void writeInteger(H5Writer& out, const std::string& path, std::int64_t value) {
    Array a(DType::Int64, {});
    a.as<std::int64_t>()[0] = value;
    out.write(path, a);
}

void writeWithUnits(H5Writer& out, const std::string& path, double value,
                    const std::string& units) {
    out.writeScalar(path, value);
    out.setAttribute(path, "units", units);
}

std::vector<std::int64_t> counting(std::size_t n) {
    std::vector<std::int64_t> out(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = static_cast<std::int64_t>(i);
    return out;
}

// The NeXus entry and the metadata group the viewers detect a result file by.
void writeEntry(H5Writer& out, const LayoutRun& run) {
    out.createGroup("/entry");
    out.setAttribute("/entry", "NX_class", "NXentry");
    out.writeText("/entry/start_time", run.startTime);
    out.createGroup("/entry/instrument/bluesky/metadata");
    out.setAttribute("/entry/instrument/bluesky/metadata", "written_by", "clscope");
    const std::string detector = "/entry/instrument/detector_1";
    writeWithUnits(out, detector + "/frame_time", *run.frameTime, "s");
    // clscope knows the frame period only: the count time is written as the frame time.
    writeWithUnits(out, detector + "/count_time", *run.frameTime, "s");
    writeWithUnits(out, detector + "/x_pixel_size", run.geometry->pixelSizeX, "m");
    writeWithUnits(out, detector + "/y_pixel_size", run.geometry->pixelSizeY, "m");
    writeWithUnits(out, "/entry/instrument/incident_beam/incident_energy", run.energyKeV(), "keV");
}

std::string qmapHash(const LayoutRun& run) {
    std::string text(reinterpret_cast<const char*>(run.labels.labels.data()),
                     run.labels.labels.size() * sizeof(std::int32_t));
    for (double q : run.binQ())
        text += std::to_string(q);
    return std::to_string(std::hash<std::string>{}(text));
}

// The 17 keys of /xpcs/qmap: one static bin per dynamic bin, one phi value (0).
void writeQMap(H5Writer& out, const LayoutRun& run) {
    const std::string g = "/xpcs/qmap";
    const std::size_t bins = run.result->binCount();
    const Array roi = run.roiMap();
    std::vector<std::uint8_t> mask(roi.size());
    for (std::size_t p = 0; p < mask.size(); ++p)
        mask[p] = roi.as<std::int32_t>()[p] > 0 ? 1 : 0;
    out.write(g + "/mask", makeArray<std::uint8_t>(roi.shape(), mask), Compression::Gzip);
    for (const std::string kind : {"dynamic", "static"}) {
        out.write(g + "/" + kind + "_roi_map", roi, Compression::Gzip);
        out.write(g + "/" + kind + "_v_list_dim0", makeArray<double>({bins}, run.binQ()));
        out.setAttribute(g + "/" + kind + "_v_list_dim0", "units", "1/angstrom");
        out.write(g + "/" + kind + "_v_list_dim1", makeArray<double>({1}, {0.0}));
        out.setAttribute(g + "/" + kind + "_v_list_dim1", "units", "degree");
        out.write(g + "/" + kind + "_index_mapping",
                  makeArray<std::int64_t>({bins}, counting(bins)));
        out.write(g + "/" + kind + "_num_pts",
                  makeArray<std::int64_t>({2}, {static_cast<std::int64_t>(bins), 1}));
    }
    const mask::Geometry& geometry = *run.geometry;
    writeWithUnits(out, g + "/beam_center_x", geometry.beamCenterX, "pixel");
    writeWithUnits(out, g + "/beam_center_y", geometry.beamCenterY, "pixel");
    writeWithUnits(out, g + "/detector_distance", geometry.distance, "m");
    writeWithUnits(out, g + "/pixel_size", geometry.pixelSizeX, "m");
    out.writeTexts(g + "/map_names", {"q", "phi"});
    out.writeTexts(g + "/map_units", {"1/A", "deg"});
    out.setAttribute(g, "hash", qmapHash(run));
}

void writeMultitau(H5Writer& out, const LayoutRun& run) {
    const std::string g = "/xpcs/multitau";
    const std::vector<std::int64_t> delays = run.delayFrames();
    out.write(g + "/normalized_g2", run.byDelays(run.result->g2));
    out.setAttribute(g + "/normalized_g2", "g2_normalisation",
                     normalisationName(run.result->normalisation));
    out.write(g + "/normalized_g2_err", run.byDelays(run.result->g2Err));
    out.write(g + "/delay_list", makeArray<std::int64_t>({delays.size()}, delays));
    out.setAttribute(g + "/delay_list", "units", "frames");
    writeInteger(out, g + "/config/stride_frame", 1);
    writeInteger(out, g + "/config/avg_frame", 1);
    out.writeText(g + "/config/g2_normalisation", normalisationName(run.result->normalisation));
}

// Intensity against time, the mean image and I(q) (whole run and in segments).
void writeScattering(H5Writer& out, const LayoutRun& run) {
    const FrameSums& s = run.sums;
    const std::size_t frames = s.frames, bins = s.binCount();
    double pixels = 0;
    for (std::int64_t n : s.pixels)
        pixels += static_cast<double>(n);
    std::vector<double> intensity(2 * frames, 0.0);
    for (std::size_t t = 0; t < frames; ++t) {
        intensity[t] = static_cast<double>(t);
        for (std::size_t b = 0; b < bins; ++b)
            intensity[frames + t] += s.at(b, t) / pixels;
    }
    out.write("/xpcs/spatial_mean/intensity_vs_time", makeArray<double>({2, frames}, intensity));
    std::vector<float> image(s.image.size());
    for (std::size_t p = 0; p < image.size(); ++p)
        image[p] = static_cast<float>(s.image[p] / static_cast<double>(frames));
    const std::string g = "/xpcs/temporal_mean";
    out.write(g + "/scattering_2d",
              makeArray<float>({1, run.labels.height, run.labels.width}, image), Compression::Gzip);
    const std::size_t segments = std::max<std::size_t>(1, std::min<std::size_t>(10, frames));
    const std::size_t length = frames / segments;
    std::vector<double> whole(bins, 0.0), parts(segments * bins, 0.0);
    for (std::size_t b = 0; b < bins; ++b) {
        const double n = static_cast<double>(s.pixels[b]);
        for (std::size_t t = 0; t < frames; ++t)
            whole[b] += s.at(b, t) / n / static_cast<double>(frames);
        for (std::size_t k = 0; k < segments; ++k)
            for (std::size_t t = k * length; t < (k + 1) * length; ++t)
                parts[k * bins + b] += s.at(b, t) / n / static_cast<double>(length);
    }
    out.write(g + "/scattering_1d", makeArray<double>({1, bins}, whole));
    out.write(g + "/scattering_1d_segments", makeArray<double>({segments, bins}, parts));
}

// Two-time maps: the upper half of each (the viewers add the transpose), the g2 of their
// diagonals over the whole run and over 5 segments.
void writeApsTwotime(H5Writer& out, const LayoutRun& run) {
    const Result& r = *run.result;
    if (r.twotime.empty()) return;
    const std::string g = "/xpcs/twotime";
    const std::size_t side = run.twotimeSide(), maps = r.twotime.size();
    const std::size_t parts = side >= 5 ? 5 : 1, length = side / parts;
    std::vector<double> g2(side * maps), segments(length * parts * maps);
    std::size_t i = 0;
    for (const auto& [label, map] : r.twotime) {
        std::vector<float> upper(map);
        for (std::size_t t1 = 0; t1 < side; ++t1)
            for (std::size_t t2 = 0; t2 < t1; ++t2)
                upper[t1 * side + t2] = 0.0f;
        char name[32];
        std::snprintf(name, sizeof name, "/correlation_map/c2_%05zu", i + 1);
        out.write(g + name, makeArray<float>({side, side}, upper), Compression::Gzip);
        const std::vector<double> whole = diagonalAverage(map, side, 0, side);
        for (std::size_t d = 0; d < side; ++d)
            g2[d * maps + i] = whole[d];
        for (std::size_t k = 0; k < parts; ++k) {
            const std::vector<double> part = diagonalAverage(map, side, k * length, length);
            for (std::size_t d = 0; d < length; ++d)
                segments[(d * parts + k) * maps + i] = part[d];
        }
        ++i;
    }
    out.write(g + "/normalized_g2", makeArray<double>({side, maps}, g2));
    out.write(g + "/normalized_g2_segments", makeArray<double>({length, parts, maps}, segments));
    const std::vector<std::int32_t> rois = run.twotimeRois();
    out.write(g + "/processed_bins", makeArray<std::int32_t>({maps}, rois));
    std::vector<std::int64_t> delays = counting(side);
    for (auto& d : delays)
        d *= static_cast<std::int64_t>(r.twotimeBin);
    out.write(g + "/delay_list", makeArray<std::int64_t>({side}, delays));
    out.setAttribute(g + "/delay_list", "units", "frames");
    writeInteger(out, g + "/config/stride_frame", 1);
    writeInteger(out, g + "/config/avg_frame", static_cast<std::int64_t>(r.twotimeBin));
}

} // namespace

void writeApsLayout(H5Writer& out, const LayoutRun& run) {
    writeEntry(out, run);
    writeQMap(out, run);
    writeMultitau(out, run);
    writeScattering(out, run);
    writeApsTwotime(out, run);
    writeProvenance(out, "/xpcs", run.provenance);
}

} // namespace clscope::xpcs
