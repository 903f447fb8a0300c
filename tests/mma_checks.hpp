// Shared by the tests of xpcs variant mma (tst_xpcs_mma): the run against the cpu reference
// bit for bit (g2, two-time maps; g2_err within 1e-12 relative), random uint8 stacks and
// scattered masks, which kernels a run's timings name, and the emulated tiling's tuning.
#pragma once
#include "core/errors.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"
#include "test_util.hpp"
#include "typed_runs.hpp"

#include <QtTest>
#include <cstring>
#include <random>

namespace clscope::test {

inline DeviceInfo testDevice() {
    const auto& devices = openclDevices();
    if (devices.empty()) throw DeviceError("no OpenCL device for the test");
    return devices.front();
}

inline Array randomU8(std::size_t t, std::size_t h, std::size_t w, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> v(t * h * w);
    for (std::uint8_t& x : v)
        x = static_cast<std::uint8_t>(rng() % 256);
    return makeArray<std::uint8_t>({t, h, w}, v);
}

// Labels 1..bins with some pixels excluded; bin sizes far from multiples of 64.
inline LabelMask scattered(std::size_t h, std::size_t w, int bins, unsigned seed) {
    std::mt19937 rng(seed);
    LabelMask m{h, w, std::vector<std::int32_t>(h * w)};
    for (std::int32_t& l : m.labels)
        l = static_cast<std::int32_t>(rng() % (bins + 1));
    for (int b = 1; b <= bins; ++b)
        m.labels[b] = b;
    return m;
}

// Bit-identical doubles (NaN where the other is NaN).
inline void compareBits(const char* what, const std::vector<double>& got,
                        const std::vector<double>& want) {
    QCOMPARE(got.size(), want.size());
    std::size_t bad = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(double)) != 0 &&
            !(std::isnan(got[i]) && std::isnan(want[i])))
            first = bad++ ? first : i;
    if (bad)
        QFAIL(qPrintable(QString("%1: %2 of %3 differ from cpu, first at %4: %5 vs %6")
                             .arg(what)
                             .arg(bad)
                             .arg(got.size())
                             .arg(first)
                             .arg(got[first], 0, 'g', 17)
                             .arg(want[first], 0, 'g', 17)));
}

// Whether a run's timings hold a label (which lag-sum kernel ran).
inline bool ran(const xpcs::Result& r, const std::string& label) {
    return test::timed(r.timings, label);
}

// The run's result in *out (when given) for further checks.
inline void checkAgainstCpu(const Array& frames, const LabelMask& mask, xpcs::Params params,
                            const std::string& expectedVariant = "mma",
                            xpcs::Result* out = nullptr) {
    const xpcs::Result want = xpcs::correlateCpu(frames, mask, params);
    const xpcs::Result got = test::runXpcs(testDevice(), "mma", frames, mask, params);
    if (out) *out = got;
    QCOMPARE(got.variant, expectedVariant);
    compareBits("g2", got.g2, want.g2);
    // g2_err: the lag-sum kernel's double sums (every OpenCL variant) may differ in the last bit.
    for (std::size_t i = 0; i < want.g2Err.size(); ++i)
        if (!(std::isnan(want.g2Err[i]) && std::isnan(got.g2Err[i])))
            QVERIFY2(std::abs(got.g2Err[i] - want.g2Err[i]) <= 1e-12 * std::abs(want.g2Err[i]),
                     qPrintable(QString("g2_err differs at %1: %2 vs %3")
                                    .arg(i)
                                    .arg(got.g2Err[i], 0, 'g', 17)
                                    .arg(want.g2Err[i], 0, 'g', 17)));
    for (const auto& [label, map] : want.twotime)
        QVERIFY2(got.twotime.at(label) == map, "two-time map");
}

// Recorded when the run's Gram matrices are uint (MMA_GRAM32).
inline const std::string gram32 = "xpcs gram 32-bit (host)";

// One kernel build for every case (PoCL compiles each option set anew): 24-bit accumulators,
// which hold below 2^23 for at most 4 steps of 255^2 * 32, flushed every 4 steps, 2 slots;
// frames streamed in blocks of 16 (whole-frame chunks; the chunked case uploads at once).
inline xpcs::Params emulated() {
    xpcs::Params p;
    p.tuning = {{"MMA_EMULATE", 1}, {"MMA_EMU_BITS", 24}, {"MMA_FLUSH_STEPS", 4},
                {"MMA_SLOTS", 2},   {"MMA_STREAM", 1},    {"MMA_STREAM_FRAMES", 16}};
    return p;
}

} // namespace clscope::test
