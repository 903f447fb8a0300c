// g2_normalisation symmetric (DESIGN.md §5): boost_corr's g2 and g2_err against an independent
// float64 implementation of its formula written here (per pixel G2, IP, IF averaged over each
// bin's pixels, as boost_corr's normalize_multitau does), dense and multi-tau, the cpu variant
// and every OpenCL variant that runs here (PoCL in CI); frame stays the default and differs.
#include "core/hdf5.hpp"
#include "core/xpcs/normalisation.hpp"
#include "gpu/runtime/devices.hpp"
#include "test_util.hpp"
#include "typed_runs.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>

using namespace clscope;

namespace {

// Frames with a drift (the intensity grows over the run) so that symmetric and frame differ.
Array driftingFrames(std::size_t frames, std::size_t height, std::size_t width) {
    std::vector<std::uint16_t> v(frames * height * width);
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::size_t t = i / (height * width);
        v[i] = static_cast<std::uint16_t>(((i * 2654435761u) >> 27) + t / 3);
    }
    return makeArray<std::uint16_t>({frames, height, width}, v);
}

// Three bins (labels 2, 5, 9), a few pixels unlabelled.
LabelMask threeBins(std::size_t height, std::size_t width) {
    LabelMask m{height, width, std::vector<std::int32_t>(height * width)};
    const std::int32_t labels[] = {2, 5, 9};
    for (std::size_t p = 0; p < m.labels.size(); ++p)
        m.labels[p] = p % 11 == 0 ? 0 : labels[p % 3];
    return m;
}

struct Reference {
    std::vector<double> g2, err; // B*L
};

// boost_corr's formula in float64: per pixel, at level k (frames summed 2^k at a time) and lag
// m, G2 = mean of J_t J_{t−m}, IP = mean of J_t, IF = mean of J_{t−m} over the T_k − m pairs;
// g2 = mean_p G2 / (mean_p IP · mean_p IF); g2_err = unbiased std over pixels of
// G2/(IP·IF) / √(pixels).
Reference boostFormula(const Array& frames, const LabelMask& mask, const xpcs::Result& r) {
    const std::size_t total = frames.frameCount(), size = frames.height() * frames.width();
    Reference out;
    for (std::int32_t label : mask.bins()) {
        std::vector<std::size_t> pixels;
        for (std::size_t p = 0; p < size; ++p)
            if (mask.labels[p] == label) pixels.push_back(p);
        for (std::size_t j = 0; j < r.frames; ++j) {
            const int k = r.multitau ? r.levels[j] : 0;
            const std::size_t width = std::size_t(1) << k;
            const std::size_t m = r.multitau ? std::size_t(r.lagFrames[j]) / width : j;
            const std::size_t levelFrames = total / width, pairs = levelFrames - m;
            double g2Sum = 0, ipSum = 0, ifSum = 0;
            std::vector<double> ratios;
            for (std::size_t p : pixels) {
                std::vector<double> series(levelFrames, 0.0);
                for (std::size_t t = 0; t < levelFrames * width; ++t)
                    series[t / width] += frames.valueAt(t * size + p);
                double g = 0, ip = 0, iff = 0;
                for (std::size_t t = m; t < levelFrames; ++t)
                    g += series[t] * series[t - m], ip += series[t], iff += series[t - m];
                g /= double(pairs), ip /= double(pairs), iff /= double(pairs);
                g2Sum += g, ipSum += ip, ifSum += iff;
                if (ip * iff != 0) ratios.push_back(g / (ip * iff));
            }
            const double n = double(pixels.size());
            out.g2.push_back((g2Sum / n) / ((ipSum / n) * (ifSum / n)));
            double mean = 0, squares = 0;
            for (double x : ratios)
                mean += x / double(ratios.size());
            for (double x : ratios)
                squares += (x - mean) * (x - mean);
            const double c = double(ratios.size());
            out.err.push_back(std::sqrt(squares / (c - 1)) / std::sqrt(c));
        }
    }
    return out;
}

// |got − want| <= tolerance · max(|want|, floor) (floor 1 for g2_err: relative to g2 ~ 1, the
// last lags' errors being 0 up to rounding).
void compareRelative(const std::vector<double>& got, const std::vector<double>& want,
                     double tolerance, const std::string& what, double floor = 0) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(std::abs(got[i] - want[i]) <= tolerance * std::max(std::abs(want[i]), floor),
                 (what + " at " + std::to_string(i) + ": " + std::to_string(got[i]) + " vs " +
                  std::to_string(want[i]))
                     .c_str());
}

xpcs::Params symmetricParams(bool multitau) {
    xpcs::Params p;
    p.normalisation = xpcs::Normalisation::Symmetric;
    p.multitau = multitau, p.channels = 4;
    return p;
}

// Every OpenCL variant of xpcs that runs these frames here with these parameters.
std::vector<std::string> deviceVariants(const Array& frames, const LabelMask& mask,
                                        const xpcs::Params& p) {
    std::vector<std::string> out;
    if (openclDevices().empty()) return out;
    const Algorithm& algorithm = AlgorithmRegistry::instance().find("xpcs");
    ParamSet set = algorithm.defaultParams();
    set.set("multitau", p.multitau);
    set.set("channels", p.channels);
    const auto input = xpcs::makeInput(frames, mask);
    for (const VariantEntry& v : algorithm.variants())
        if (v.info.id != "cpu" &&
            algorithm.supports(v, openclDevices().front(), input.get(), &set).ok)
            out.push_back(v.info.id);
    return out;
}

} // namespace

class TestXpcsNormalisation : public QObject {
    Q_OBJECT
  private slots:
    void denseEqualsBoostFormula();
    void multitauEqualsBoostFormula();
    void frameIsTheDefaultAndDiffers();
    void deviceVariantsGiveTheSameSymmetricG2();
    void unnormalisedG2IsTheMeanPixelProduct();
    void unknownNormalisationIsAUsageError();
    void fileRunOnTheDeviceIsSymmetricToo();
};

void TestXpcsNormalisation::denseEqualsBoostFormula() {
    const Array frames = driftingFrames(24, 5, 7);
    const LabelMask mask = threeBins(5, 7);
    const xpcs::Result r = test::runXpcs(hostDevice(), "cpu", frames, mask, symmetricParams(false));
    QVERIFY(r.normalisation == xpcs::Normalisation::Symmetric && r.errFromPixels);
    const Reference ref = boostFormula(frames, mask, r);
    compareRelative(r.g2, ref.g2, 1e-9, "g2");
    compareRelative(r.g2Err, ref.err, 1e-9, "g2_err", 1.0);
}

void TestXpcsNormalisation::multitauEqualsBoostFormula() {
    const Array frames = driftingFrames(64, 5, 7);
    const LabelMask mask = threeBins(5, 7);
    const xpcs::Result r = test::runXpcs(hostDevice(), "cpu", frames, mask, symmetricParams(true));
    QVERIFY(r.multitau && r.levels.back() >= 3); // levels 0..3 at least: binned frames checked
    const Reference ref = boostFormula(frames, mask, r);
    compareRelative(r.g2, ref.g2, 1e-9, "g2");
    compareRelative(r.g2Err, ref.err, 1e-9, "g2_err", 1.0);
}

// Without the parameter g2 is the frame definition (§5), which differs from the symmetric one
// by r = <S><S'>/<SS'> on drifting frames.
void TestXpcsNormalisation::frameIsTheDefaultAndDiffers() {
    const Array frames = driftingFrames(24, 5, 7);
    const LabelMask mask = threeBins(5, 7);
    const xpcs::Result frame = test::runXpcs(hostDevice(), "cpu", frames, mask);
    QVERIFY(frame.normalisation == xpcs::Normalisation::Frame);
    const Reference ref = boostFormula(frames, mask, frame);
    double largest = 0;
    for (std::size_t i = 0; i < ref.g2.size(); ++i)
        largest = std::max(largest, std::abs(frame.g2[i] - ref.g2[i]) / ref.g2[i]);
    QVERIFY2(largest > 1e-4, std::to_string(largest).c_str());
}

void TestXpcsNormalisation::deviceVariantsGiveTheSameSymmetricG2() {
    if (openclDevices().empty()) QSKIP("no OpenCL device");
    const Array frames = driftingFrames(64, 5, 7);
    const LabelMask mask = threeBins(5, 7);
    std::size_t ran = 0;
    for (bool multitau : {false, true}) {
        const xpcs::Params p = symmetricParams(multitau);
        const xpcs::Result cpu = test::runXpcs(hostDevice(), "cpu", frames, mask, p);
        const Reference ref = boostFormula(frames, mask, cpu);
        for (const std::string& id : deviceVariants(frames, mask, p)) {
            const xpcs::Result got = test::runXpcs(openclDevices().front(), id, frames, mask, p);
            compareRelative(got.g2, ref.g2, 1e-9, id + " g2");
            QVERIFY(!got.errFromPixels); // the frame g2_err scaled (docs/INTERCHANGE.md)
            ++ran;
        }
    }
    QVERIFY(ran >= 2);
}

// G2 = Σ N_t / (n (T − m)): lag 0 of one pixel's bin is the mean square of its values.
void TestXpcsNormalisation::unnormalisedG2IsTheMeanPixelProduct() {
    const Array frames = makeArray<std::uint16_t>({3, 1, 2}, {1, 2, 3, 4, 5, 6});
    const LabelMask mask{1, 2, {1, 0}};
    for (bool symmetric : {false, true}) {
        xpcs::Params p;
        if (symmetric) p.normalisation = xpcs::Normalisation::Symmetric;
        const xpcs::Result r = test::runXpcs(hostDevice(), "cpu", frames, mask, p);
        const auto blocks = xpcs::blocksInMemory(std::make_shared<Array>(frames));
        const auto g2 = xpcs::unnormalisedG2(r, xpcs::lagSums(xpcs::frameSums(*blocks, mask), r));
        QCOMPARE(g2.size(), std::size_t(3));
        QVERIFY(std::abs(g2[0] - (1 + 9 + 25) / 3.0) < 1e-12);
        QVERIFY(std::abs(g2[1] - (3 + 15) / 2.0) < 1e-12);
        QVERIFY(std::abs(g2[2] - 5.0) < 1e-12);
    }
}

void TestXpcsNormalisation::unknownNormalisationIsAUsageError() {
    QVERIFY_THROWS_EXCEPTION(UsageError, xpcs::normalisationNamed("boost"));
    const auto run = test::runCli({"correlate", "x.h5", "--device", "cpu", "--g2-normalisation",
                                   "boost", "-o", "/tmp/never-written.h5"});
    QCOMPARE(run.code, 2);
}

// A multi-tau run of a file on an OpenCL device goes through the streaming pipeline, which
// normalises frame by frame: with symmetric it runs whole (or in passes) instead, so the
// command line gives the cpu variant's g2 (on an H100 the pipeline's g2 was the frame one,
// 2.7e-3 off).
void TestXpcsNormalisation::fileRunOnTheDeviceIsSymmetricToo() {
    if (openclDevices().empty()) QSKIP("no OpenCL device");
    QTemporaryDir dir;
    const std::string in = dir.filePath("frames.h5").toStdString();
    {
        H5Writer out(in);
        out.write("/entry/data/data", driftingFrames(64, 5, 7));
        const LabelMask mask = threeBins(5, 7);
        out.write("/entry/processing/qmask", makeArray<std::int32_t>({5, 7}, mask.labels));
        out.commit();
    }
    const auto g2Of = [&](const QString& device, const QString& variant) {
        const QString out = dir.filePath(variant + ".h5");
        const auto run = test::runCli({"correlate", QString::fromStdString(in), "--multitau",
                                       "--channels", "4", "--g2-normalisation", "symmetric",
                                       "--device", device, "--variant", variant, "-o", out});
        if (run.code != 0) qWarning("%s", qPrintable(run.err));
        const Array g2 = H5Reader(out.toStdString()).read("/xpcs/g2", DType::Float64);
        return std::vector<double>(g2.as<double>().begin(), g2.as<double>().end());
    };
    const auto cpu = g2Of("cpu", "cpu");
    const auto device = g2Of("ocl:0", "multitau");
    QVERIFY(!cpu.empty());
    compareRelative(device, cpu, 1e-9, "multitau file g2");
}

QTEST_GUILESS_MAIN(TestXpcsNormalisation)
#include "tst_xpcs_normalisation.moc"
