// xpcs results in the APS 8-ID-I and NXxpcs layouts read back (foreign_layouts.hpp).
#include "core/xpcs/foreign_layouts.hpp"

#include "core/errors.hpp"

#include <cmath>

namespace clscope::xpcs {

namespace {

const std::string apsG2 = "/xpcs/multitau/normalized_g2";
const std::string nxG2 = "/entry/data/g2";

// Every value of a dataset of one axis that may be stored as (N), (1,N) or (N,1).
std::vector<double> column(const H5Reader& file, const std::string& path) {
    const Array a = file.read(path, DType::Float64);
    const Shape& s = a.shape();
    const bool vector = s.size() == 1 || (s.size() == 2 && (s[0] == 1 || s[1] == 1));
    if (!vector || a.size() == 0)
        throw InputError(file.where(path) + ": expected a vector, found " + shapeString(s));
    return std::vector<double>(a.as<double>().begin(), a.as<double>().end());
}

// A scalar stored as () or as (1), (1,1); nullopt when absent.
std::optional<double> scalarAt(const H5Reader& file, const std::string& path) {
    if (!file.hasDataset(path)) return std::nullopt;
    const Array a = file.read(path, DType::Float64);
    if (a.size() != 1)
        throw InputError(file.where(path) + ": expected one value, found " +
                         shapeString(a.shape()));
    return a.as<double>()[0];
}

// A (L,B) or (B,L) table of L lags as B*L row-major (bin, lag).
std::vector<double> byBin(const H5Reader& file, const std::string& path, std::size_t lags,
                          std::size_t& bins) {
    const Array a = file.read(path, DType::Float64);
    const Shape& s = a.shape();
    const bool lagsFirst = s.size() == 2 && s[0] == lags;
    if (s.size() != 2 || (!lagsFirst && s[1] != lags))
        throw InputError(file.where(path) + ": expected (" + std::to_string(lags) +
                         " delays, bins), found " + shapeString(s));
    bins = lagsFirst ? s[1] : s[0];
    const double* v = a.as<double>().data();
    std::vector<double> out(a.size());
    for (std::size_t b = 0; b < bins; ++b)
        for (std::size_t j = 0; j < lags; ++j)
            out[b * lags + j] = lagsFirst ? v[j * bins + b] : v[b * lags + j];
    return out;
}

// Multi-tau lags from the delays in frames; the level of a lag from its spacing (2^k at level k).
void setLags(Result& r, const std::vector<double>& delays, double frameSeconds) {
    r.multitau = true;
    r.frames = delays.size();
    for (std::size_t j = 0; j < delays.size(); ++j) {
        r.lagFrames.push_back(static_cast<std::int64_t>(std::llround(delays[j])));
        const double step = j == 0 ? 1.0 : delays[j] - delays[j - 1];
        r.levels.push_back(step > 1 ? static_cast<std::int32_t>(std::lround(std::log2(step))) : 0);
        r.tau.push_back(delays[j] * (frameSeconds > 0 ? frameSeconds : 1.0));
    }
    r.tauInSeconds = frameSeconds > 0;
}

// Pixels of each label in a label map (0 where there is none).
std::vector<std::int64_t> pixelsOf(const H5Reader& file, const std::string& map,
                                   const std::vector<std::int64_t>& values) {
    std::vector<std::int64_t> out(values.size(), 0);
    if (!file.hasDataset(map)) return out;
    std::map<std::int64_t, std::int64_t> count;
    const Array m = file.read(map, DType::Int64);
    for (std::int64_t v : m.as<std::int64_t>())
        ++count[v];
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i] = count.count(values[i]) ? count[values[i]] : 0;
    return out;
}

// q in 1/Å from a q list whose units may be 1/nm.
double inverseAngstrom(const H5Reader& file, const std::string& path, double q) {
    const std::string units = file.stringAttribute(path, "units").value_or("");
    return units == "1/nm" || units == "nm^-1" || units == "1/nanometer" ? q / 10 : q;
}

void readTable(const H5Reader& file, const std::string& g2, const std::string& err,
               const std::vector<double>& delays, Result& r) {
    std::size_t bins = 0, errBins = 0;
    r.g2 = byBin(file, g2, delays.size(), bins);
    r.g2Err = file.hasDataset(err) ? byBin(file, err, delays.size(), errBins)
                                   : std::vector<double>(r.g2.size(), std::nan(""));
    if (file.hasDataset(err) && errBins != bins)
        throw InputError(file.where(err) + ": expected the shape of " + g2);
    r.labels.resize(bins);
    for (std::size_t b = 0; b < bins; ++b)
        r.labels[b] = static_cast<std::int32_t>(b + 1);
}

ForeignResult readAps(const H5Reader& file) {
    ForeignResult out;
    Result& r = out.result;
    const std::vector<double> delays = column(file, "/xpcs/multitau/delay_list");
    const double frame = scalarAt(file, "/entry/instrument/detector_1/frame_time").value_or(0) *
                         scalarAt(file, "/xpcs/multitau/config/stride_frame").value_or(1) *
                         scalarAt(file, "/xpcs/multitau/config/avg_frame").value_or(1);
    setLags(r, delays, frame);
    readTable(file, apsG2, "/xpcs/multitau/normalized_g2_err", delays, r);
    const std::string q = "/xpcs/qmap/dynamic_v_list_dim0";
    std::vector<std::int64_t> natural(r.labels.begin(), r.labels.end()); // 1-based
    if (file.hasDataset("/xpcs/qmap/dynamic_index_mapping")) {
        const std::vector<double> mapping = column(file, "/xpcs/qmap/dynamic_index_mapping");
        if (mapping.size() != r.labels.size())
            throw InputError(file.where("/xpcs/qmap/dynamic_index_mapping") + ": expected " +
                             std::to_string(r.labels.size()) + " entries (one per g2 column)");
        for (std::size_t j = 0; j < mapping.size(); ++j)
            natural[j] = static_cast<std::int64_t>(mapping[j]) + 1;
    }
    if (file.hasDataset(q)) {
        const std::vector<double> qs = column(file, q);
        const std::string phi = "/xpcs/qmap/dynamic_v_list_dim1";
        const std::size_t phis = file.hasDataset(phi) ? column(file, phi).size() : 1;
        for (std::size_t j = 0; j < natural.size(); ++j)
            if (const std::size_t i = std::size_t(natural[j] - 1) / phis; i < qs.size())
                out.qByLabel[r.labels[j]] = inverseAngstrom(file, q, qs[i]);
    }
    r.pixels = pixelsOf(file, "/xpcs/qmap/dynamic_roi_map", natural);
    return out;
}

ForeignResult readNx(const H5Reader& file) {
    ForeignResult out;
    Result& r = out.result;
    const std::vector<double> delays = column(file, "/entry/data/delay_difference");
    setLags(r, delays, scalarAt(file, "/entry/instrument/detector_1/frame_time").value_or(0));
    readTable(file, nxG2, "/entry/data/g2_derr", delays, r);
    const std::string masks = "/entry/instrument/masks";
    if (file.hasDataset(masks + "/roi_labels")) {
        const std::vector<double> labels = column(file, masks + "/roi_labels");
        if (labels.size() != r.labels.size())
            throw InputError(file.where(masks + "/roi_labels") + ": expected " +
                             std::to_string(r.labels.size()) + " labels (one per g2 column)");
        for (std::size_t b = 0; b < labels.size(); ++b)
            r.labels[b] = static_cast<std::int32_t>(labels[b]);
    }
    if (const std::string q = masks + "/dynamic_q_list"; file.hasDataset(q)) {
        const std::vector<double> qs = column(file, q);
        for (std::size_t b = 0; b < r.labels.size() && b < qs.size(); ++b)
            out.qByLabel[r.labels[b]] = inverseAngstrom(file, q, qs[b]);
    }
    r.pixels = pixelsOf(file, masks + "/dynamic_roi_map",
                        std::vector<std::int64_t>(r.labels.begin(), r.labels.end()));
    if (file.stringAttribute(nxG2, "g2_normalisation").value_or("") == "symmetric")
        r.normalisation = Normalisation::Symmetric;
    return out;
}

} // namespace

std::string foreignLayoutIn(const H5Reader& file) {
    if (file.hasDataset(apsG2) && file.hasDataset("/xpcs/multitau/delay_list")) return "aps";
    if (file.hasDataset(nxG2) && file.hasDataset("/entry/data/delay_difference")) return "nxxpcs";
    return "";
}

ForeignResult readForeignResult(const H5Reader& file, const std::string& layout) {
    if (layout == "aps") {
        ForeignResult out = readAps(file);
        // boost_corr's normalisation unless the file says otherwise (clscope's aps layout does)
        const auto n = file.stringAttribute(apsG2, "g2_normalisation");
        out.result.normalisation =
            n.value_or("symmetric") == "frame" ? Normalisation::Frame : Normalisation::Symmetric;
        return out;
    }
    if (layout == "nxxpcs") return readNx(file);
    throw InputError(file.fileName() + ": no xpcs result in the aps or nxxpcs layout");
}

} // namespace clscope::xpcs
