#include "core/xpcs/xpcs_io.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace clscope::xpcs {

void writeResult(H5Writer& out, const Result& r, const std::string& group) {
    writeResultData(out, r, group);
    writeProvenance(out, group, {r.device, r.variant, r.parametersJson, r.kernelMs});
}

void writeResultData(H5Writer& out, const Result& r, const std::string& group) {
    const std::size_t bins = r.binCount(), frames = r.frames;
    out.write(group + "/g2", makeArray<double>({bins, frames}, r.g2));
    out.write(group + "/g2_err", makeArray<double>({bins, frames}, r.g2Err));
    out.write(group + "/labels", makeArray<std::int32_t>({bins}, r.labels));
    out.write(group + "/pixels", makeArray<std::int64_t>({bins}, r.pixels));
    out.write(group + "/tau", makeArray<double>({frames}, r.tau));
    out.setAttribute(group + "/tau", "units", r.tauInSeconds ? "s" : "frames");
    out.setAttribute(group, "mode", r.multitau ? "multitau" : "dense");
    if (r.normalisation == Normalisation::Symmetric) {
        out.setAttribute(group, "g2_normalisation", "symmetric");
        out.setAttribute(group + "/g2_err", "definition",
                         r.errFromPixels ? "pixels (boost_corr)" : "frame, scaled as g2");
    }
    if (r.multitau) {
        out.write(group + "/lag_frames", makeArray<std::int64_t>({frames}, r.lagFrames));
        out.setAttribute(group + "/lag_frames", "units", "frames");
        out.write(group + "/level", makeArray<std::int32_t>({frames}, r.levels));
    }
    if (r.multitau && !r.twotime.empty())
        out.setAttribute(group, "twotime_bin", static_cast<double>(r.twotimeBin));
    for (const auto& [label, map] : r.twotime) {
        // T x T, or (T/F) x (T/F) for multi-tau (--twotime-bin F)
        const auto side = static_cast<std::size_t>(std::llround(std::sqrt(double(map.size()))));
        out.write(group + "/twotime/" + std::to_string(label), makeArray<float>({side, side}, map),
                  Compression::Gzip);
    }
}

namespace {

// The dataset at group/name as T, checked to hold `count` values (a vector of that length, or
// the (B,T) shape of g2): InputError naming it otherwise.
template <class T>
std::vector<T> readValues(const H5Reader& file, const std::string& path, std::size_t rank,
                          std::size_t count, const std::string& what) {
    const Array a = file.read(path, dtypeOf<T>());
    if (a.rank() != rank || a.size() != count)
        throw InputError(file.where(path) + ": expected " + what + ", found " +
                         shapeString(a.shape()));
    return std::vector<T>(a.as<T>().begin(), a.as<T>().end());
}

// The two-time maps, each square (T x T, or binned for multi-tau), named by their label.
void readTwotime(const H5Reader& file, const std::string& group, Result& r) {
    if (!file.hasObject(group + "/twotime")) return;
    for (const H5Node& node : file.children(group + "/twotime")) {
        const Array map = file.read(node.path, DType::Float32);
        if (map.rank() != 2 || map.shape()[0] != map.shape()[1])
            throw InputError(file.where(node.path) + ": expected a square two-time map, found " +
                             shapeString(map.shape()));
        std::int32_t label = 0;
        try {
            label = std::stoi(node.name);
        } catch (const std::exception&) {
            throw InputError(file.where(node.path) + ": a two-time map is named by its label");
        }
        r.twotime[label].assign(map.as<float>().begin(), map.as<float>().end());
    }
}

} // namespace

Result readResult(const H5Reader& file, const std::string& group) {
    Result r;
    const Array g2 = file.read(group + "/g2", DType::Float64);
    if (g2.rank() != 2) throw InputError(file.where(group + "/g2") + ": expected (B,T)");
    const std::size_t bins = g2.shape()[0];
    r.frames = g2.shape()[1];
    r.g2.assign(g2.as<double>().begin(), g2.as<double>().end());
    const std::string b = "(" + std::to_string(bins) + ")",
                      t = "(" + std::to_string(r.frames) + ")";
    r.g2Err = readValues<double>(file, group + "/g2_err", 2, g2.size(), "the shape of g2");
    r.labels = readValues<std::int32_t>(file, group + "/labels", 1, bins, b);
    r.pixels = readValues<std::int64_t>(file, group + "/pixels", 1, bins, b);
    r.tau = readValues<double>(file, group + "/tau", 1, r.frames, t);
    r.tauInSeconds = file.stringAttribute(group + "/tau", "units").value_or("") == "s";
    r.multitau = file.stringAttribute(group, "mode").value_or("") == "multitau";
    if (r.multitau) {
        r.lagFrames = readValues<std::int64_t>(file, group + "/lag_frames", 1, r.frames, t);
        r.levels = readValues<std::int32_t>(file, group + "/level", 1, r.frames, t);
    }
    readTwotime(file, group, r);
    if (const auto bin = file.stringAttribute(group, "twotime_bin"))
        r.twotimeBin = static_cast<std::size_t>(std::max(std::atof(bin->c_str()), 1.0));
    if (file.stringAttribute(group, "g2_normalisation").value_or("") == "symmetric") {
        r.normalisation = Normalisation::Symmetric;
        r.errFromPixels = file.stringAttribute(group + "/g2_err", "definition")
                              .value_or("")
                              .starts_with("pixels");
    }
    r.device = file.stringAttribute(group, "device").value_or("");
    r.variant = file.stringAttribute(group, "variant").value_or("");
    return r;
}

std::optional<std::vector<double>> readBinQ(const H5Reader& file, std::size_t binCount,
                                            const std::string& path) {
    if (!file.hasDataset(path)) return std::nullopt;
    const Array q = file.read(path, DType::Float64);
    if (q.rank() != 1 || q.size() != binCount)
        throw InputError(file.where(path) + ": expected " + std::to_string(binCount) +
                         " q values (one per bin), found shape " + shapeString(q.shape()));
    return std::vector<double>(q.as<double>().begin(), q.as<double>().end());
}

} // namespace clscope::xpcs
