// xpcs model "brownian": speckle of diffusing particles with a known D (synthetic.hpp).
#include "core/errors.hpp"
#include "core/xpcs/synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <random>
#include <thread>

namespace clscope::synthetic {

namespace {

// Every pixel's counts over all frames; its own generator, so threads do not matter.
template <class T>
void fillPixels(std::span<T> out, const XpcsParams& p, const std::vector<double>& rho,
                const std::vector<double>& mean) {
    const std::size_t npix = p.height * p.width;
    const double most = static_cast<double>(std::numeric_limits<T>::max());
    auto fillPixel = [&](std::size_t i) {
        std::mt19937_64 rng(p.seed * 1000003ULL + i + 0x9E3779B97F4A7C15ULL);
        std::normal_distribution<double> gauss(0.0, std::sqrt(0.5)); // E|field|^2 = 1
        std::complex<double> field(gauss(rng), gauss(rng));
        const double keep = rho[i], fresh = std::sqrt(1.0 - rho[i] * rho[i]);
        for (std::size_t t = 0; t < p.frames; ++t) {
            if (t > 0) field = keep * field + fresh * std::complex<double>(gauss(rng), gauss(rng));
            const double rate = mean[i] * std::norm(field);
            const double counts =
                rate > 0 ? static_cast<double>(std::poisson_distribution<long>(rate)(rng)) : 0.0;
            out[t * npix + i] = static_cast<T>(std::min(most, counts));
        }
    };
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < threads; ++w)
        pool.emplace_back([&, w] {
            for (std::size_t i = w; i < npix; i += threads)
                fillPixel(i);
        });
    for (auto& th : pool)
        th.join();
}

} // namespace

XpcsDataset generateBrownianXpcs(const XpcsParams& p) {
    if (!(p.diffusion > 0) || !(p.distance > 0) || !(p.pixelSize > 0) || !(p.wavelength > 0))
        throw UsageError("xpcs brownian: diffusion, distance, pixel size, wavelength must be > 0");
    XpcsDataset d;
    mask::Geometry g;
    g.beamCenterX = static_cast<double>(p.width) / 2,
    g.beamCenterY = static_cast<double>(p.height) / 2;
    g.distance = p.distance, g.pixelSizeX = g.pixelSizeY = p.pixelSize, g.wavelength = p.wavelength;
    const double frameTime = p.frameTime > 0 ? p.frameTime : 1e-3;
    const std::size_t npix = p.height * p.width;
    d.labels = {p.height, p.width, std::vector<std::int32_t>(npix)};
    std::vector<double> rho(npix), mean(npix);
    std::map<std::int32_t, std::pair<double, double>> qSum; // label -> (sum q nm^-1, count)
    const double falloff = static_cast<double>(std::min(p.height, p.width)) / 4;
    for (std::size_t y = 0; y < p.height; ++y)
        for (std::size_t x = 0; x < p.width; ++x) {
            const std::size_t i = y * p.width + x;
            const double px = static_cast<double>(x) + 0.5, py = static_cast<double>(y) + 0.5;
            const double r = std::hypot(px - g.beamCenterX, py - g.beamCenterY);
            const double q = mask::anglesAt(g, px, py).q; // nm^-1
            const double qA = q / 10.0;                   // 1/Å
            const auto label = static_cast<std::int32_t>(std::floor(r / p.ringWidth));
            d.labels.labels[i] = label;
            rho[i] = std::exp(-p.diffusion * qA * qA * frameTime);
            mean[i] = p.intensity / (1.0 + (r / falloff) * (r / falloff));
            if (label > 0) qSum[label].first += q, qSum[label].second += 1;
        }
    mask::LabelCenters centers;
    for (const auto& [label, sum] : qSum) {
        centers.labelIds.push_back(label);
        centers.q.push_back(sum.first / sum.second);
        centers.phi.push_back(std::numeric_limits<double>::quiet_NaN());
    }
    d.frames = Array(p.dtype, {p.frames, p.height, p.width});
    switch (p.dtype) {
    case DType::UInt8:
        fillPixels(d.frames.as<std::uint8_t>(), p, rho, mean);
        break;
    case DType::UInt16:
        fillPixels(d.frames.as<std::uint16_t>(), p, rho, mean);
        break;
    case DType::UInt32:
        fillPixels(d.frames.as<std::uint32_t>(), p, rho, mean);
        break;
    case DType::Int32:
        fillPixels(d.frames.as<std::int32_t>(), p, rho, mean);
        break;
    case DType::Float32:
        fillPixels(d.frames.as<float>(), p, rho, mean);
        break;
    default:
        throw UsageError("xpcs: dtype must be uint8, uint16, uint32, int32 or float32");
    }
    d.frameTime = frameTime;
    d.geometry = g;
    d.centers = std::move(centers);
    d.diffusion = p.diffusion;
    return d;
}

} // namespace clscope::synthetic
