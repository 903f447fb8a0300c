// spots's result reader facet: /spots read back into the SpotsResult a run returns: the signal
// mask (and from it each frame's signal pixels and counts), the spot table and, when written,
// the debug images. What /spots does not hold stays at its default: a spot's frame range past
// its first frame, z, peak and first pixel, and the global threshold used.
#include "gpu/facets/result_reader.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"
#include "gpu/spots/run_types.hpp"

namespace clscope::spots {

namespace {

// The signal mask (T,H,W) or (H,W), each frame's signal pixels and their count.
void readSignal(const H5Reader& file, const std::string& path, Result& r) {
    const Array signal = file.read(path, DType::UInt8);
    expectShape(file, path, signal, signal.rank() == 3 || signal.rank() == 2, "(T,H,W) or (H,W)");
    r.shape = signal.shape();
    r.signal.assign(signal.as<std::uint8_t>().begin(), signal.as<std::uint8_t>().end());
    const std::size_t plane = r.shape[r.shape.size() - 1] * r.shape[r.shape.size() - 2];
    r.pixels = signalPixels(r.signal, plane);
    for (const auto& frame : r.pixels)
        r.strongPerFrame.push_back(static_cast<std::int64_t>(frame.size()));
}

// The spot table: frame, x, y, npix, intensity and bbox (n,4) of one length n.
std::vector<Spot> readSpots(const H5Reader& file, const std::string& group) {
    const auto frame = storedColumn<std::int32_t>(file, group + "/frame");
    const std::size_t n = frame.size();
    const auto x = storedColumn<double>(file, group + "/x", n);
    const auto y = storedColumn<double>(file, group + "/y", n);
    const auto npix = storedColumn<std::int32_t>(file, group + "/npix", n);
    const auto intensity = storedColumn<double>(file, group + "/intensity", n);
    const Array bbox = file.read(group + "/bbox", DType::Int32);
    expectShape(file, group + "/bbox", bbox,
                bbox.rank() == 2 && bbox.shape()[0] == n && bbox.shape()[1] == 4,
                "(" + std::to_string(n) + ",4)");
    std::vector<Spot> spots(n);
    for (std::size_t i = 0; i < n; ++i) {
        Spot& s = spots[i];
        s.frame = frame[i], s.frameEnd = frame[i] + 1, s.npix = npix[i];
        s.x = x[i], s.y = y[i], s.intensity = intensity[i];
        const std::int32_t* box = bbox.as<std::int32_t>().data() + 4 * i;
        s.x0 = box[0], s.y0 = box[1], s.x1 = box[2], s.y1 = box[3];
    }
    return spots;
}

template <class T>
std::vector<T> readImage(const H5Reader& file, const std::string& path, const Shape& shape) {
    const Array a = file.read(path, dtypeOf<T>());
    expectShape(file, path, a, a.shape() == shape, "the shape of the signal mask");
    return std::vector<T>(a.as<T>().begin(), a.as<T>().end());
}

DebugImages readDebug(const H5Reader& file, const std::string& group, const Shape& shape) {
    DebugImages d;
    d.mean = readImage<double>(file, group + "/mean", shape);
    d.variance = readImage<double>(file, group + "/variance", shape);
    d.dispersion = readImage<double>(file, group + "/dispersion", shape);
    d.sigmaB = readImage<std::uint8_t>(file, group + "/sigma_b", shape);
    d.sigmaS = readImage<std::uint8_t>(file, group + "/sigma_s", shape);
    d.global = readImage<std::uint8_t>(file, group + "/global", shape);
    d.final = readImage<std::uint8_t>(file, group + "/final", shape);
    return d;
}

class ResultReader final : public TypedResultReader<Algorithm> {
  protected:
    std::string markDataset() const override { return "signal"; }
    std::shared_ptr<SpotsResult> readWith(const H5Reader& file, const std::string& group,
                                          const ParamSet&, const RunInfo&) const override {
        auto out = std::make_shared<SpotsResult>();
        readSignal(file, group + "/signal", out->result);
        out->result.spots = readSpots(file, group);
        if (file.hasObject(group + "/debug"))
            out->debug = readDebug(file, group + "/debug", out->result.shape);
        return out;
    }
};

} // namespace

std::shared_ptr<const Facet> resultReaderFacet() {
    return std::make_shared<ResultReader>();
}

} // namespace clscope::spots
