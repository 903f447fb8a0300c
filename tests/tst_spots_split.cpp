// spots split over several devices into bands of rows (gpu/spots/bands.cpp): one frame or a
// 2-frame stack on 3 PoCL queues (the same device listed three times, as tst_scale does) gives
// the one-device result exactly (signal mask, lists, spots, counts, debug images), with spots
// and masked rows on the band boundaries; a halo one row short gives a different result.
// Runs within a memory budget keep the passes' signal pixel lists only.
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "core/spots/spots.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/scale/passes.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/bands.hpp"
#include "gpu/spots/run_types.hpp"
#include "test_util.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <random>

using namespace clscope;
using namespace clscope::spots;

namespace {

constexpr std::size_t parts = 3;

// First kept row of band i of `n` over h rows (split's own arithmetic, written out again).
std::size_t boundary(std::size_t h, std::size_t n, std::size_t i) {
    std::size_t row = 0;
    for (std::size_t b = 0; b < i; ++b)
        row += h / n + (b < h % n ? 1 : 0);
    return row;
}

// Poisson background, blobs spread over the frame and centred on the band boundaries (spots
// crossing them), masked rows at the boundaries, EIGER sentinels; uint16.
std::shared_ptr<SpotsInput> makeInput(std::size_t t, std::size_t h, std::size_t w, unsigned seed,
                                      double blobsPer = 120, bool boundaryBlobs = true) {
    std::mt19937 rng(seed);
    std::poisson_distribution<int> background(4.0);
    std::vector<std::uint16_t> v(t * h * w);
    for (std::size_t f = 0; f < t; ++f) {
        std::vector<double> img(h * w);
        for (double& x : img)
            x = background(rng);
        const std::size_t onBoundary = boundaryBlobs ? 3 : 0;
        const std::size_t blobs = onBoundary + static_cast<std::size_t>(double(h * w) / blobsPer);
        for (std::size_t b = 0; b < blobs; ++b) {
            // Three straddle the boundaries, right of the masked part of the row above
            // boundary 1 and left of the block below boundary 2.
            const bool straddles = b < onBoundary;
            const double cy =
                straddles ? double(boundary(h, parts, b == 0 ? 1 : 2)) - 0.5 : double(rng() % h);
            const double cx = straddles ? (b == 2 ? 5.0 : double(w - 10)) : double(rng() % w);
            const double peak = (straddles ? 300 : 15) + rng() % 400,
                         sigma = (straddles ? 1.0 : 0.7) + (rng() % (straddles ? 5 : 12)) / 10.0;
            for (std::size_t j = 0; j < h; ++j)
                for (std::size_t i = 0; i < w; ++i) {
                    const double r2 = (i - cx) * (i - cx) + (j - cy) * (j - cy);
                    if (r2 < 36)
                        img[j * w + i] += std::floor(peak * std::exp(-r2 / (2 * sigma * sigma)));
                }
        }
        for (std::size_t k = 0; k < h * w; ++k)
            v[f * h * w + k] = static_cast<std::uint16_t>(std::min(img[k], 60000.0));
        v[f * h * w + boundary(h, parts, 1) * w + 3] = 65535; // invalid pixels on the boundary
        v[f * h * w + (boundary(h, parts, 2) - 1) * w + w / 2] = 65534;
    }
    auto in = std::make_shared<SpotsInput>();
    in->data.frames =
        t == 1 ? makeArray<std::uint16_t>({h, w}, v) : makeArray<std::uint16_t>({t, h, w}, v);
    in->data.mask = PixelMask{h, w, std::vector<std::uint8_t>(h * w, 0)};
    const std::size_t b1 = boundary(h, parts, 1), b2 = boundary(h, parts, 2);
    for (std::size_t i = 0; i < w; ++i)
        in->data.mask.bad[(b1 - 1) * w + i] = i < 2 * w / 3; // most of the row above boundary 1
    for (std::size_t j = b2; j < b2 + 2; ++j)                // a block below boundary 2
        for (std::size_t i = w / 4; i < w / 2; ++i)
            in->data.mask.bad[j * w + i] = 1;
    return in;
}

ParamSet makeParams(const std::string& variant, int kx, int ky, double gain) {
    ParamSet p = spots::Algorithm().defaultParams();
    p.set("threshold_algorithm", variant == "extended" ? "dispersion_extended" : "dispersion");
    p.set("kernel_size", nlohmann::json::array({kx, ky}));
    p.set("gain", gain);
    p.set("min_spot_size", 1);
    return p;
}

const DeviceInfo* device() {
    const auto& devices = openclDevices();
    return devices.empty() ? nullptr : &devices.front();
}

bool sameSpot(const Spot& a, const Spot& b) {
    return a.frame == b.frame && a.frameEnd == b.frameEnd && a.x == b.x && a.y == b.y &&
           a.z == b.z && a.npix == b.npix && a.intensity == b.intensity && a.x0 == b.x0 &&
           a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1 && a.firstPixel == b.firstPixel &&
           a.peakX == b.peakX && a.peakY == b.peakY && a.peakFrame == b.peakFrame;
}

// Whether two results are the same (signal mask, lists, spots, counts, threshold, debug).
bool sameResult(const SpotsResult& a, const SpotsResult& b) {
    const Result &x = a.result, &y = b.result;
    bool same = x.shape == y.shape && x.signal == y.signal && x.pixels == y.pixels &&
                x.strongPerFrame == y.strongPerFrame && x.thresholdUsed == y.thresholdUsed &&
                x.spots.size() == y.spots.size() && a.debug.has_value() == b.debug.has_value();
    for (std::size_t i = 0; same && i < x.spots.size(); ++i)
        same = sameSpot(x.spots[i], y.spots[i]);
    if (same && a.debug) {
        const DebugImages &d = *a.debug, &e = *b.debug;
        same = d.mean == e.mean && d.variance == e.variance && d.dispersion == e.dispersion &&
               d.sigmaB == e.sigmaB && d.sigmaS == e.sigmaS && d.global == e.global &&
               d.final == e.final;
    }
    return same;
}

const SpotsResult& spotsOf(const std::shared_ptr<AlgorithmResult>& r) {
    return dynamic_cast<const SpotsResult&>(*r);
}

// The parts of split(), each run on the device, then join(): what runOnDevices does, but with
// the halo chosen by the caller.
std::shared_ptr<AlgorithmResult> runBands(const RunRequest& request, std::size_t halo) {
    const spots::Algorithm algorithm;
    ParamSet partParams = request.params;
    const auto& in = dynamic_cast<const SpotsInput&>(*request.input);
    const auto split = splitBands(in, partParams, parts, halo);
    std::vector<std::shared_ptr<AlgorithmResult>> results;
    for (const auto& part : split) {
        RunRequest r = request;
        r.input = part.input, r.params = part.params;
        results.push_back(runAlgorithm(algorithm, r));
    }
    return algorithm.join(results);
}

} // namespace

class TestSpotsSplit : public QObject {
    Q_OBJECT
  private slots:
    void bandsEqualOneDevice_data();
    void bandsEqualOneDevice();
    void haloOneRowShortDiffers_data();
    void haloOneRowShortDiffers();
    void haloPerVariant();
    void fewerBandsThanParts();
    void hostFallbackNotSplit();
    void cpuBandsEqualWhole();
    void passesKeepListsOnly();
    void frameRangesAreViewsOfTheStack();
    void provenanceIsOneOnEveryRoute();
};

void TestSpotsSplit::bandsEqualOneDevice_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("kx");
    QTest::addColumn<int>("ky");
    QTest::addColumn<int>("frames");
    QTest::addColumn<double>("gain");
    for (const char* variant : {"local", "direct", "sat", "extended"})
        for (int frames : {1, 2})
            for (auto [kx, ky] : std::vector<std::pair<int, int>>{
                     {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {2, 5}, {5, 2}}) {
                const double gain = (kx + ky + frames) % 2 ? 1.0 : 1.7;
                QTest::addRow("%s %dx%d %d frame(s) gain %g", variant, kx, ky, frames, gain)
                    << QString(variant) << kx << ky << frames << gain;
            }
}

void TestSpotsSplit::bandsEqualOneDevice() {
    QFETCH(QString, variant);
    QFETCH(int, kx);
    QFETCH(int, ky);
    QFETCH(int, frames);
    QFETCH(double, gain);
    const DeviceInfo* dev = device();
    if (!dev) QSKIP("no OpenCL device");
    auto input = makeInput(frames, 64, 45, 7 * kx + ky + frames);
    input->signalMask = frames == 1; // the 2-frame stacks keep lists only, as a stream does
    ParamSet params = makeParams(variant.toStdString(), kx, ky, gain);
    if (kx == 4) params.set("global_threshold", "auto");
    if (kx == ky && kx == 2) params.set("debug", true);
    const spots::Algorithm algorithm;
    const auto split = algorithm.split(*input, params, parts);
    QCOMPARE(split.size(), parts);
    for (const auto& part : split)
        QVERIFY(dynamic_cast<const SpotsInput&>(*part.input).band);
    const RunRequest one{*dev, variant.toStdString(), input, params, {}, {}, SplitRule::Always};
    const auto whole = runAlgorithm(algorithm, one);
    const auto joined = runOnDevices(algorithm, one, {*dev, *dev, *dev});
    QVERIFY(!spotsOf(whole).result.spots.empty());
    QCOMPARE(spotsOf(joined).result.spots.size(), spotsOf(whole).result.spots.size());
    QVERIFY(sameResult(spotsOf(joined), spotsOf(whole)));
    QVERIFY(algorithm.compare(*joined, *whole).pass);
    // Spots cross the boundaries: some spot spans rows of two bands.
    bool crosses = false;
    const std::size_t b1 = boundary(64, parts, 1), b2 = boundary(64, parts, 2);
    for (const Spot& s : spotsOf(whole).result.spots)
        crosses =
            crosses || (s.y0 < int(b1) && s.y1 > int(b1)) || (s.y0 < int(b2) && s.y1 > int(b2));
    QVERIFY(crosses);
}

void TestSpotsSplit::haloOneRowShortDiffers_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("kx");
    QTest::addColumn<int>("ky");
    for (const char* variant : {"local", "direct", "sat", "extended"})
        for (auto [kx, ky] : std::vector<std::pair<int, int>>{
                 {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {2, 4}, {4, 2}})
            QTest::addRow("%s %dx%d", variant, kx, ky) << QString(variant) << kx << ky;
}

// The halo is tight: with one row fewer, some frame of a few random ones (extended 4x4 and 5x5
// need six) gives another result than the whole frame, and with the halo itself the same one.
void TestSpotsSplit::haloOneRowShortDiffers() {
    QFETCH(QString, variant);
    QFETCH(int, kx);
    QFETCH(int, ky);
    const DeviceInfo* dev = device();
    if (!dev) QSKIP("no OpenCL device");
    const ParamSet params = makeParams(variant.toStdString(), kx, ky, 1.0);
    const std::size_t halo = bandHalo(spots::Algorithm().parameters(params));
    const spots::Algorithm algorithm;
    bool differs = false;
    for (unsigned seed = 1; seed <= 24 && !differs; ++seed) {
        const auto input = makeInput(1, 3 * halo + 6, 256, seed, 40, false);
        const RunRequest one{*dev, variant.toStdString(), input, params, {}, {}, SplitRule::Always};
        const auto whole = runAlgorithm(algorithm, one);
        QVERIFY(sameResult(spotsOf(runBands(one, halo)), spotsOf(whole)));
        differs = !sameResult(spotsOf(runBands(one, halo - 1)), spotsOf(whole));
    }
    QVERIFY2(differs, "a halo one row short gave the whole-frame result on every frame");
}

void TestSpotsSplit::haloPerVariant() {
    Params p;
    p.kernelX = 4, p.kernelY = 3;
    QCOMPARE(bandHalo(p), std::size_t(3)); // dispersion: the window's half-height
    p.method = Method::DispersionExtended;
    // 3 (dispersive window) + 2 (erosion radius min(4,3) - 1) + 5 (background window 3 + 2)
    QCOMPARE(bandHalo(p), std::size_t(10));
}

// Bands never keep fewer rows than the halo: a short frame splits into fewer parts (one: the
// input itself), and the result is still the whole-frame one.
void TestSpotsSplit::fewerBandsThanParts() {
    const spots::Algorithm algorithm;
    const ParamSet params = makeParams("extended", 3, 3, 1.0); // halo 2*3 + 3 + 1 = 10
    const auto input = makeInput(1, 25, 40, 3);
    QCOMPARE(algorithm.split(*input, params, parts).size(), std::size_t(2));
    const auto tiny = makeInput(1, 15, 40, 3);
    const auto one = algorithm.split(*tiny, params, parts);
    QCOMPARE(one.size(), std::size_t(1));
    QCOMPARE(one.front().input.get(), static_cast<const AlgorithmInput*>(tiny.get()));
    const DeviceInfo* dev = device();
    if (!dev) return;
    const RunRequest request{*dev, "extended", input, params, {}, {}, SplitRule::Always};
    QVERIFY(sameResult(spotsOf(runOnDevices(algorithm, request, {*dev, *dev, *dev})),
                       spotsOf(runAlgorithm(algorithm, request))));
}

// A frame smaller than the erosion distance (extended's host fallback, H + W + 1 < EROSION) is
// far smaller than the halo, so it is never cut; a band is always taller than the erosion
// distance (it keeps at least a halo of rows), so no band takes the fallback.
void TestSpotsSplit::hostFallbackNotSplit() {
    const spots::Algorithm algorithm;
    const ParamSet params = makeParams("extended", 10, 10, 1.0);
    auto tiny = std::make_shared<SpotsInput>();
    tiny->data.frames = makeArray<std::uint16_t>(
        {2, 4, 3}, {1, 2, 90, 3, 1, 2, 1, 1, 2, 3, 4, 1, 2, 2, 2, 80, 1, 1, 3, 1, 2, 2, 1, 7});
    const auto split = algorithm.split(*tiny, params, parts);
    QCOMPARE(split.size(), std::size_t(1));
    QVERIFY(!dynamic_cast<const SpotsInput&>(*split.front().input).band);
    const DeviceInfo* dev = device();
    if (!dev) return;
    const RunRequest request{*dev, "extended", tiny, params, {}, {}, SplitRule::Always};
    const auto whole = runAlgorithm(algorithm, request);
    QVERIFY(spotsOf(whole).note.find("host") != std::string::npos);
    QVERIFY(
        sameResult(spotsOf(runOnDevices(algorithm, request, {*dev, *dev, *dev})), spotsOf(whole)));
}

// The host reference splits the same way over three host "devices".
void TestSpotsSplit::cpuBandsEqualWhole() {
    const spots::Algorithm algorithm;
    for (const char* method : {"local", "extended"})
        for (auto [kx, ky] : std::vector<std::pair<int, int>>{{3, 3}, {5, 2}, {1, 4}}) {
            const auto input = makeInput(2, 70, 40, unsigned(kx * 10 + ky));
            ParamSet params = makeParams(method, kx, ky, 1.3);
            params.set("debug", true);
            QCOMPARE(algorithm.split(*input, params, parts).size(), parts);
            const RunRequest request{hostDevice(), "cpu", input, params, {}, {}, SplitRule::Always};
            const auto whole = runAlgorithm(algorithm, request);
            QVERIFY(!spotsOf(whole).result.spots.empty());
            const auto joined =
                runOnDevices(algorithm, request, {hostDevice(), hostDevice(), hostDevice()});
            QVERIFY2(sameResult(spotsOf(joined), spotsOf(whole)), method);
        }
}

// Runs within a memory budget keep each pass's signal pixel lists, not a dense mask joined over
// every frame (3.6 GB for 200 EIGER2 16M frames); the mask the output holds, made from the
// lists, is the whole run's.
void TestSpotsSplit::passesKeepListsOnly() {
    const auto input = makeInput(3, 64, 45, 11);
    QTemporaryDir dir;
    const std::string file = dir.filePath("frames.h5").toStdString();
    {
        H5Writer out(file);
        out.write(paths::frames, input->data.frames);
        out.commit();
    }
    const spots::Algorithm algorithm;
    const RunRequest request{hostDevice(), "cpu", nullptr, algorithm.defaultParams(), {}};
    InputSources sources;
    sources.file = file;
    const std::uint64_t frameBytes = 64 * 45 * 2;
    const BudgetedRun run =
        runWithinBudget(algorithm, request, sources, {hostDevice()}, 2 * frameBytes + 16);
    QCOMPARE(run.passes, std::size_t(3));
    const Result& got = spotsOf(run.result).result;
    QVERIFY(got.signal.empty());
    const Result want =
        runCpu({input->data.frames, {}}, algorithm.parameters(algorithm.defaultParams()));
    QVERIFY(!want.spots.empty());
    QCOMPARE(denseSignal(got), want.signal);
    QCOMPARE(got.spots.size(), want.spots.size());
}

// Stacks of more frames than parts split into frame ranges over the stack's own memory (no copy:
// a pinned stack uploads by DMA from every part) and give the one-device result.
void TestSpotsSplit::frameRangesAreViewsOfTheStack() {
    const spots::Algorithm algorithm;
    const ParamSet params = makeParams("local", 3, 3, 1.0);
    const auto input = makeInput(7, 30, 40, 5);
    const Array& stack = input->data.frames;
    const auto split = algorithm.split(*input, params, parts);
    QCOMPARE(split.size(), parts);
    std::size_t first = 0;
    for (const auto& part : split) {
        const Array& frames = dynamic_cast<const SpotsInput&>(*part.input).data.frames;
        QCOMPARE(frames.bytes(), stack.bytes() + first * stack.frameSize() * 2);
        first += frames.frameCount();
    }
    QCOMPARE(first, stack.frameCount());
    EXPECT_ERROR(std::logic_error, stack.frameView(5, 3), "outside the stack");
    const DeviceInfo* dev = device();
    if (!dev) return;
    const RunRequest request{*dev, "local", input, params, {}, {}, SplitRule::Always};
    QVERIFY(sameResult(spotsOf(runOnDevices(algorithm, request, {*dev, *dev, *dev})),
                       spotsOf(runAlgorithm(algorithm, request))));
}

// One run recorded alike on every route (runProvenance): one device, a split over three, passes
// within a memory budget, the streaming pipeline over the file's frames; the tunables the
// request's programs carry (the kernel lab's) included on each (passes and splits dropped them).
void TestSpotsSplit::provenanceIsOneOnEveryRoute() {
    QTemporaryDir dir;
    const std::string file = dir.filePath("frames.h5").toStdString();
    {
        H5Writer out(file);
        out.write(paths::frames, makeInput(3, 64, 45, 11)->data.frames);
        out.commit();
    }
    const spots::Algorithm algorithm;
    InputSources sources;
    sources.file = file;
    RunRequest request{hostDevice(), "cpu", nullptr, algorithm.defaultParams(), {}};
    request.programs.values = {{"SOME_TUNABLE", "4"}};
    std::map<std::string, std::string> routes;
    request.input = algorithm.read(sources, request.params);
    routes["one device"] = runAlgorithm(algorithm, request)->info.parametersJson;
    request.split = SplitRule::Always;
    routes["split"] = runOnDevices(algorithm, request, {hostDevice(), hostDevice(), hostDevice()})
                          ->info.parametersJson;
    request.input = nullptr, request.split = SplitRule::Auto;
    const BudgetedRun whole = runWithinBudget(algorithm, request, sources, {hostDevice()}, 1 << 30);
    routes["within budget, " + whole.partsText()] = whole.result->info.parametersJson;
    qputenv("CLSCOPE_FILE_PIPELINE", "0");
    const BudgetedRun passes =
        runWithinBudget(algorithm, request, sources, {hostDevice()}, 2 * 64 * 45 * 2 + 16);
    qunsetenv("CLSCOPE_FILE_PIPELINE");
    QCOMPARE(passes.passes, std::size_t(3));
    routes["passes"] = passes.result->info.parametersJson;
    if (!openclDevices().empty()) { // the streaming pipeline: a stream stage on a device
        request.device = openclDevices().front(), request.variant = "local";
        const BudgetedRun streamed =
            runWithinBudget(algorithm, request, sources, {request.device}, 1 << 30);
        QVERIFY(streamed.batches > 0);
        routes["pipeline"] = streamed.result->info.parametersJson;
    }
    const std::string& one = routes.at("one device");
    QVERIFY2(nlohmann::json::parse(one).at("tunables").at("SOME_TUNABLE") == "4", one.c_str());
    for (const auto& [route, recorded] : routes)
        QVERIFY2(recorded == one, (route + ": " + recorded + "\n  one device: " + one).c_str());
}

QTEST_GUILESS_MAIN(TestSpotsSplit)
#include "tst_spots_split.moc"
