// xpcs variant mma: the prepare by bands of raw pixels (MMA_PREP_BAND=1, see
// resources/kernels/xpcs_mma_band.cl): each band of raw pixels read once, coalesced, and
// scattered to the chunk through lists the host makes; the frame sums from the Gram kernel's
// row of ones. Internal to gpu/xpcs (used by mma.cpp).
#pragma once
#include "gpu/xpcs/runner.hpp"

#include <cstdint>
#include <vector>

namespace clscope::xpcs {

// Where the pixels of each band of `bandPixels` raw pixels go in a chunk.
struct BandLists {
    std::vector<std::uint16_t> slot;     // raw pixel -> place in its band's list; 0xffff: none
    std::vector<std::int32_t> lists;     // bands + 1 offsets into positions
    std::vector<std::int32_t> real;      // per band: how many of its positions are pixels
    std::vector<std::int32_t> positions; // chunk positions: a band's pixels in increasing
                                         // order, then the padding positions it writes (0)
};
BandLists bandLists(const Chunk& chunk, std::size_t rawFrameSize, std::size_t bandPixels);

// A chunk's band lists on the device.
struct BandBuffers {
    cl::Buffer slot, lists, real, positions;
    std::size_t bands = 0, bandPixels = 0, framesPerGroup = 0;
};

// Upload the chunk's band lists and write the chunk's row of ones (row run.frames).
BandBuffers uploadBands(DeviceRun& run, const Chunk& chunk, std::size_t rawFrameSize,
                        std::size_t bandPixels, std::size_t framesPerGroup);

// xpcs_mma_prepare_band over frames [t0, t1) held in raw (frame t0 first).
void prepareBandFrames(DeviceRun& run, const BandBuffers& b, const cl::Buffer& raw,
                       const Chunk& chunk, int rawFrameSize, std::size_t t0, std::size_t t1);

// run.sums from Gram row run.frames (xpcs_mma_sums_from_gram), after the Gram kernel.
void sumsFromGram(DeviceRun& run);

} // namespace clscope::xpcs
