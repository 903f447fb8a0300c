#include "app/cli/bench_stream_case.hpp"

#include "core/errors.hpp"
#include "core/mask/rings.hpp"
#include "core/stream/series_encoder.hpp"
#include "gpu/algorithm.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>

#if defined(CLSCOPE_HAVE_DECOMPRESS)
namespace clscope::cli::bench_stream {

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

namespace {

// A photon-counting frame: background of a few counts, bright Gaussian peaks up to ~2000
// counts, horizontal module gaps at 0xFFFF. With `occupancy` (a fraction, > 0): photons alone,
// Poisson counts of the mean that leaves that share of the pixels non-zero (mostly zero frames).
Array syntheticFrame(std::size_t h, std::size_t w, unsigned seed, double occupancy) {
    Array a(DType::UInt16, {h, w});
    auto* v = reinterpret_cast<std::uint16_t*>(a.bytes());
    std::mt19937 rng(seed);
    std::poisson_distribution<int> background(occupancy > 0 ? -std::log1p(-occupancy) : 0.3);
    for (std::size_t i = 0; i < h * w; ++i)
        v[i] = static_cast<std::uint16_t>(background(rng));
    const int peaks = occupancy > 0 ? 0 : int(2000.0 * double(h * w) / (4148.0 * 4362.0));
    std::uniform_int_distribution<std::size_t> ry(3, h - 4), rx(3, w - 4);
    std::uniform_real_distribution<double> peak(50, 2000);
    for (int s = 0; s < peaks; ++s) {
        const std::size_t y = ry(rng), x = rx(rng);
        const double p = peak(rng);
        for (int dy = -3; dy <= 3; ++dy)
            for (int dx = -3; dx <= 3; ++dx)
                v[(y + dy) * w + x + dx] += std::uint16_t(p * std::exp(-(dy * dy + dx * dx) / 2.));
    }
    for (std::size_t y = 514; y < h; y += 551)
        for (std::size_t r = y; r < std::min(h, y + 37); ++r)
            std::fill_n(v + r * w, w, std::uint16_t(0xFFFF));
    return a;
}

} // namespace

Case makeCase(const std::string& size, int frames, double occupancy) {
    Case c;
    if (size == "16m")
        c.height = 4148, c.width = 4362, c.frames = 200;
    else if (size == "4m")
        c.height = 2068, c.width = 2162, c.frames = 800;
    else if (size == "small") // a quick check of the bench itself
        c.height = 512, c.width = 512, c.frames = 64;
    else
        throw UsageError("bench stream: no size '" + size + "' (16m, 4m, small)");
    if (frames < 0) throw UsageError("bench stream: --frames must be at least 1");
    if (frames > 0) c.frames = std::size_t(frames);
    if (!(occupancy >= 0 && occupancy < 1))
        throw UsageError("bench stream: --occupancy is a fraction in [0, 1)");
    for (unsigned seed = 0; seed < 2; ++seed) {
        c.raw.push_back(syntheticFrame(c.height, c.width, seed + 7, occupancy));
        c.packed.push_back(stream::compressBslz4({c.raw.back().bytes(), c.frameBytes()}, 2));
        Array back(DType::UInt16, {c.height, c.width});
        stream::decompress("bslz4", 2, c.packed.back(), {back.bytes(), back.byteSize()});
        if (std::memcmp(back.bytes(), c.raw.back().bytes(), c.frameBytes()) != 0)
            throw std::runtime_error("bench stream: the bslz4 round trip differs");
    }
    return c;
}

std::map<std::string, std::shared_ptr<const Array>> heldImages(const Algorithm& algorithm,
                                                               const Array& sample) {
    std::map<std::string, std::shared_ptr<const Array>> held;
    std::optional<LabelMask> rings; // made for the first role that needs them
    const double gap = double((std::uint64_t(1) << (8 * dtypeSize(sample.dtype()))) - 1);
    for (const InputRole& role : algorithm.inputRoles()) {
        if (role.optional || role.stack || role.layout != InputRole::Layout::IntegerImage) continue;
        if (!rings) rings = mask::ringLabels(sample.height(), sample.width(), 32.0);
        auto image = std::make_shared<Array>(DType::Int32, Shape{sample.height(), sample.width()});
        auto* to = reinterpret_cast<std::int32_t*>(image->bytes());
        for (std::size_t i = 0; i < rings->labels.size(); ++i)
            to[i] = sample.valueAt(i) == gap ? 0 : rings->labels[i];
        held[role.id] = std::move(image);
    }
    return held;
}

} // namespace clscope::cli::bench_stream
#endif
