#include "core/xpcs/nxxpcs_layout.hpp"

#include "core/xpcs/lag_sums.hpp"
#include "core/xpcs/normalisation.hpp"

namespace clscope::xpcs {

namespace {

void nxGroup(H5Writer& out, const std::string& path, const std::string& nxClass) {
    out.createGroup(path);
    out.setAttribute(path, "NX_class", nxClass);
}

void nxField(H5Writer& out, const std::string& path, double value, const std::string& units) {
    out.writeScalar(path, value);
    out.setAttribute(path, "units", units);
}

void writeNxData(H5Writer& out, const LayoutRun& run) {
    const std::string g = "/entry/data";
    nxGroup(out, g, "NXdata");
    out.setAttribute(g, "signal", "g2");
    const Result& r = *run.result;
    const std::vector<double> unnormalised = unnormalisedG2(r, lagSums(run.sums, r));
    const std::vector<std::int64_t> delays = run.delayFrames();
    const struct {
        std::string name;
        Array data;
        std::string units;
    } fields[] = {
        {"g2", run.byDelays(r.g2), "dimensionless"},
        {"g2_derr", run.byDelays(r.g2Err), "dimensionless"},
        {"G2_unnormalized", run.byDelays(unnormalised), "counts^2"},
        {"delay_difference", makeArray<std::int64_t>({delays.size()}, delays), "frames"},
    };
    for (const auto& f : fields) {
        out.write(g + "/" + f.name, f.data);
        out.setAttribute(g + "/" + f.name, "units", f.units);
        out.setAttribute(g + "/" + f.name, "storage_mode", "one_array");
    }
    out.setAttribute(g + "/g2", "g2_normalisation", normalisationName(r.normalisation));
}

void writeNxTwotime(H5Writer& out, const LayoutRun& run) {
    const Result& r = *run.result;
    if (r.twotime.empty()) return;
    const std::string g = "/entry/twotime";
    nxGroup(out, g, "NXdata");
    out.setAttribute(g, "signal", "two_time_corr_func");
    const std::size_t side = run.twotimeSide(), maps = r.twotime.size();
    std::vector<float> all;
    std::vector<double> g2(side * maps);
    std::size_t i = 0;
    for (const auto& [label, map] : r.twotime) {
        all.insert(all.end(), map.begin(), map.end());
        const std::vector<double> diagonal = diagonalAverage(map, side, 0, side);
        for (std::size_t d = 0; d < side; ++d)
            g2[d * maps + i] = diagonal[d];
        ++i;
    }
    const std::string c2 = g + "/two_time_corr_func";
    out.write(c2, makeArray<float>({maps, side, side}, all), Compression::Gzip);
    out.setAttribute(c2, "units", "dimensionless");
    out.setAttribute(c2, "storage_mode", "one_array_q_first");
    out.setIntegerAttribute(c2, "baseline_reference", 1);
    out.setAttribute(c2, "time_origin_location", "upper_left");
    out.setAttribute(c2, "populated_elements", "all");
    out.setAttribute(c2, "frames_per_cell", static_cast<double>(r.twotimeBin));
    const std::string fromC2 = g + "/g2_from_two_time_corr_func";
    out.write(fromC2, makeArray<double>({side, maps}, g2));
    out.setAttribute(fromC2, "units", "dimensionless");
    out.setAttribute(fromC2, "storage_mode", "one_array_q_last");
    out.setIntegerAttribute(fromC2, "baseline_reference", 1);
    out.setIntegerAttribute(fromC2, "first_point_for_fit", 0);
    out.write(g + "/roi", makeArray<std::int32_t>({maps}, run.twotimeRois()));
}

void writeNxInstrument(H5Writer& out, const LayoutRun& run) {
    const std::string g = "/entry/instrument";
    const mask::Geometry& geometry = *run.geometry;
    nxGroup(out, g, "NXinstrument");
    nxGroup(out, g + "/incident_beam", "NXbeam");
    nxField(out, g + "/incident_beam/incident_energy", run.energyKeV(), "keV");
    const std::string d = g + "/detector_1";
    nxGroup(out, d, "NXdetector");
    nxField(out, d + "/frame_time", *run.frameTime, "s");
    nxField(out, d + "/count_time", *run.frameTime, "s"); // the frame period: all clscope knows
    nxField(out, d + "/beam_center_x", geometry.beamCenterX * geometry.pixelSizeX, "m");
    nxField(out, d + "/beam_center_y", geometry.beamCenterY * geometry.pixelSizeY, "m");
    nxField(out, d + "/x_pixel_size", geometry.pixelSizeX, "m");
    nxField(out, d + "/y_pixel_size", geometry.pixelSizeY, "m");
    nxField(out, d + "/distance", geometry.distance, "m");
    const std::string m = g + "/masks";
    nxGroup(out, m, "NXnote");
    const Array roi = run.roiMap();
    const std::size_t bins = run.result->binCount();
    for (const std::string kind : {"dynamic", "static"}) {
        out.write(m + "/" + kind + "_roi_map", roi, Compression::Gzip);
        out.setAttribute(m + "/" + kind + "_roi_map", "units", "au");
        if (run.binQ().empty()) continue;
        out.write(m + "/" + kind + "_q_list", makeArray<double>({bins}, run.binQ()));
        out.setAttribute(m + "/" + kind + "_q_list", "units", "1/angstrom");
    }
    out.write(m + "/roi_labels", makeArray<std::int32_t>({bins}, run.result->labels));
}

void writeNxProcess(H5Writer& out, const LayoutRun& run) {
    const std::string g = "/entry/process";
    nxGroup(out, g, "NXprocess");
    out.writeText(g + "/program", "clscope");
    out.writeText(g + "/version", clscopeVersion());
    out.writeText(g + "/g2_normalisation", normalisationName(run.result->normalisation));
    writeProvenance(out, g, run.provenance);
    // The definition places its NXprocess group beside the entry (root level): linked there.
    out.linkSoft("/process", g);
}

} // namespace

void writeNxXpcsLayout(H5Writer& out, const LayoutRun& run) {
    nxGroup(out, "/entry", "NXentry");
    out.writeText("/entry/definition", "NXxpcs");
    out.writeText("/entry/entry_identifier", run.identifier);
    out.writeText("/entry/start_time", run.startTime);
    writeNxData(out, run);
    writeNxTwotime(out, run);
    writeNxInstrument(out, run);
    writeNxProcess(out, run);
}

} // namespace clscope::xpcs
