// xpcs variant mma: the prepare by bands (see mma_band.hpp and xpcs_mma_band.cl).
#include "gpu/xpcs/mma_band.hpp"

#include "core/errors.hpp"

namespace clscope::xpcs {

namespace {

constexpr std::size_t bandGroup = 256;       // MMA_BAND_WG
constexpr std::uint16_t notInChunk = 0xffff; // slot of a raw pixel the chunk does not hold

// Each padding position goes to the band of the last pixel before it (the end of its bin).
std::vector<std::size_t> bandOf(const Chunk& chunk, std::size_t bandPixels) {
    std::vector<std::size_t> band(chunk.source.size());
    std::size_t last = 0;
    for (std::size_t q = 0; q < band.size(); ++q) {
        if (chunk.source[q] >= 0) last = static_cast<std::size_t>(chunk.source[q]) / bandPixels;
        band[q] = last;
    }
    return band;
}

} // namespace

BandLists bandLists(const Chunk& chunk, std::size_t rawFrameSize, std::size_t bandPixels) {
    if (bandPixels == 0 || bandPixels > notInChunk)
        throw UsageError("xpcs mma: bands of " + std::to_string(bandPixels) +
                         " pixels; accepted: 1 to 65535");
    const std::size_t bands = (rawFrameSize + bandPixels - 1) / bandPixels;
    const std::vector<std::size_t> band = bandOf(chunk, bandPixels);
    BandLists l;
    l.real.assign(bands, 0);
    std::vector<std::int32_t> count(bands, 0);
    for (std::size_t q = 0; q < band.size(); ++q)
        ++count[band[q]], l.real[band[q]] += chunk.source[q] >= 0 ? 1 : 0;
    l.lists.assign(bands + 1, 0);
    for (std::size_t b = 0; b < bands; ++b)
        l.lists[b + 1] = l.lists[b] + count[b];
    l.positions.resize(band.size());
    l.slot.assign(rawFrameSize, notInChunk);
    std::vector<std::int32_t> pixels(bands, 0), pads(bands, 0); // filled so far
    for (std::size_t q = 0; q < band.size(); ++q) {
        const std::size_t b = band[q];
        const std::int32_t p = chunk.source[q];
        const std::int32_t at = p >= 0 ? pixels[b]++ : l.real[b] + pads[b]++;
        l.positions[static_cast<std::size_t>(l.lists[b] + at)] = static_cast<std::int32_t>(q);
        if (p >= 0) l.slot[static_cast<std::size_t>(p)] = static_cast<std::uint16_t>(at);
    }
    return l;
}

BandBuffers uploadBands(DeviceRun& run, const Chunk& chunk, std::size_t rawFrameSize,
                        std::size_t bandPixels, std::size_t framesPerGroup) {
    const BandLists l = bandLists(chunk, rawFrameSize, bandPixels);
    ClSession& s = run.session;
    BandBuffers b;
    b.bands = l.real.size(), b.bandPixels = bandPixels, b.framesPerGroup = framesPerGroup;
    auto upload = [&](cl::Buffer& to, const void* data, std::size_t bytes, const char* what) {
        to = s.allocate(std::max<std::size_t>(bytes, 4), what);
        s.upload(to, data, bytes, "copy H->D band lists");
    };
    upload(b.slot, l.slot.data(), l.slot.size() * 2, "xpcs mma band slots");
    upload(b.lists, l.lists.data(), l.lists.size() * 4, "xpcs mma band lists");
    upload(b.real, l.real.data(), l.real.size() * 4, "xpcs mma band pixels");
    upload(b.positions, l.positions.data(), l.positions.size() * 4, "xpcs mma band positions");
    const std::size_t stride = chunk.paddedPixels();
    s.fill(run.data, stride, "xpcs mma row of ones", 1, std::size_t(run.frames) * stride);
    return b;
}

void prepareBandFrames(DeviceRun& run, const BandBuffers& b, const cl::Buffer& raw,
                       const Chunk& chunk, int rawFrameSize, std::size_t t0, std::size_t t1) {
    cl::Kernel k = xpcsKernel(run.session, "xpcs_mma_prepare_band", run.options);
    setArgs(k, raw, b.slot, b.lists, b.real, b.positions, run.data, rawFrameSize,
            static_cast<int>(chunk.paddedPixels()), static_cast<int>(t0), static_cast<int>(t1));
    const std::size_t blocks = (t1 - t0 + b.framesPerGroup - 1) / b.framesPerGroup;
    run.session.launch(k, "xpcs mma prepare (bands)",
                       {{b.bands * bandGroup, blocks}, {bandGroup, 1}});
}

void sumsFromGram(DeviceRun& run) {
    cl::Kernel k = xpcsKernel(run.session, "xpcs_mma_sums_from_gram", run.options);
    setArgs(k, run.gram, run.sums, run.frames, run.framePad, run.binCount, run.slots);
    run.session.launch(
        k, "xpcs mma frame sums (Gram row)",
        {{roundUp(std::size_t(run.frames), 64), std::size_t(run.binCount)}, {64, 1}});
}

} // namespace clscope::xpcs
