#include "core/xpcs/xpcs_io.hpp"

#include "core/errors.hpp"

#include <cmath>

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
    for (const auto& [label, map] : r.twotime) {
        // T x T, or (T/F) x (T/F) for multi-tau (--twotime-bin F)
        const auto side = static_cast<std::size_t>(std::llround(std::sqrt(double(map.size()))));
        out.write(group + "/twotime/" + std::to_string(label), makeArray<float>({side, side}, map),
                  Compression::Gzip);
    }
}

Result readResult(const H5Reader& file, const std::string& group) {
    Result r;
    const Array g2 = file.read(group + "/g2", DType::Float64);
    if (g2.rank() != 2) throw InputError(file.where(group + "/g2") + ": expected (B,T)");
    r.frames = g2.shape()[1];
    r.g2.assign(g2.as<double>().begin(), g2.as<double>().end());
    const Array err = file.read(group + "/g2_err", DType::Float64);
    r.g2Err.assign(err.as<double>().begin(), err.as<double>().end());
    const Array labels = file.read(group + "/labels", DType::Int32);
    r.labels.assign(labels.as<std::int32_t>().begin(), labels.as<std::int32_t>().end());
    const Array pixels = file.read(group + "/pixels", DType::Int64);
    r.pixels.assign(pixels.as<std::int64_t>().begin(), pixels.as<std::int64_t>().end());
    const Array tau = file.read(group + "/tau", DType::Float64);
    r.tau.assign(tau.as<double>().begin(), tau.as<double>().end());
    r.tauInSeconds = file.stringAttribute(group + "/tau", "units").value_or("") == "s";
    r.multitau = file.stringAttribute(group, "mode").value_or("") == "multitau";
    if (r.multitau) {
        const Array lags = file.read(group + "/lag_frames", DType::Int64);
        r.lagFrames.assign(lags.as<std::int64_t>().begin(), lags.as<std::int64_t>().end());
        const Array levels = file.read(group + "/level", DType::Int32);
        r.levels.assign(levels.as<std::int32_t>().begin(), levels.as<std::int32_t>().end());
    }
    if (file.hasObject(group + "/twotime"))
        for (const H5Node& node : file.children(group + "/twotime")) {
            const Array map = file.read(node.path, DType::Float32);
            r.twotime[std::stoi(node.name)].assign(map.as<float>().begin(), map.as<float>().end());
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
