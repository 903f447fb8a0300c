// tst_azint_variants: every azint variant (gpu/azint) against the `cpu` reference on the first
// OpenCL device (PoCL in CI), through runAlgorithm: every frame type with its sentinels, 1D and
// 2D, corrections, masks, awkward sizes; the histogram's local-memory form (the GPU's) and its
// global-atomics form forced; sorted with chunks smaller than the bins; tiled with tiles cut by
// the image's edges, vector and scalar reads, tiles too wide for the local histogram or for
// 16-bit offsets; the paths a device or the data choose forced (integer sums off, wide local
// sums, frames per work-group, odd group sizes). Integer frames give the reference's sums bit for
// bit on every variant (exact 64-bit integer sums), float frames on csr; the others within
// rounding; counts and normalisation sums always exactly.
#include "core/azint/azint.hpp"
#include "core/azint/binning.hpp"
#include "core/azint/tiles.hpp"
#include "core/errors.hpp"
#include "core/sentinels.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/recipes.hpp"
#include "gpu/azint/run_types.hpp"
#include "gpu/kernel_source.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/runtime/staging.hpp"
#include "typed_runs.hpp"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <tuple>

using namespace clscope;
using namespace clscope::azint;

namespace {

Geometry smallGeometry(std::size_t h, std::size_t w) {
    Geometry g;
    g.dist = 0.05, g.poni1 = 0.3 * double(h) * 75e-6, g.poni2 = 0.6 * double(w) * 80e-6;
    g.rot1 = 0.05, g.rot2 = -0.03, g.rot3 = 0.1;
    g.pixel1 = 75e-6, g.pixel2 = 80e-6;
    return g;
}

void setValue(Array& a, std::size_t k, double v) {
    switch (a.dtype()) {
    case DType::UInt8:
        a.as<std::uint8_t>()[k] = static_cast<std::uint8_t>(v);
        return;
    case DType::UInt16:
        a.as<std::uint16_t>()[k] = static_cast<std::uint16_t>(v);
        return;
    case DType::UInt32:
        a.as<std::uint32_t>()[k] = static_cast<std::uint32_t>(v);
        return;
    case DType::Int32:
        a.as<std::int32_t>()[k] = static_cast<std::int32_t>(v);
        return;
    case DType::Int64:
        a.as<std::int64_t>()[k] = static_cast<std::int64_t>(v);
        return;
    case DType::Float32:
        a.as<float>()[k] = static_cast<float>(v);
        return;
    case DType::Float64:
        a.as<double>()[k] = v;
        return;
    }
}

// Frames of `dtype` with sentinels (unsigned), negative values (int32), NaN and inf (float).
Array frames(DType dtype, std::size_t t, std::size_t h, std::size_t w, unsigned seed) {
    Array a(dtype, {t, h, w});
    std::mt19937 rng(seed);
    std::poisson_distribution<int> counts(40);
    const double limit = double(validLimit(dtype));
    for (std::size_t k = 0; k < a.size(); ++k) {
        double v = counts(rng);
        if (rng() % 29 == 0 && limit > 0) v = limit + double(rng() % 2); // a sentinel
        if (dtype == DType::Int32 && rng() % 7 == 0) v = -v;
        if (dtype == DType::Float32) {
            v += 0.25;
            if (rng() % 31 == 0) v = rng() % 2 ? std::nan("") : INFINITY;
        }
        setValue(a, k, v);
    }
    return a;
}

PixelMask someMask(std::size_t h, std::size_t w, std::size_t step) {
    PixelMask m{h, w, std::vector<std::uint8_t>(h * w)};
    for (std::size_t k = 0; k < m.bad.size(); k += step)
        m.bad[k] = 1;
    return m;
}

ParamSet paramsOf(const std::string& unit, int bins, int azimuthBins, bool corrections) {
    ParamSet set = AlgorithmRegistry::instance().find("azint").defaultParams();
    set.set("unit", unit), set.set("bins", bins), set.set("azimuth_bins", azimuthBins);
    set.set("solid_angle", corrections);
    if (corrections) set.set("polarization", 0.9);
    return set;
}

Result runVariant(const std::string& variant, const std::shared_ptr<AzintInput>& in,
                  const ParamSet& set, const std::map<std::string, int>& tuning = {}) {
    const auto& devices = openclDevices();
    const DeviceInfo device = variant == "cpu" || devices.empty() ? hostDevice() : devices.front();
    const auto r = test::runTyped("azint", device, variant, in, set, tuning);
    return dynamic_cast<const AzintResult&>(*r).result;
}

// A test's rows: one for each frame type, its column "dtype".
void everyFrameType() {
    QTest::addColumn<int>("dtype");
    for (DType d : {DType::UInt8, DType::UInt16, DType::UInt32, DType::Int32, DType::Float32})
        QTest::newRow(dtypeName(d).c_str()) << int(d);
}

double relDev(double a, double b) {
    const double scale = std::max(std::abs(a), std::abs(b));
    return scale == 0 ? 0 : std::abs(a - b) / scale;
}

// Counts and normalisation sums equal; signal sums within tol relative (0: bit for bit);
// intensities NaN where the reference's.
void expectSame(const Result& got, const Result& want, double tol, const std::string& what) {
    QCOMPARE(got.count.size(), want.count.size());
    for (std::size_t b = 0; b < want.count.size(); ++b) {
        QVERIFY2(got.count[b] == want.count[b],
                 (what + ": count of bin " + std::to_string(b)).c_str());
        QVERIFY2(relDev(got.sumSignal[b], want.sumSignal[b]) <= tol, what.c_str());
        QVERIFY2(got.sumNormalization[b] == want.sumNormalization[b],
                 (what + ": normalization of bin " + std::to_string(b)).c_str());
        QVERIFY2(std::isnan(got.intensity[b]) == std::isnan(want.intensity[b]), what.c_str());
        if (tol == 0 && !std::isnan(want.intensity[b]))
            QVERIFY2(got.intensity[b] == want.intensity[b], what.c_str());
    }
}

} // namespace

class TestAzintVariants : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        if (openclDevices().empty()) QSKIP("no OpenCL device");
    }

    void everyVariantAgainstCpu_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<int>("azimuthBins");
        QTest::addColumn<bool>("corrections");
        for (DType d : {DType::UInt8, DType::UInt16, DType::UInt32, DType::Int32, DType::Float32})
            for (int m : {0, 7}) {
                const std::string name = dtypeName(d) + (m ? " 2D" : " 1D");
                QTest::newRow(name.c_str()) << int(d) << "q_nm^-1" << m << (m == 0);
            }
        QTest::newRow("uint16 2th 2D corrections") << int(DType::UInt16) << "2th_deg" << 5 << true;
        QTest::newRow("uint16 r_mm 1D") << int(DType::UInt16) << "r_mm" << 0 << false;
    }

    // Awkward sizes (37 x 53, 3 frames, 41 radial bins), a mask and a pixel mask.
    void everyVariantAgainstCpu() {
        QFETCH(int, dtype);
        QFETCH(QString, unit);
        QFETCH(int, azimuthBins);
        QFETCH(bool, corrections);
        const std::size_t h = 37, w = 53;
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType(dtype), 3, h, w, 5), someMask(h, w, 11), someMask(h, w, 17)};
        in->geometry = smallGeometry(h, w);
        const ParamSet set = paramsOf(unit.toStdString(), 41, azimuthBins, corrections);
        const Result reference = runVariant("cpu", in, set);
        const double tol = DType(dtype) == DType::Float32 ? 1e-12 : 0; // integer sums exact
        expectSame(runVariant("csr", in, set), reference, 0, "csr");
        expectSame(runVariant("csr", in, set, {{"AZ_CSR_GROUP", 1}}), reference, 0,
                   "csr (a work-group per bin)");
        expectSame(runVariant("histogram", in, set), reference, tol, "histogram (local)");
        expectSame(runVariant("histogram", in, set, {{"AZ_LOCAL_BINS", 0}}), reference, tol,
                   "histogram (global atomics)");
        expectSame(runVariant("sorted", in, set), reference, tol, "sorted");
        expectSame(runVariant("sorted", in, set, {{"AZ_WG", 16}}), reference, tol,
                   "sorted, chunks of 16");
        expectSame(runVariant("tiled", in, set), reference, tol, "tiled (one tile, cut)");
        expectSame(runVariant("tiled", in, set, {{"AZ_TILE_H", 8}, {"AZ_TILE_W", 16}}), reference,
                   tol, "tiled, tiles of 8 x 16");
    }

    void tiledReads_data() { everyFrameType(); }

    // tiled on 45 x 72 (a multiple of 8 wide, not of 16): runs of 8 and 4 read as vectors, runs
    // of 16 (crossing the edge) pixel by pixel; tiles of 16 x 32 cut at the bottom and the
    // right; groups of 48 work-items (more runs a group than a tile has), 3 frames in groups
    // of 2 (the last short); runs of one or two bins summed pixel by pixel (AZ_TILE_TWO 0) as
    // well as without a branch a pixel (the default, integer frames). Each frame type: its vector
    // type.
    void tiledReads() {
        QFETCH(int, dtype);
        const std::size_t h = 45, w = 72;
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType(dtype), 3, h, w, 41), someMask(h, w, 19), someMask(h, w, 23)};
        in->geometry = smallGeometry(h, w);
        const ParamSet set = paramsOf("q_nm^-1", 37, 0, false);
        const Result reference = runVariant("cpu", in, set);
        const double tol = DType(dtype) == DType::Float32 ? 1e-12 : 0;
        using Tuning = std::map<std::string, int>;
        for (const Tuning& tuning :
             {Tuning{}, Tuning{{"AZ_TILE_TWO", 0}},
              Tuning{{"AZ_TILE_H", 16}, {"AZ_TILE_W", 32}, {"AZ_TILE_RUN", 16}},
              Tuning{{"AZ_TILE_H", 16}, {"AZ_TILE_W", 32}, {"AZ_TILE_RUN", 4}},
              Tuning{{"AZ_TILE_H", 16},
                     {"AZ_TILE_W", 32},
                     {"AZ_TILE_WG", 48},
                     {"AZ_TILE_FRAMES", 2}}}) {
            std::string what = "tiled";
            for (const auto& [name, value] : tuning)
                what += " " + name + "=" + std::to_string(value);
            expectSame(runVariant("tiled", in, set, tuning), reference, tol, what);
        }
    }

    // A cake of 2000 x 40 bins around a beam inside the image: the tiles around it span more
    // than 16 bits of offsets (their bins from the 32-bit table, global atomics); with the local
    // histogram cut to 64 bins, most others take the global atomics too, the rest passes of
    // 1..64 / span frames.
    void tiledWideTiles() {
        const std::size_t h = 40, w = 56;
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType::UInt16, 3, h, w, 43), someMask(h, w, 7), {}};
        in->geometry = smallGeometry(h, w);
        in->geometry.rot1 = in->geometry.rot2 = 0;
        const ParamSet set = paramsOf("q_nm^-1", 2000, 40, true);
        const Params params = azint::Algorithm().parameters(set);
        const Binning binning = computeBinning(
            computePixelMap(in->geometry, params, h, w, in->data.mask, in->data.pixelMask), params);
        QVERIFY(TiledBins(binning.binOfPixel, h, w, 64, 64).widest() > TiledBins::widestSpan);
        const Result reference = runVariant("cpu", in, set);
        expectSame(runVariant("tiled", in, set), reference, 0, "tiled, one wide tile");
        expectSame(runVariant("tiled", in, set, {{"AZ_TILE_H", 8}, {"AZ_TILE_W", 8}}), reference, 0,
                   "tiled, tiles of 8 x 8");
        expectSame(runVariant("tiled", in, set,
                              {{"AZ_TILE_H", 8}, {"AZ_TILE_W", 8}, {"AZ_LOCAL_SLOTS", 64}}),
                   reference, 0, "tiled, 64 local bins");
    }

    void forcedPaths_data() {
        QTest::addColumn<int>("dtype");
        for (DType d : {DType::UInt16, DType::Int32}) // 32-bit local sums; 64-bit, signed
            QTest::newRow(dtypeName(d).c_str()) << int(d);
    }

    // The paths the data or a device choose, forced: double sums for integer frames (the path
    // of sums that could pass 2^53), 64-bit local sums where 32 bits would do, csr's work-group
    // per bin of an odd size, frames per group that leave a short last group, the histogram's
    // runs of 8 pixels, sorted's runs of 3 entries in groups of 4 (chunks of many bins). 5
    // frames, corrections (the normalisation kernel).
    void forcedPaths() {
        QFETCH(int, dtype);
        const std::size_t h = 29, w = 31;
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType(dtype), 5, h, w, 21), someMask(h, w, 13), {}};
        in->geometry = smallGeometry(h, w);
        const ParamSet set = paramsOf("q_nm^-1", 23, 3, true);
        const Result reference = runVariant("cpu", in, set);
        using Runs = std::vector<std::tuple<std::string, std::map<std::string, int>, double>>;
        const Runs runs = DType(dtype) == DType::UInt16 // each path once (a program each)
                              ? Runs{{"histogram", {{"AZ_LOCAL_WIDE", 1}}, 0},
                                     {"histogram", {{"AZ_PER_ITEM", 8}, {"AZ_RUN", 8}}, 0},
                                     {"sorted", {{"AZ_FRAMES", 3}, {"AZ_WG", 8}}, 0},
                                     {"csr", {{"AZ_CSR_GROUP", 1}, {"AZ_CSR_WG", 7}}, 0},
                                     {"tiled", {{"AZ_LOCAL_WIDE", 1}}, 0},
                                     {"tiled", {{"AZ_LOCAL_SLOTS", 24}, {"AZ_TILE_H", 8}}, 0},
                                     {"tiled", {{"AZ_TILE_FRAMES", 2}, {"AZ_TILE_RUN", 1}}, 0}}
                              : Runs{{"csr", {{"AZ_INT_SUM", 0}}, 0},
                                     {"csr", {{"AZ_CSR_GROUP", 1}, {"AZ_FRAMES", 2}}, 0},
                                     {"sorted", {{"AZ_SORTED_RUN", 3}, {"AZ_WG", 4}}, 0},
                                     {"histogram", {{"AZ_INT_SUM", 0}}, 1e-12}, // double sums
                                     {"sorted", {{"AZ_INT_SUM", 0}}, 1e-12},
                                     {"tiled", {{"AZ_INT_SUM", 0}}, 1e-12},
                                     {"tiled", {{"AZ_LOCAL_SLOTS", 16}, {"AZ_TILE_W", 8}}, 0}};
        for (const auto& [variant, tuning, tol] : runs)
            expectSame(runVariant(variant, in, set, tuning), reference, tol,
                       variant + " " + tuning.begin()->first);
    }

    void staticCounts_data() { everyFrameType(); }

    // Counts started at each bin's binned pixels (AZ_STATIC_COUNTS), the invalid values taken
    // off: sentinels at the limit and above (unsigned) and NaN, inf (float), about one pixel in
    // 30 of every frame, so most bins of each frame lose some (int32: none to take off). The
    // histogram's local and global forms; tiled's local histogram, its global atomics (16 local
    // bins) and its 32-bit bins (a tile of a 2000-bin cake); 5 frames in chunks of 3 (the
    // counts' start made for 3 frames, the last chunk 2), 1D and 2D with corrections (azint_norm
    // reads the counts).
    void staticCounts() {
        QFETCH(int, dtype);
        const std::size_t h = 37, w = 53;
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType(dtype), 5, h, w, 47), someMask(h, w, 11), someMask(h, w, 17)};
        in->geometry = smallGeometry(h, w);
        const double tol = DType(dtype) == DType::Float32 ? 1e-12 : 0;
        using Tuning = std::map<std::string, int>;
        for (const ParamSet& set :
             {paramsOf("q_nm^-1", 41, 0, false), paramsOf("q_nm^-1", 41, 5, true)}) {
            const Result reference = runVariant("cpu", in, set);
            for (const auto& [variant, tuning] :
                 {std::pair{"histogram", Tuning{}},
                  std::pair{"histogram", Tuning{{"AZ_LOCAL_BINS", 0}}},
                  std::pair{"tiled", Tuning{{"AZ_TILE_H", 8}, {"AZ_TILE_W", 16}}},
                  std::pair{"tiled", Tuning{{"AZ_LOCAL_SLOTS", 16}, {"AZ_TILE_W", 8}}}}) {
                Tuning forced = tuning;
                forced["AZ_STATIC_COUNTS"] = 1, forced["AZ_CHUNK_FRAMES"] = 3;
                expectSame(runVariant(variant, in, set, forced), reference, tol,
                           std::string(variant) + " static counts " +
                               (tuning.empty() ? "" : tuning.begin()->first));
            }
        }
        // A cake around a beam inside the image (tiledWideTiles'): the one tile spans more than
        // 16 bits of offsets.
        in->geometry.rot1 = in->geometry.rot2 = 0;
        const ParamSet cake = paramsOf("q_nm^-1", 2000, 40, false);
        const Params params = azint::Algorithm().parameters(cake);
        const Binning binning = computeBinning(
            computePixelMap(in->geometry, params, h, w, in->data.mask, in->data.pixelMask), params);
        QVERIFY(TiledBins(binning.binOfPixel, h, w, 64, 64).widest() > TiledBins::widestSpan);
        expectSame(runVariant("tiled", in, cake, {{"AZ_STATIC_COUNTS", 1}}),
                   runVariant("cpu", in, cake), tol, "tiled static counts, wide tiles");
    }

    void tiledSorted_data() { everyFrameType(); }

    // tiled's sorted form (AZ_TILE_SORTED): on 45 x 72 (runs of 8 and 4 as vectors) and 37 x 53
    // (pixel by pixel), tiles cut at the edges, 5 frames in groups of 2 and 3 (short last
    // groups), with counted and static counts (the invalid values of every frame taken off), 1D
    // and a 2000 x 40 cake (tiles of many segments, bins past 16 bits of offsets), corrections.
    void tiledSorted() {
        QFETCH(int, dtype);
        const double tol = DType(dtype) == DType::Float32 ? 1e-12 : 0;
        using Tuning = std::map<std::string, int>;
        for (const auto& [h, w] : {std::pair{45, 72}, std::pair{37, 53}}) {
            auto in = std::make_shared<AzintInput>();
            in->data = {frames(DType(dtype), 5, h, w, 53), someMask(h, w, 13), someMask(h, w, 19)};
            in->geometry = smallGeometry(h, w);
            for (const ParamSet& set :
                 {paramsOf("q_nm^-1", 37, 0, true), paramsOf("q_nm^-1", 2000, 40, false)}) {
                const Result reference = runVariant("cpu", in, set);
                for (const Tuning& tuning :
                     {Tuning{{"AZ_TILE_H", 16}, {"AZ_TILE_W", 32}},
                      Tuning{{"AZ_TILE_H", 8}, {"AZ_TILE_W", 16}, {"AZ_STATIC_COUNTS", 1}},
                      Tuning{{"AZ_TILE_FRAMES", 2},
                             {"AZ_TILE_RUN", 4},
                             {"AZ_TILE_H", 16},
                             {"AZ_TILE_W", 16},
                             {"AZ_STATIC_COUNTS", 1}},
                      Tuning{{"AZ_TILE_FRAMES", 3},
                             {"AZ_TILE_RUN", 1},
                             {"AZ_TILE_WG", 48},
                             {"AZ_TILE_H", 8},
                             {"AZ_TILE_W", 8}}}) {
                    Tuning forced = tuning;
                    forced["AZ_TILE_SORTED"] = 1;
                    std::string what =
                        "tiled sorted " + std::to_string(h) + " x " + std::to_string(w);
                    for (const auto& [name, value] : tuning)
                        what += " " + name + "=" + std::to_string(value);
                    expectSame(runVariant("tiled", in, set, forced), reference, tol, what);
                }
            }
        }
    }

    // Integer sums where the reference's float64 sums are exact (every partial sum < 2^53);
    // double sums past it, chosen by the host from the longest bin; tunings that would give
    // other sums refused.
    void integerSumBound() {
        QVERIFY(exactIntegerSums(DType::UInt16, std::size_t(1) << 36));
        QVERIFY(exactIntegerSums(DType::UInt32, 2097152));
        QVERIFY(!exactIntegerSums(DType::UInt32, 2097153));
        QVERIFY(exactIntegerSums(DType::Int32, 4194303));
        QVERIFY(!exactIntegerSums(DType::Int32, 4194304));
        QVERIFY(!exactIntegerSums(DType::Float32, 1));
        const DeviceInfo device = openclDevices().front();
        QCOMPARE(hostValues({DType::UInt32, 10, 3000000}, device, {}).at("AZ_INT_SUM"), "0");
        QCOMPARE(hostValues({DType::UInt32, 10, 3000}, device, {}).at("AZ_INT_SUM"), "1");
        QCOMPARE(hostValues({DType::UInt16, 10, 3000}, device, {}).at("AZ_LOCAL_WIDE"), "0");
        QCOMPARE(hostValues({DType::UInt32, 10, 3000}, device, {}).at("AZ_LOCAL_WIDE"), "1");
        DeviceInfo gpu = device, cpu = device;
        gpu.type = "GPU", cpu.type = "CPU";
        QCOMPARE(hostValues({DType::UInt16, 10, 30}, gpu, {}).at("AZ_CSR_GROUP"), "1");
        QCOMPARE(hostValues({DType::UInt16, 10, 30}, cpu, {}).at("AZ_CSR_GROUP"), "0");
        QVERIFY_THROWS_EXCEPTION(UsageError,
                                 hostValues({DType::Float32, 10, 30}, device, {{"AZ_INT_SUM", 1}}));
        QVERIFY_THROWS_EXCEPTION(
            UsageError, hostValues({DType::UInt32, 10, 3000000}, device, {{"AZ_INT_SUM", 1}}));
        QVERIFY_THROWS_EXCEPTION(
            UsageError, hostValues({DType::UInt32, 10, 30}, device, {{"AZ_LOCAL_WIDE", 0}}));
        QVERIFY_THROWS_EXCEPTION(UsageError, hostValues({DType::UInt16, 10, 30}, device,
                                                        {{"AZ_PER_ITEM", 6}, {"AZ_RUN", 4}}));
        // tiled: 32-bit local sums of a tile's pixels; the local histogram within half the local
        // memory and no larger than AZ_TILE_FRAMES (16) x the bins; tunings that would not run.
        QCOMPARE(
            hostValues({DType::UInt16, 10, 30}, device, {{"AZ_TILE_H", 2048}, {"AZ_TILE_W", 64}})
                .at("AZ_LOCAL_WIDE"),
            "1"); // 131,072 pixels x 65,533 > 2^32
        const auto localSlots = [&](const std::map<std::string, int>& tuning) {
            return std::uint64_t(std::stoull(
                hostValues({DType::UInt16, 100, 30}, device, tuning).at("AZ_LOCAL_SLOTS")));
        };
        QCOMPARE(localSlots({}), std::min<std::uint64_t>(device.localMemBytes / 2 / 8, 128 * 16));
        QCOMPARE(localSlots({{"AZ_TILE_FRAMES", 1}}),
                 std::min<std::uint64_t>(device.localMemBytes / 2 / 8, 128));
        QCOMPARE(hostValues({DType::UInt16, 1000, 30, 50}, device, {}).at("AZ_LOCAL_SLOTS"),
                 std::to_string(std::min<std::uint64_t>(device.localMemBytes / 2 / 8, 64 * 16)));
        QVERIFY_THROWS_EXCEPTION(UsageError, hostValues({DType::UInt16, 10, 30}, device,
                                                        {{"AZ_TILE_W", 12}, {"AZ_TILE_RUN", 8}}));
        // Offsets in bytes where every tile spans at most 255 bins, as the tables hold them.
        QCOMPARE(hostValues({DType::UInt16, 1000, 30, 255}, device, {}).at("AZ_TILE_BYTES"), "1");
        QCOMPARE(hostValues({DType::UInt16, 1000, 30, 256}, device, {}).at("AZ_TILE_BYTES"), "0");
        QVERIFY_THROWS_EXCEPTION(
            UsageError, hostValues({DType::UInt16, 1000, 30, 256}, device, {{"AZ_TILE_BYTES", 1}}));
        // The same checks on a program's values after the run's overrides (the lab's --set).
        const RunShape shape{DType::UInt16, 10, 30};
        for (const std::string& program : {histogramProgram, csrProgram, sortedProgram})
            checkProgramValues(shape, device,
                               recipeOf(program).resolve(hostValues(shape, device, {})));
        TunableValues forked = recipeOf(tiledProgram).resolve(hostValues(shape, device, {}));
        checkProgramValues(shape, device, forked);
        forked["AZ_TILE_W"] = "12";
        QVERIFY_THROWS_EXCEPTION(UsageError, checkProgramValues(shape, device, forked));
        forked["AZ_TILE_W"] = "64", forked["AZ_TILE_H"] = "2048";
        QVERIFY_THROWS_EXCEPTION(UsageError, checkProgramValues(shape, device, forked));
        QVERIFY_THROWS_EXCEPTION(
            UsageError, hostValues({DType::UInt16, 10, 30}, device,
                                   {{"AZ_LOCAL_SLOTS", int(device.localMemBytes / 8 + 1)}}));
        // Static counts: slots of the sums alone (4 bytes for uint16 instead of 8), twice as many
        // in a small local memory.
        DeviceInfo small = device;
        small.localMemBytes = 4096;
        const std::map<std::string, int> counted{{"AZ_STATIC_COUNTS", 0}},
            uncounted{{"AZ_STATIC_COUNTS", 1}};
        QCOMPARE(hostValues({DType::UInt16, 100, 30}, small, counted).at("AZ_LOCAL_SLOTS"), "256");
        QCOMPARE(hostValues({DType::UInt16, 100, 30}, small, uncounted).at("AZ_LOCAL_SLOTS"),
                 "512");
        // tiled's sorted form: AZ_TILE_FRAMES frames of a tile and its order within the local
        // memory (48 KiB: 32 x 32 tiles of 8 uint16 frames, 64 x 64 of 4, not of 8), at most
        // 65,536 pixels a tile.
        small.localMemBytes = 48 * 1024;
        const RunShape frames16{DType::UInt16, 10, 30};
        hostValues(frames16, small, {{"AZ_TILE_SORTED", 1}, {"AZ_TILE_H", 32}, {"AZ_TILE_W", 32}});
        hostValues(frames16, small, {{"AZ_TILE_SORTED", 1}, {"AZ_TILE_FRAMES", 4}});
        QVERIFY_THROWS_EXCEPTION(UsageError, hostValues(frames16, small, {{"AZ_TILE_SORTED", 1}}));
        QVERIFY_THROWS_EXCEPTION(UsageError, hostValues(frames16, device,
                                                        {{"AZ_TILE_SORTED", 1},
                                                         {"AZ_TILE_H", 512},
                                                         {"AZ_TILE_W", 136},
                                                         {"AZ_TILE_FRAMES", 1}}));
    }

    // More bins than a chunk of `sorted` and than the local histogram may hold on a small
    // local memory; an explicit range leaving pixels out; one frame (H,W).
    void manyBinsAndRanges() {
        const std::size_t h = 64, w = 61;
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType::UInt16, 1, h, w, 9), {}, {}};
        in->data.frames = Array(DType::UInt16, {h, w});
        const Array f = frames(DType::UInt16, 1, h, w, 9);
        std::memcpy(in->data.frames.bytes(), f.bytes(), f.byteSize());
        in->geometry = smallGeometry(h, w);
        ParamSet set = paramsOf("q_nm^-1", 900, 36, true);
        set.set("radial_range", "2,40");
        set.set("azimuth_range", "-90,120");
        const Result reference = runVariant("cpu", in, set);
        QVERIFY(reference.cake);
        expectSame(runVariant("csr", in, set), reference, 0, "csr");
        expectSame(runVariant("histogram", in, set), reference, 0, "histogram");
        expectSame(runVariant("sorted", in, set), reference, 0, "sorted");
        expectSame(runVariant("tiled", in, set), reference, 0, "tiled");
    }

    // Frames in chunks of 2 (the host tuning AZ_CHUNK_FRAMES): 5 frames, the last chunk short;
    // then from pinned memory in chunks of 1.
    void framesInChunks() {
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType::UInt16, 5, 24, 20, 13), someMask(24, 20, 7), {}};
        in->geometry = smallGeometry(24, 20);
        const ParamSet set = paramsOf("q_A^-1", 30, 3, true);
        const Result reference = runVariant("cpu", in, set);
        for (const char* variant : {"csr", "histogram", "sorted", "tiled"})
            expectSame(runVariant(variant, in, set, {{"AZ_CHUNK_FRAMES", 2}}), reference, 0,
                       variant);
        // The frames in the device's pinned memory, as the bench's on a GPU: DMA in place, two
        // chunks ahead of the kernels (StreamUpload's ring of four).
        std::optional<HostAllocatorScope> scope(std::in_place,
                                                pinnedAllocator(openclDevices().front()), 1024);
        Array pinned(DType::UInt16, {5, 24, 20});
        scope.reset();
        std::memcpy(pinned.bytes(), in->data.frames.bytes(), pinned.byteSize());
        in->data.frames = std::move(pinned);
        for (const char* variant : {"csr", "histogram", "sorted", "tiled"})
            expectSame(runVariant(variant, in, set, {{"AZ_CHUNK_FRAMES", 1}}), reference, 0,
                       std::string(variant) + " (pinned frames)");
    }

    // The bins and tables are kept for the next run of the same geometry (prepared_geometry.hpp):
    // runs that differ only in a mask, the parameters, the geometry or the frames' type each
    // get their own, and going back to the first gives its sums again.
    void preparedGeometryKeptPerRun() {
        const std::size_t h = 23, w = 27;
        auto a = std::make_shared<AzintInput>();
        a->data = {frames(DType::UInt16, 2, h, w, 31), someMask(h, w, 5), {}};
        a->geometry = smallGeometry(h, w);
        auto b = std::make_shared<AzintInput>(*a);
        b->data.mask = someMask(h, w, 3);
        auto c = std::make_shared<AzintInput>(*a);
        c->geometry.rot3 = 0.2;
        auto d = std::make_shared<AzintInput>(*a);
        d->data.frames = frames(DType::Int32, 2, h, w, 31);
        const ParamSet plain = paramsOf("q_nm^-1", 19, 0, false);
        const ParamSet corrected = paramsOf("q_nm^-1", 19, 0, true);
        for (const char* variant : {"csr", "histogram", "sorted", "tiled"})
            for (const auto& [in, set] :
                 {std::pair{a, plain}, std::pair{b, plain}, std::pair{a, corrected},
                  std::pair{c, plain}, std::pair{d, plain}, std::pair{a, plain}})
                expectSame(runVariant(variant, in, set), runVariant("cpu", in, set), 0, variant);
        // tiled's tables follow its tile shape: runs of one geometry in other tiles get their own.
        using Tuning = std::map<std::string, int>;
        for (const Tuning& tuning : {Tuning{{"AZ_TILE_H", 4}, {"AZ_TILE_W", 8}}, Tuning{},
                                     Tuning{{"AZ_TILE_H", 4}, {"AZ_TILE_W", 8}}})
            expectSame(runVariant("tiled", a, plain, tuning), runVariant("cpu", a, plain), 0,
                       "tiled, tiles of " + std::to_string(tuning.size() ? 4 : 64) + " rows");
    }

    // The local histogram must hold the run's bins: a tuning below them is a usage error.
    void localBinsTooFew() {
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType::UInt16, 1, 20, 20, 3), {}, {}};
        in->geometry = smallGeometry(20, 20);
        QVERIFY_THROWS_EXCEPTION(UsageError,
                                 runVariant("histogram", in, paramsOf("q_nm^-1", 50, 0, false),
                                            {{"AZ_LOCAL_BINS", 10}}));
    }

    // tiled is built with at most AZ_TILE_REGS registers on NVIDIA (32 by default: eight
    // work-groups of 256 a multiprocessor), which ptxas ignores where the kernel requires its
    // work-group size: azint_tiled requires none. A run with the cap lifted (0) gives the same
    // sums.
    void tiledRegisterCap() {
        const ProgramRecipe recipe = azint::recipeOf(azint::tiledProgram);
        const auto& t = recipe.tunables();
        const auto cap = std::find_if(t.begin(), t.end(),
                                      [](const Tunable& x) { return x.name == "AZ_TILE_REGS"; });
        QVERIFY(cap != t.end());
        QCOMPARE(cap->defaultValue, std::string("32"));
        const std::string source = kernelSource("azint_tiled");
        const std::size_t kernel = source.find("void azint_tiled(");
        QVERIFY(kernel != std::string::npos);
        const std::size_t start = source.rfind("__kernel", kernel);
        QVERIFY(source.substr(start, kernel - start).find("reqd_work_group_size") ==
                std::string::npos);
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType::UInt16, 2, 30, 40, 5), {}, {}};
        in->geometry = smallGeometry(30, 40);
        const ParamSet set = paramsOf("q_nm^-1", 25, 0, false);
        expectSame(runVariant("tiled", in, set, {{"AZ_TILE_REGS", 0}}), runVariant("cpu", in, set),
                   0, "tiled AZ_TILE_REGS=0");
    }

    // Frame types the kernels do not read are refused with a reason; cpu runs them.
    void int64FramesRefused() {
        auto in = std::make_shared<AzintInput>();
        in->data = {frames(DType::Int64, 1, 8, 8, 1), {}, {}};
        in->geometry = smallGeometry(8, 8);
        const clscope::Algorithm& a = AlgorithmRegistry::instance().find("azint");
        const ParamSet set = paramsOf("q_nm^-1", 10, 0, false);
        for (const VariantEntry& v : a.variants()) {
            if (v.info.kind == VariantKind::Host) continue;
            const Support s = a.supports(v, openclDevices().front(), in.get(), &set);
            QVERIFY(!s.ok);
            QVERIFY(s.reason.find("int64") != std::string::npos);
        }
        QCOMPARE(runVariant("cpu", in, set).frames, std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestAzintVariants)
#include "tst_azint_variants.moc"
