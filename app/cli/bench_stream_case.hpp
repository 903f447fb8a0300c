// The bench case of `clscope-cli bench stream` (cli_bench_stream.cpp): synthetic EIGER2 frames,
// their bslz4, the table's lines and the images a run holds; the device's lines
// (cli_bench_stream_device.cpp).
#pragma once
#include "core/array.hpp"
#include "core/stream/compression.hpp"

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clscope {
struct DeviceInfo;
class Algorithm;
} // namespace clscope

namespace clscope::cli::bench_stream {

using Bytes = std::vector<std::byte>;
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t);

struct Case {
    std::size_t height = 0, width = 0, frames = 0;
    std::vector<Array> raw;
    std::vector<Bytes> packed; // bslz4 of each raw frame
    std::size_t frameBytes() const { return height * width * 2; }
    double packedMean() const {
        double s = 0;
        for (const auto& p : packed)
            s += double(p.size());
        return s / double(packed.size());
    }
};

// The frames of a size (16m, 4m, small), `frames` of them (0: the size's default), photons
// alone at `occupancy` where it is > 0 (a fraction of the pixels non-zero); the bslz4 round
// trip checked.
Case makeCase(const std::string& size, int frames, double occupancy = 0);

struct Line {
    std::string what;
    std::size_t threads = 0;
    double seconds = 0, framesPerSecond = 0, wireGBs = 0, decodedGBs = 0, decodeMsPerFrame = 0;
    std::string note{};
};

// The integer images the run needs that a stream does not carry (required, of the frames'
// shape, e.g. q-bin labels), held in memory: rings 32 pixels wide about the centre, pixels at
// the dtype's largest value in `sample` (module gaps) 0, as a detector's pixel mask leaves them;
// none (no rings made) where no input role needs one.
std::map<std::string, std::shared_ptr<const Array>> heldImages(const Algorithm& algorithm,
                                                               const Array& sample);

// On an OpenCL device: decoding the compressed frames there, and the decoded frames' upload.
std::vector<Line> deviceLines(const Case& c, const DeviceInfo& device);

} // namespace clscope::cli::bench_stream
