// spots: every OpenCL variant against the CPU reference (bit-identical signal masks) on awkward
// inputs, the reference against DIALS itself (a fixture made by Debian's python3-dials), DIALS'
// own invariants (spot grouping: tst_spots_grouping.cpp).
#include "tst_spots.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/spots/radix_sort.hpp"
#include "core/spots/spots.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/spots/spots_gpu.hpp"
#include "test_util.hpp"
#include "tst_spots_images.hpp"
#include "typed_runs.hpp"

#include <QtTest>
#include <cmath>
#include <limits>
#include <random>

using namespace clscope;
using spots::Method;

using namespace clscope::spots_test;

namespace {

// Our spots of a mask against DIALS' (rows x, y, intensity, npix, x0, y0, x1, y1), matched by box.
void compareSpots(const Array& dials, const std::vector<spots::Spot>& ours,
                  const std::string& where) {
    const std::size_t n = dials.shape()[0];
    QCOMPARE(ours.size(), n);
    const auto v = dials.as<double>();
    for (std::size_t r = 0; r < n; ++r) {
        const double* row = v.data() + 8 * r;
        const auto it = std::find_if(ours.begin(), ours.end(), [&](const spots::Spot& s) {
            return s.x0 == row[4] && s.y0 == row[5] && s.x1 == row[6] && s.y1 == row[7];
        });
        QVERIFY2(it != ours.end(),
                 (where + ": DIALS spot " + std::to_string(r) + " has no match").c_str());
        QCOMPARE(double(it->npix), row[3]);
        QCOMPARE(it->intensity, row[2]);
        QVERIFY2(std::abs(it->x - row[0]) < 1e-9 && std::abs(it->y - row[1]) < 1e-9,
                 (where + ": centroid of spot " + std::to_string(r) + " differs").c_str());
    }
}

// Launches of a final kernel again to write the dense mask (the list overflowed).
int relaunches(const TimingStats& timings) {
    const std::string tail = "(signal mask: list overflow)";
    int n = 0;
    for (const TimingRecord& r : timings.records())
        n += r.label.size() > tail.size() && r.label.ends_with(tail) ? int(r.count) : 0;
    return n;
}

} // namespace

void TestSpots::variantsMatchCpu_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("frames");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::addColumn<clscope::spots::Params>("params");
    spots::Params gain = params(Method::Dispersion, 2, 3);
    gain.gain = 1.7, gain.globalThreshold = 4, gain.minLocal = 0;
    spots::Params extGain = params(Method::DispersionExtended, 3, 2);
    extGain.gain = 0.6, extGain.globalThreshold = 2;
    spots::Params tiles = params(Method::Dispersion, 3, 3);
    tiles.tuning = {{"TILE_X", 8}, {"TILE_Y", 4}};
    spots::Params overflow = params(Method::Dispersion);
    overflow.tuning = {{"LIST_CAPACITY", 3}}; // the list overflows: the mask is fetched instead
    spots::Params chunks = params(Method::Dispersion), chunksOverflow = params(Method::Dispersion);
    chunks.tuning = {{"CHUNK_FRAMES", 1}}; // one frame per upload, as long stacks stream
    chunksOverflow.tuning = {{"CHUNK_FRAMES", 2}, {"LIST_CAPACITY", 3}};
    spots::Params legacy = params(Method::DispersionExtended);
    legacy.legacyMaskedBackground = true;
    spots::Params extChunks = params(Method::DispersionExtended);
    extChunks.tuning = {{"CHUNK_FRAMES", 1}};
    spots::Params extOverflow = params(Method::DispersionExtended), extAlways = extOverflow;
    extOverflow.tuning = {{"LIST_CAPACITY", 3}};
    extAlways.tuning = {{"LIST_CAPACITY", 3}, {"SIGNAL_MASK_ALWAYS", 1}};
    std::vector<MaskCase> rows = {
        {"1x1", DType::UInt16, 1, 1, 1, params(Method::Dispersion)},
        {"3x5 k1", DType::UInt16, 1, 3, 5, params(Method::Dispersion, 1, 1)},
        {"2x37x53 k3", DType::UInt16, 2, 37, 53, params(Method::Dispersion)},
        {"61x47 k1,2", DType::UInt16, 1, 61, 47, params(Method::Dispersion, 1, 2)},
        {"45x70 k5,4", DType::UInt16, 1, 45, 70, params(Method::Dispersion, 5, 4)},
        {"50x33 gain", DType::UInt16, 1, 50, 33, gain},
        {"50x33 tiles 8x4", DType::UInt16, 1, 50, 33, tiles},
        {"3x41x29 list overflow", DType::UInt16, 3, 41, 29, overflow},
        {"45x70 k4,3 (63 pixels: packed)", DType::UInt16, 1, 45, 70,
         params(Method::Dispersion, 4, 3)},
        {"45x70 k4,4 (81 pixels: unpacked)", DType::UInt16, 1, 45, 70,
         params(Method::Dispersion, 4, 4)},
        {"4x41x29 chunks of 1", DType::UInt16, 4, 41, 29, chunks},
        {"5x41x29 chunks of 2, overflow", DType::UInt16, 5, 41, 29, chunksOverflow},
        // frames in pinned memory, as a GPU's runs hold them: chunks queued ahead, in place
        {"7x41x29 chunks of 1, in pinned memory", DType::UInt16, 7, 41, 29, chunks},
        {"5x41x29 chunks of 2, overflow, in pinned memory", DType::UInt16, 5, 41, 29,
         chunksOverflow},
        {"ext 5x37x53 chunks of 1, in pinned memory", DType::UInt16, 5, 37, 53, extChunks},
        {"40x41 uint8", DType::UInt8, 1, 40, 41, params(Method::Dispersion)},
        {"40x41 uint32", DType::UInt32, 1, 40, 41, params(Method::Dispersion, 2, 2)},
        {"40x41 uint32 k6,5 (64-bit window)", DType::UInt32, 1, 40, 41,
         params(Method::Dispersion, 6, 5)},
        {"40x41 int32", DType::Int32, 1, 40, 41, params(Method::Dispersion)},
        {"40x41 float32", DType::Float32, 1, 40, 41, params(Method::Dispersion)},
        {"ext 1x1", DType::UInt16, 1, 1, 1, params(Method::DispersionExtended)},
        {"ext 2x2 k5", DType::UInt16, 1, 2, 2, params(Method::DispersionExtended, 5, 5)},
        {"ext 2x37x53", DType::UInt16, 2, 37, 53, params(Method::DispersionExtended)},
        {"ext 61x47 k1,2", DType::UInt16, 1, 61, 47, params(Method::DispersionExtended, 1, 2)},
        {"ext 45x70 k5,4", DType::UInt16, 1, 45, 70, params(Method::DispersionExtended, 5, 4)},
        {"ext gain", DType::UInt16, 1, 50, 33, extGain},
        {"ext legacy", DType::UInt16, 1, 50, 33, legacy},
        {"ext uint32", DType::UInt32, 1, 40, 41, params(Method::DispersionExtended, 2, 2)},
        {"ext overflow", DType::UInt16, 3, 37, 53, extOverflow},
        {"ext overflow, mask always written", DType::UInt16, 3, 37, 53, extAlways},
    };
    const std::vector<MaskCase> forms = stripFormCases(); // tst_spots_forms.cpp
    rows.insert(rows.end(), forms.begin(), forms.end());
    for (const MaskCase& r : rows)
        for (const std::string v : {"local", "direct", "sat", "extended"}) {
            if ((v == "extended") != (r.p.method == Method::DispersionExtended)) continue;
            QTest::newRow((v + " " + r.name).c_str())
                << QString::fromStdString(v) << int(r.dtype) << r.t << r.h << r.w << r.p;
        }
}

void TestSpots::variantsMatchCpu() {
    QFETCH(QString, variant);
    QFETCH(int, dtype);
    QFETCH(int, frames);
    QFETCH(int, height);
    QFETCH(int, width);
    QFETCH(clscope::spots::Params, params);
    const DeviceInfo* device = firstOpenCl();
    if (!device) QSKIP("no OpenCL device");
    const std::size_t t = frames, h = height, w = width;
    spots::Input in;
    switch (DType(dtype)) {
    case DType::UInt8:
        in = makeImages<std::uint8_t>(t, h, w, 11);
        break;
    case DType::UInt32:
        in = makeImages<std::uint32_t>(t, h, w, 12);
        break;
    case DType::Int32:
        in = makeImages<std::int32_t>(t, h, w, 13);
        break;
    case DType::Float32:
        in = makeImages<float>(t, h, w, 14);
        break;
    default: // rows tagged "high": values to 48,000, rows' sums of squares past 2^32
        in = makeImages<std::uint16_t>(
            t, h, w, 15 + h, true, QByteArray(QTest::currentDataTag()).endsWith("high") ? 150 : 1);
        break;
    }
    const bool pinned = QByteArray(QTest::currentDataTag()).endsWith("in pinned memory");
    if (pinned) in.frames = test::pinnedCopy(in.frames, *device);
    const auto want = spots::thresholdCpu(in, params);
    const auto got = spots::thresholdOnDevice(*device, variant.toStdString(), in, params);
    compareMasks(got.signal, want, variant.toStdString());
    QCOMPARE(test::timed(got.timings, "upload from pinned memory (host, queued)"), pinned);
    // The per-frame lists (what grouping uses) hold the same pixels, whatever the chunking.
    const spots::FramePixels wantPixels = spots::signalPixels(want, h * w);
    QCOMPARE(got.pixels.size(), wantPixels.size());
    for (std::size_t f = 0; f < t; ++f) {
        auto list = got.pixels[f];
        std::sort(list.begin(), list.end());
        QVERIFY2(list == wantPixels[f], qPrintable(QString("frame %1 list differs").arg(f)));
    }
    // The mask is fetched for exactly the chunks whose signal pixels overflow the list.
    auto tuned = [&](const char* name) {
        return params.tuning.count(name) ? std::size_t(params.tuning.at(name)) : std::size_t(0);
    };
    const std::size_t capacity = tuned("LIST_CAPACITY"), chunk = tuned("CHUNK_FRAMES");
    int fetches = 0;
    for (std::size_t f0 = 0; f0 < t; f0 += chunk ? chunk : t) {
        const std::size_t n = std::min(chunk ? chunk : t, t - f0);
        const std::size_t pixels =
            std::size_t(std::count(want.begin() + f0 * h * w, want.begin() + (f0 + n) * h * w, 1));
        fetches += capacity > 0 && pixels > capacity;
    }
    QCOMPARE(got.maskFetches, fetches);
    // Those chunks' masks come from a relaunch writing them, unless every launch writes its own.
    QCOMPARE(relaunches(got.timings), tuned("SIGNAL_MASK_ALWAYS") ? 0 : fetches);
    if (h * w > 100) QVERIFY2(count(want) > 0, "the case finds no signal at all");
}

// The stream case's mode: no dense mask kept, the same pixels and spots, the same mask written.
void TestSpots::listsWithoutMask() {
    const DeviceInfo* device = firstOpenCl();
    if (!device) QSKIP("no OpenCL device");
    const spots::Input in = makeImages<std::uint16_t>(3, 41, 29, 21);
    spots::Params p = params(Method::Dispersion);
    p.minSpotSize = 1;
    const spots::Result want = spots::runCpu(in, p);
    p.signalMask = false;
    p.tuning = {{"CHUNK_FRAMES", 1}};
    for (const std::string variant : {"cpu", "local"}) {
        const spots::Result got =
            test::runSpots(variant == "cpu" ? hostDevice() : *device, variant, in, p);
        QVERIFY(got.signal.empty());
        QCOMPARE(got.pixels, want.pixels);
        QCOMPARE(got.strongPerFrame, want.strongPerFrame);
        QCOMPARE(got.spots.size(), want.spots.size());
        QVERIFY(!want.spots.empty());
        for (std::size_t i = 0; i < want.spots.size(); ++i)
            QCOMPARE(got.spots[i].intensity, want.spots[i].intensity);
        compareMasks(spots::denseSignal(got), want.signal, variant + " dense from lists");
    }
}

// The signal lists' radix sort orders by key as std::stable_sort does: short lists, keys of one
// digit (passes skipped), full 32-bit keys, repeated keys (their order kept).
void TestSpots::radixSortIsAStableSort() {
    std::mt19937 rng(7);
    for (const std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(63), std::size_t(64),
                                std::size_t(1000), std::size_t(50000)})
        for (const std::uint32_t top : {std::uint32_t(2047), std::uint32_t(50), UINT32_MAX}) {
            std::vector<std::pair<std::uint32_t, std::size_t>> items(n), want;
            std::uniform_int_distribution<std::uint32_t> key(0, top);
            for (std::size_t i = 0; i < n; ++i)
                items[i] = {key(rng), i};
            want = items;
            std::stable_sort(want.begin(), want.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
            spots::radixSort(items, [](const auto& item) { return item.first; });
            QVERIFY2(items == want, qPrintable(QString("%1 keys up to %2").arg(n).arg(top)));
        }
}

// DIALS' own masks (Debian python3-dials, tests/data/make_spots_fixture.py): dispersion exactly,
// dispersion_extended exactly against the pre-2025 rule (legacy flag) and, with the 2025 rule,
// on pixels away from masked ones (Debian's DIALS predates the rule).
void TestSpots::dialsFixture() {
    const std::string file = test::dataFile("spots_dials.h5");
    H5Reader r(file);
    const std::size_t cases = static_cast<std::size_t>(r.readScalar("/cases"));
    QVERIFY(cases >= 3);
    std::size_t compared = 0, signal = 0;
    for (std::size_t c = 0; c < cases; ++c) {
        const std::string g = "/case" + std::to_string(c);
        spots::Input in;
        in.frames = r.read(g + "/image", DType::UInt16);
        const Array bad = r.read(g + "/mask", DType::UInt8);
        in.mask = PixelMask{in.frames.height(),
                            in.frames.width(),
                            {bad.as<std::uint8_t>().begin(), bad.as<std::uint8_t>().end()}};
        const Array pv = r.read(g + "/params", DType::Float64);
        const auto v = pv.as<double>();
        spots::Params p = params(Method::Dispersion, int(v[0]), int(v[1]));
        p.gain = v[2], p.sigmaBackground = v[3], p.sigmaStrong = v[4], p.minLocal = int(v[5]),
        p.globalThreshold = v[6];
        auto expected = [&](const std::string& name) {
            const Array a = r.read(g + "/" + name, DType::UInt8);
            return std::vector<std::uint8_t>(a.as<std::uint8_t>().begin(),
                                             a.as<std::uint8_t>().end());
        };
        const auto dispersion = expected("dispersion");
        compareMasks(spots::thresholdCpu(in, p), dispersion, g + " dispersion");
        p.method = Method::DispersionExtended, p.legacyMaskedBackground = true;
        const auto legacy = expected("extended_legacy");
        compareMasks(spots::thresholdCpu(in, p), legacy,
                     g + " dispersion_extended (pre-2025 rule)");
        // The 2025 rule only changes pixels near invalid ones.
        p.legacyMaskedBackground = false;
        const auto now = spots::thresholdCpu(in, p);
        const Array far = r.read(g + "/far_from_invalid", DType::UInt8);
        for (std::size_t k = 0; k < now.size(); ++k)
            if (far.as<std::uint8_t>()[k]) {
                ++compared;
                if (now[k] != legacy[k])
                    QFAIL(
                        (g + ": extended differs away from masks at " + std::to_string(k)).c_str());
            }
        signal += count(dispersion) + count(legacy);
        QCOMPARE(spots::autoGlobalThreshold(in), r.readScalar(g + "/auto_threshold"));
        compareSpots(r.read(g + "/dials_spots", DType::Float64),
                     spots::findSpots(in.frames, dispersion, params(Method::Dispersion)), g);
        if (const DeviceInfo* d = firstOpenCl()) {
            compareMasks(spots::thresholdOnDevice(*d, "extended", in, p).signal, now,
                         g + " extended on " + d->spec);
            p.method = Method::Dispersion;
            compareMasks(spots::thresholdOnDevice(*d, "sat", in, p).signal, dispersion,
                         g + " sat on " + d->spec);
        }
    }
    QVERIFY(compared > 1000);
    QVERIFY(signal > 50);
}

// Transposing image and mask and swapping kx, ky transposes the signal mask.
void TestSpots::transposeSymmetry() {
    const spots::Input in = makeImages<std::uint16_t>(1, 43, 58, 5);
    spots::Input tr;
    const std::size_t h = 43, w = 58;
    std::vector<std::uint16_t> v(h * w);
    tr.mask = PixelMask{w, h, std::vector<std::uint8_t>(h * w)};
    for (std::size_t j = 0; j < h; ++j)
        for (std::size_t i = 0; i < w; ++i)
            v[i * h + j] = in.frames.as<std::uint16_t>()[j * w + i],
                      tr.mask.bad[i * h + j] = in.mask.bad[j * w + i];
    tr.frames = makeArray<std::uint16_t>({w, h}, v);
    for (Method m : {Method::Dispersion, Method::DispersionExtended}) {
        const auto a = spots::thresholdCpu(in, params(m, 2, 4));
        const auto b = spots::thresholdCpu(tr, params(m, 4, 2));
        std::vector<std::uint8_t> back(h * w);
        for (std::size_t j = 0; j < h; ++j)
            for (std::size_t i = 0; i < w; ++i)
                back[j * w + i] = b[i * h + j];
        compareMasks(back, a, "transposed " + spots::methodName(m));
        QVERIFY(count(a) > 0);
    }
}

// gain 1 given == default; image and gain scaled together (by powers of two) change nothing.
void TestSpots::gainInvariants() {
    const spots::Input base = makeImages<std::uint16_t>(1, 50, 61, 8, true, 1.0);
    const spots::Input twice = makeImages<std::uint16_t>(1, 50, 61, 8, true, 2.0);
    const spots::Input four = makeImages<std::uint16_t>(1, 50, 61, 8, true, 4.0);
    for (Method m : {Method::Dispersion, Method::DispersionExtended}) {
        spots::Params one = params(m);
        one.gain = 1.0;
        compareMasks(spots::thresholdCpu(base, one), spots::thresholdCpu(base, params(m)),
                     "gain 1");
        spots::Params g2 = params(m), g4 = params(m);
        g2.gain = 1.5 * 2, g2.globalThreshold = 2 * 3;
        g4.gain = 1.5 * 4, g4.globalThreshold = 4 * 3;
        const auto a = spots::thresholdCpu(twice, g2), b = spots::thresholdCpu(four, g4);
        compareMasks(b, a, "scaled " + spots::methodName(m));
        QVERIFY(count(a) > 0);
    }
}

// Debug images: final == the signal mask, final = sigma_b & sigma_s & global for dispersion,
// and the mean is the window mean.
void TestSpots::debugImages() {
    const spots::Input in = makeImages<std::uint16_t>(2, 30, 41, 3);
    for (Method m : {Method::Dispersion, Method::DispersionExtended}) {
        spots::DebugImages d;
        const auto signal = spots::thresholdCpu(in, params(m), {}, &d);
        compareMasks(d.final, signal, "debug final");
        QCOMPARE(d.mean.size(), signal.size());
        if (m == Method::Dispersion)
            for (std::size_t k = 0; k < signal.size(); ++k)
                QCOMPARE(bool(signal[k]), d.sigmaB[k] && d.sigmaS[k] && d.global[k]);
    }
    spots::DebugImages d;
    spots::Input flat = makeImages<std::uint16_t>(1, 9, 9, 1, false);
    std::fill(flat.frames.as<std::uint16_t>().begin(), flat.frames.as<std::uint16_t>().end(), 7);
    spots::thresholdCpu(flat, params(Method::Dispersion, 1, 1), {}, &d);
    QCOMPARE(d.mean[40], 7.0);
    QCOMPARE(d.variance[40], 0.0);
    QCOMPARE(count(d.final), std::size_t(0));
}

void TestSpots::philSnippet() {
    spots::Params p = params(Method::DispersionExtended, 2, 4);
    p.gain = 1.5, p.globalAuto = true;
    const std::string phil = spots::philSnippet(p);
    for (const char* part :
         {"algorithm = dispersion_extended", "kernel_size = 4 2", "gain = 1.5",
          "global_threshold = Auto", "min_spot_size = 3", "sigma_background = 6"})
        QVERIFY2(phil.find(part) != std::string::npos, (phil + " lacks " + part).c_str());
}

void TestSpots::badInputs() {
    spots::Input in = makeImages<std::uint16_t>(1, 10, 12, 1);
    in.mask.width = 11;
    EXPECT_ERROR(InputError, spots::thresholdCpu(in, params(Method::Dispersion)), "pixel mask",
                 "10x12");
    in = makeImages<std::uint16_t>(1, 10, 12, 1);
    spots::Params p = params(Method::Dispersion);
    p.minLocal = 1;
    EXPECT_ERROR(UsageError, spots::thresholdCpu(in, p), "min_local");
    p = params(Method::Dispersion, 0, 3);
    EXPECT_ERROR(UsageError, spots::thresholdCpu(in, p), "kernel_size");
    if (const DeviceInfo* d = firstOpenCl())
        EXPECT_ERROR(UsageError,
                     spots::thresholdOnDevice(*d, "extended", in, params(Method::Dispersion)),
                     "extended");
}

QTEST_GUILESS_MAIN(TestSpots)
