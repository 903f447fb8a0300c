#include "core/xpcs/synthetic.hpp"
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "core/mask/rings.hpp"
#include "core/sparse/csr_writer.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

namespace clscope::synthetic {

namespace {

template <class T>
void fillFrames(std::span<T> out, const XpcsParams& p, const std::vector<double>& r,
                const std::vector<std::int32_t>& labels) {
    const std::size_t npix = p.height * p.width;
    const double rmax = *std::max_element(r.begin(), r.end());
    const double tmax = static_cast<double>(std::numeric_limits<T>::max());
    // Each frame has its own generator, so the result does not depend on the thread count.
    auto fillFrame = [&](std::size_t t) {
        std::mt19937_64 rng(p.seed * 1000003ULL + t);
        const double s = p.frames > 1 ? 100.0 * static_cast<double>(t) / (p.frames - 1) : 0.0;
        for (std::size_t i = 0; i < npix; ++i) {
            const double base = p.intensity * (rmax - r[i]) / rmax;
            const double rate = 0.5 * (std::sin(labels[i] * s) + 1.0) * base + 1.0;
            std::poisson_distribution<long> poisson(rate);
            out[t * npix + i] = static_cast<T>(std::min<double>(tmax, poisson(rng)));
        }
    };
    const unsigned nthreads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < nthreads; ++w)
        pool.emplace_back([&, w] {
            for (std::size_t t = w; t < p.frames; t += nthreads)
                fillFrame(t);
        });
    for (auto& th : pool)
        th.join();
}

} // namespace

XpcsDataset generateXpcs(const XpcsParams& p) {
    if (p.frames < 1 || p.height < 1 || p.width < 1)
        throw UsageError("xpcs: frames, height and width must be at least 1");
    if (!(p.ringWidth > 0)) throw UsageError("xpcs: ring width must be > 0 pixels");
    if (p.model == "brownian") return generateBrownianXpcs(p);
    if (p.model != "seed")
        throw UsageError("xpcs: model must be seed or brownian, not '" + p.model + "'");
    const std::vector<double> r = mask::centreRadii(p.height, p.width);
    XpcsDataset d;
    d.labels = mask::ringLabels(p.height, p.width, p.ringWidth);
    d.frames = Array(p.dtype, {p.frames, p.height, p.width});
    switch (p.dtype) {
    case DType::UInt8:
        fillFrames(d.frames.as<std::uint8_t>(), p, r, d.labels.labels);
        break;
    case DType::UInt16:
        fillFrames(d.frames.as<std::uint16_t>(), p, r, d.labels.labels);
        break;
    case DType::UInt32:
        fillFrames(d.frames.as<std::uint32_t>(), p, r, d.labels.labels);
        break;
    case DType::Int32:
        fillFrames(d.frames.as<std::int32_t>(), p, r, d.labels.labels);
        break;
    case DType::Float32:
        fillFrames(d.frames.as<float>(), p, r, d.labels.labels);
        break;
    default:
        throw UsageError("xpcs: dtype must be uint8, uint16, uint32, int32 or float32");
    }
    if (p.frameTime > 0) d.frameTime = p.frameTime;
    return d;
}

namespace {

std::string writeFrames(H5Writer& out, const Array& frames, Compression c, bool sparse) {
    const std::string dense = shapeString(frames.shape()) + " " + dtypeName(frames.dtype());
    if (!sparse) {
        out.write(paths::frames, frames, c);
        return paths::frames + " " + dense;
    }
    CsrWriter csr(frames.dtype(), frames.height(), frames.width(), "generate xpcs");
    csr.add(frames);
    return CsrWriter::group + " of " + dense + " frames: " + csr.write(out);
}

} // namespace

std::string writeXpcs(H5Writer& out, const XpcsDataset& d, Compression c, bool sparse) {
    const std::string frames = writeFrames(out, d.frames, c, sparse);
    out.write(paths::qmask, labelsArray(d.labels), c);
    if (d.frameTime) {
        out.writeScalar(paths::frameTime, *d.frameTime);
        out.setAttribute(paths::frameTime, "units", "s");
    }
    if (d.geometry) mask::writeGeometry(out, *d.geometry);
    if (d.centers) mask::writeLabelCenters(out, *d.centers);
    if (d.diffusion) {
        out.writeScalar(paths::trueDiffusion, *d.diffusion);
        out.setAttribute(paths::trueDiffusion, "units", "angstrom^2/s");
    }
    return frames;
}

} // namespace clscope::synthetic
