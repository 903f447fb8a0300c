// spots: what the fused signal list and local's strip kernel add. Values at the top of the 8- and
// 16-bit ranges (the packed count and sum of a window at its limit), and lists of exactly the
// capacity or one pixel more, for every OpenCL variant.
#include "core/spots/spots.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/spots/spots_gpu.hpp"
#include "tst_spots.hpp"

#include <QtTest>
#include <algorithm>
#include <random>

using namespace clscope;
using spots::Method;

namespace {

const DeviceInfo* device() {
    const auto& devices = openclDevices();
    return devices.empty() ? nullptr : &devices.front();
}

// Frames of uniform values in [low, top] with sentinels (top + 1, top + 2) and a few masked
// pixels: windows whose sums reach 63 * top.
template <class T>
spots::Input highImages(std::size_t t, std::size_t h, std::size_t w, int low, int top) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> value(low, top), pick(0, 99);
    std::vector<T> v(t * h * w);
    for (T& x : v) {
        const int r = pick(rng);
        x = static_cast<T>(r == 0 ? top + 1 : r == 1 ? top + 2 : value(rng));
    }
    spots::Input in;
    in.frames = makeArray<T>({t, h, w}, v);
    in.mask = PixelMask{h, w, std::vector<std::uint8_t>(h * w, 0)};
    for (std::size_t k = 0; k < h * w; k += 37)
        in.mask.bad[k] = 1;
    return in;
}

spots::Params dispersion(int kx, int ky) {
    spots::Params p;
    p.kernelX = kx, p.kernelY = ky;
    return p;
}

void expectSame(const DeviceInfo& d, const std::string& variant, const spots::Input& in,
                const spots::Params& p, const std::vector<std::uint8_t>& want, int fetches) {
    const spots::MaskRun got = spots::thresholdOnDevice(d, variant, in, p);
    const std::string what =
        variant + " capacity " +
        std::to_string(p.tuning.count("LIST_CAPACITY") ? p.tuning.at("LIST_CAPACITY") : -1);
    QVERIFY2(got.signal == want, qPrintable(QString::fromStdString(what + ": mask differs")));
    const spots::FramePixels wantPixels = spots::signalPixels(want, in.frames.frameSize());
    for (std::size_t f = 0; f < wantPixels.size(); ++f) {
        auto list = got.pixels[f];
        std::sort(list.begin(), list.end());
        QVERIFY2(list == wantPixels[f],
                 qPrintable(QString::fromStdString(what + ": list differs")));
    }
    QCOMPARE(got.maskFetches, fetches);
}

} // namespace

// 16-bit values up to 65533 (windows of 63 pixels: sums just below 2^22) and 8-bit values up to
// 253: the packed sums of the strip kernel, against the reference and the unpacked kernels.
void TestSpots::packedLimits() {
    const DeviceInfo* d = device();
    if (!d) QSKIP("no OpenCL device");
    for (const auto& [kx, ky] : {std::pair{4, 3}, std::pair{3, 4}, std::pair{3, 3}}) {
        const spots::Params p = dispersion(kx, ky);
        for (const spots::Input& in : {highImages<std::uint16_t>(2, 37, 45, 60000, 65533),
                                       highImages<std::uint16_t>(1, 37, 45, 0, 65533),
                                       highImages<std::uint8_t>(2, 37, 45, 0, 253)}) {
            const auto want = spots::thresholdCpu(in, p);
            QVERIFY(std::count(want.begin(), want.end(), 1) > 0);
            for (const std::string variant : {"local", "direct"})
                expectSame(*d, variant, in, p, want, 0);
        }
    }
}

// The list written by the mask kernels holds exactly its capacity; one pixel more and the mask
// is fetched instead, with the same result.
void TestSpots::listCapacityBoundary() {
    const DeviceInfo* d = device();
    if (!d) QSKIP("no OpenCL device");
    const spots::Input in = highImages<std::uint16_t>(3, 29, 53, 0, 400);
    // local twice: the tile form and the walk form (its staging: 16 pixels, the rest straight in)
    for (const std::string variant : {"local", "local/walk", "direct", "sat", "extended"}) {
        spots::Params p = dispersion(3, 3);
        if (variant == "extended") p.method = Method::DispersionExtended;
        p.tuning = {{"STRIP_X", 8}, {"STRIP_Y", 4}, {"STRIP_ROWS", 2}, {"STRIP_WALK", 0}};
        if (variant == "local/walk") p.tuning = {{"STRIP_WALK", 1}, {"WALK_STAGE", 16}};
        const std::string name = variant == "local/walk" ? "local" : variant;
        const auto want = spots::thresholdCpu(in, p);
        const int n = int(std::count(want.begin(), want.end(), 1));
        QVERIFY(n > 2);
        p.tuning["LIST_CAPACITY"] = n;
        expectSame(*d, name, in, p, want, 0);
        p.tuning["LIST_CAPACITY"] = n - 1;
        expectSame(*d, name, in, p, want, 1);
    }
}
