// xpcs: every variant against the CPU reference on awkward inputs, the reference against an
// independent numpy computation, chunk planning, fits and the correlate command line.
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/xpcs/fit.hpp"
#include "core/xpcs/synthetic.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/xpcs/plan.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"
#include "typed_runs.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <random>

using namespace clscope;

namespace {

// A frame stack and labels built by a test row.
struct Case {
    Case() = default;
    Case(Array f, LabelMask m) : frames(std::move(f)), mask(std::move(m)) {}
    Array frames;
    LabelMask mask;
    xpcs::Params params;
    double tolerance = 1e-9; // relative, on g2 and g2_err
};

template <class T>
Array randomFrames(std::size_t t, std::size_t h, std::size_t w, double lo, double hi,
                   unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<T> v(t * h * w);
    for (T& x : v)
        x = static_cast<T>(std::is_integral_v<T> ? std::floor(dist(rng)) : dist(rng));
    return makeArray<T>({t, h, w}, v);
}

// Labels drawn from a set (0 = excluded), every listed label used at least once.
LabelMask randomLabels(std::size_t h, std::size_t w, std::vector<std::int32_t> set, unsigned seed) {
    std::mt19937 rng(seed);
    LabelMask m{h, w, std::vector<std::int32_t>(h * w)};
    for (std::size_t i = 0; i < m.labels.size(); ++i)
        m.labels[i] = i < set.size() ? set[i] : set[rng() % set.size()];
    return m;
}

// Relative difference with NaN == NaN.
double relDiff(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0.0 : INFINITY;
    return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300});
}

// Compare two arrays; on failure name the count, the first index and the largest error.
template <class T>
void compareValues(const char* what, const std::vector<T>& got, const std::vector<T>& want,
                   double tolerance) {
    QCOMPARE(got.size(), want.size());
    std::size_t bad = 0, first = 0;
    double worst = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double d = relDiff(got[i], want[i]);
        worst = std::max(worst, d);
        if (d > tolerance && bad++ == 0) first = i;
    }
    if (bad)
        QFAIL(qPrintable(QString("%1: %2 of %3 differ, first at %4 (%5 vs %6), largest error %7")
                             .arg(what)
                             .arg(bad)
                             .arg(got.size())
                             .arg(first)
                             .arg(double(got[first]), 0, 'g', 17)
                             .arg(double(want[first]), 0, 'g', 17)
                             .arg(worst)));
}

void compareResults(const xpcs::Result& got, const xpcs::Result& want, double tolerance) {
    QCOMPARE(got.labels, want.labels);
    QCOMPARE(got.pixels, want.pixels);
    QCOMPARE(got.tau, want.tau);
    compareValues("g2", got.g2, want.g2, tolerance);
    compareValues("g2_err", got.g2Err, want.g2Err, std::max(tolerance, 1e-9));
    QCOMPARE(got.twotime.size(), want.twotime.size());
    for (const auto& [label, map] : want.twotime)
        compareValues("twotime", got.twotime.at(label), map, 1e-6);
}

DeviceInfo testDevice() {
    const auto& devices = openclDevices();
    return devices.empty() ? hostDevice() : devices.front();
}

} // namespace

Q_DECLARE_METATYPE(std::string)

class TestXpcs : public QObject {
    Q_OBJECT

    std::map<QString, Case> cases_;
    std::map<QString, xpcs::Result> references_;

    void addCases();

  private slots:
    void initTestCase();
    void variantsMatchReference_data();
    void variantsMatchReference();
    void referenceMatchesNumpy();
    void referenceSemantics();
    void chunkPlanCoversEveryPixel();
    void binsOfSmallAndLargeLabels();
    void rejectsBadInputs();
    void fitsRecoverParameters();
    void commandLineRoundTrip();
};

// The inputs of the data-driven rows, keyed by name.
void TestXpcs::addCases() {
    auto add = [&](const char* name, Case c) { cases_[name] = std::move(c); };
    const std::vector<std::int32_t> sparse{0, 3, 7, 42}; // non-contiguous labels, some excluded
    add("uint8 above 127",
        {randomFrames<std::uint8_t>(37, 13, 11, 0, 256, 1), randomLabels(13, 11, sparse, 2)});
    add("uint16 near 65535",
        {randomFrames<std::uint16_t>(19, 9, 10, 65000, 65536, 3), randomLabels(9, 10, sparse, 4)});
    add("uint32",
        {randomFrames<std::uint32_t>(23, 7, 9, 0, 1 << 24, 5), randomLabels(7, 9, {1, 2}, 6)});
    add("int32 negative",
        {randomFrames<std::int32_t>(17, 8, 8, -1000, 1000, 7), randomLabels(8, 8, {1, 5, 0}, 8)});
    Case f32{randomFrames<float>(21, 6, 13, 0, 100, 9), randomLabels(6, 13, {2, 0, 9}, 10)};
    f32.tolerance = 1e-6;
    add("float32", std::move(f32));
    // One-pixel bins: every labelled pixel its own bin.
    LabelMask single{3, 5, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0}};
    add("one-pixel bins", {randomFrames<std::uint8_t>(11, 3, 5, 0, 256, 11), single});
    // All-zero frames, and a bin (label 9) that is zero in every frame: NaN where D = 0.
    Case zeros{randomFrames<std::uint8_t>(15, 6, 7, 0, 4, 12), randomLabels(6, 7, {1, 9, 4}, 13)};
    auto v = zeros.frames.as<std::uint8_t>();
    for (std::size_t t : {0u, 5u, 6u, 14u})
        std::fill_n(&v[t * 42], 42, 0);
    for (std::size_t i = 0; i < 42; ++i)
        if (zeros.mask.labels[i] == 9)
            for (std::size_t t = 0; t < 15; ++t)
                v[t * 42 + i] = 0;
    add("zero frames and bins", std::move(zeros));
    // Synthetic seed-like data: frame and pixel counts above the gemm tile and flush sizes.
    synthetic::XpcsParams sp;
    sp.model = "seed";
    sp.frames = 131, sp.height = 41, sp.width = 49, sp.ringWidth = 7;
    auto seed = synthetic::generateXpcs(sp);
    Case big{seed.frames, seed.labels};
    big.params.twotimeLabels = {1, 3};
    add("seed-like 131 frames", big);
    // The same in pixel chunks of at most 150 pixels, gemm split in 3 slots, flushes every 512.
    big.params.chunkPixels = 150;
    big.params.tuning = {{"GEMM_SLOTS", 3}, {"GEMM_GLOBAL_ROWS", 512}};
    add("chunked", big);
    // The GPU kernels (XPCS_CPU = 0, also on CPU devices) on the same chunks, 2 slots.
    big.params.tuning = {{"GEMM_SLOTS", 2}, {"GEMM_GLOBAL_ROWS", 512}, {"XPCS_CPU", 0}};
    add("chunked gpu kernels", std::move(big));
    // The GPU kernels' packed uint8 path (dp4a; plain C off NVIDIA).
    Case packed{randomFrames<std::uint8_t>(37, 13, 11, 0, 256, 1), randomLabels(13, 11, sparse, 2)};
    packed.params.tuning = {{"GEMM_DP4A", 1}, {"XPCS_CPU", 0}};
    add("uint8 above 127 packed", std::move(packed));
}

void TestXpcs::initTestCase() {
    addCases();
    for (auto& [name, c] : cases_)
        references_[name] = xpcs::correlateCpu(c.frames, c.mask, c.params);
}

void TestXpcs::variantsMatchReference_data() {
    QTest::addColumn<std::string>("variant");
    QTest::addColumn<QString>("caseName");
    for (const VariantEntry& v : AlgorithmRegistry::instance().find("xpcs").variants())
        for (const auto& [name, c] : cases_) {
            // Multi-tau only: tst_xpcs_multitau (multitau) and tst_sparse (sparse). sparse-cpu
            // and sparse-pairs take unsigned counts (here their dense lags on the frames'
            // non-zero pixels; on sparse files: tst_sparse).
            const DType d = c.frames.dtype();
            const bool counts = d == DType::UInt8 || d == DType::UInt16 || d == DType::UInt32;
            if (v.info.id == "multitau" || v.info.id == "sparse" ||
                ((v.info.id == "sparse-cpu" || v.info.id == "sparse-pairs") && !counts))
                continue;
            QTest::newRow(qPrintable(QString::fromStdString(v.info.id) + " " + name))
                << v.info.id << name;
        }
}

void TestXpcs::variantsMatchReference() {
    QFETCH(std::string, variant);
    QFETCH(QString, caseName);
    const Case& c = cases_.at(caseName);
    const DeviceInfo device =
        variant == "cpu" || variant == "sparse-cpu" ? hostDevice() : testDevice();
    if (!AlgorithmRegistry::instance().find("xpcs").variant(variant).supports(device).ok)
        QSKIP("variant cannot run on the test device");
    xpcs::Params params = c.params;
    params.threads = 3; // a thread count that does not divide the tiles evenly
    const xpcs::Result got = test::runXpcs(device, variant, c.frames, c.mask, params);
    compareResults(got, references_.at(caseName), c.tolerance);
    QCOMPARE(got.variant, variant);
}

// tests/data/xpcs_reference.py (numpy, written apart from the C++ code) computed g2 and g2_err
// of tests/data/xpcs_small.h5 into xpcs_small_numpy.h5.
void TestXpcs::referenceMatchesNumpy() {
    const std::string dir = qEnvironmentVariable("CLSCOPE_TEST_DATA").toStdString();
    const H5Reader input(dir + "/xpcs_small.h5");
    const Array frames = readFrames(input);
    const LabelMask mask = readLabels(input, paths::qmask, frames.height(), frames.width());
    const xpcs::Result got = xpcs::correlateCpu(frames, mask, {});
    const H5Reader numpy(dir + "/xpcs_small_numpy.h5");
    const Array g2 = numpy.read("/g2", DType::Float64), err = numpy.read("/g2_err", DType::Float64);
    compareValues("g2", got.g2, std::vector<double>(g2.as<double>().begin(), g2.as<double>().end()),
                  1e-6);
    compareValues("g2_err", got.g2Err,
                  std::vector<double>(err.as<double>().begin(), err.as<double>().end()), 1e-6);
}

// One bin of two pixels over three frames, worked out by hand from DESIGN.md §5.
void TestXpcs::referenceSemantics() {
    // Pixel values I_t(p): frame 0 = (1, 3), frame 1 = (2, 0), frame 2 = (200, 100).
    const Array frames = makeArray<std::uint8_t>({3, 1, 2}, {1, 3, 2, 0, 200, 100});
    const LabelMask mask{1, 2, {5, 5}};
    xpcs::Params params;
    params.frameTime = 0.5;
    params.twotimeLabels = {5};
    const xpcs::Result r = xpcs::correlateCpu(frames, mask, params);
    // tau 1: N_1 = 1*2 + 3*0 = 2, N_2 = 2*200 + 0 = 400; S = 4, 2, 300.
    // g2 = (2 + 400) * 2 / (2*4 + 300*2); r_t = 2*2/8 = 0.5, 2*400/600 = 4/3.
    QCOMPARE(r.g2At(0, 1), 402.0 * 2 / 608.0);
    const double mean = (0.5 + 4.0 / 3) / 2, spread = std::abs(4.0 / 3 - mean);
    QVERIFY(std::abs(r.g2ErrAt(0, 1) - spread / std::sqrt(2.0)) < 1e-15);
    // tau 2: one pair, N = 1*200 + 3*100 = 500; g2 = 500*2/(300*4), std 0.
    QCOMPARE(r.g2At(0, 2), 1000.0 / 1200.0);
    QCOMPARE(r.g2ErrAt(0, 2), 0.0);
    QCOMPARE(r.tau, (std::vector<double>{0.0, 0.5, 1.0}));
    QVERIFY(r.tauInSeconds);
    QCOMPARE(r.twotime.at(5)[1 * 3 + 2], float(2.0 * 400 / (2 * 300)));
}

// Labels up to 2^20 are listed and indexed through a table, larger ones sorted and searched:
// both give the bins in ascending order, pixels in raster order inside each bin.
void TestXpcs::binsOfSmallAndLargeLabels() {
    for (const std::int32_t big : {9, 3000000}) {
        const LabelMask mask{2, 3, {0, big, 2, big, 2, -1}};
        QCOMPARE(mask.bins(), (std::vector<std::int32_t>{2, big}));
        const xpcs::Bins bins = xpcs::makeBins(mask);
        QCOMPARE(bins.labels, (std::vector<std::int32_t>{2, big}));
        QCOMPARE(bins.pixelCounts, (std::vector<std::int64_t>{2, 2}));
        QCOMPARE(bins.pixelIndex, (std::vector<std::int32_t>{2, 4, 1, 3}));
    }
}

void TestXpcs::chunkPlanCoversEveryPixel() {
    const LabelMask mask = randomLabels(17, 9, {0, 2, 4, 8}, 21);
    const xpcs::Bins bins = xpcs::makeBins(mask);
    for (std::size_t maxPixels : {1, 10, 1000}) {
        const xpcs::LayoutSpec spec{xpcs::Layout::PixelMajor, 16, 128};
        const auto chunks = xpcs::planChunks(bins, 17, 9, spec, maxPixels, 1000);
        std::vector<int> seen(mask.labels.size(), 0);
        std::size_t nextRow = 0;
        for (const xpcs::Chunk& c : chunks) {
            QCOMPARE(c.rowBegin, nextRow);
            nextRow = c.rowEnd;
            QCOMPARE(c.offsets.size(), bins.count() + 1);
            for (std::size_t b = 0; b < bins.count(); ++b) {
                QCOMPARE(c.offsets[b] % 16, 0);
                for (int q = c.offsets[b]; q < c.offsets[b + 1]; ++q) {
                    if (c.source[q] < 0) continue;
                    const std::size_t pixel = c.source[q] + c.rowBegin * 9;
                    QCOMPARE(mask.labels[pixel], bins.labels[b]);
                    ++seen[pixel];
                }
            }
        }
        QCOMPARE(nextRow, std::size_t(17));
        for (std::size_t i = 0; i < seen.size(); ++i)
            QCOMPARE(seen[i], mask.labels[i] > 0 ? 1 : 0);
    }
}

void TestXpcs::rejectsBadInputs() {
    const Array frames = randomFrames<std::uint8_t>(4, 3, 3, 0, 9, 1);
    QVERIFY_THROWS_EXCEPTION(
        InputError,
        xpcs::correlateCpu(frames, LabelMask{3, 4, std::vector<std::int32_t>(12, 1)}, {}));
    QVERIFY_THROWS_EXCEPTION(
        InputError,
        xpcs::correlateCpu(frames, LabelMask{3, 3, std::vector<std::int32_t>(9, 0)}, {}));
    xpcs::Params params;
    params.twotimeLabels = {7};
    QVERIFY_THROWS_EXCEPTION(
        UsageError,
        xpcs::correlateCpu(frames, LabelMask{3, 3, std::vector<std::int32_t>(9, 1)}, params));
    QVERIFY_THROWS_EXCEPTION(UsageError,
                             test::runXpcs(hostDevice(), "gemm", frames,
                                           LabelMask{3, 3, std::vector<std::int32_t>(9, 1)}));
    QVERIFY_THROWS_EXCEPTION(UsageError,
                             test::runXpcs(hostDevice(), "nope", frames,
                                           LabelMask{3, 3, std::vector<std::int32_t>(9, 1)}));
}

void TestXpcs::fitsRecoverParameters() {
    if (!xpcs::fitAvailable()) {
        QVERIFY_THROWS_EXCEPTION(UsageError, xpcs::fitG2({1, 2, 3}, {1, 1, 1}, {}));
        QSKIP("built without GSL");
    }
    // Exact model values with small deterministic noise; stretched exponent fitted free.
    std::vector<double> tau, g2, err;
    for (int i = 0; i < 200; ++i) {
        tau.push_back(0.01 * i);
        g2.push_back(xpcs::g2Model(tau.back(), {1.02, 0.25, 3.0, 0.8}) + 1e-4 * std::sin(7.0 * i));
        err.push_back(1e-4);
    }
    xpcs::G2Model model;
    model.alpha.fixed = false;
    const xpcs::FitResult fit = xpcs::fitG2(tau, g2, err, model);
    QVERIFY2(fit.converged, fit.message.c_str());
    QCOMPARE(fit.points, std::size_t(199)); // tau = 0 left out
    const std::vector<double> want{1.02, 0.25, 3.0, 0.8};
    for (std::size_t i = 0; i < 4; ++i)
        QVERIFY2(std::abs(fit.values[i] - want[i]) < 20 * fit.errors[i] + 1e-3,
                 qPrintable(QString::number(i)));
    QVERIFY(fit.chiSquaredReduced > 0.1 && fit.chiSquaredReduced < 2);
    // Bounds hold: beta kept at or below 0.2 even though the data want 0.25.
    model.beta.upper = 0.2;
    QVERIFY(xpcs::fitG2(tau, g2, err, model).values[1] <= 0.2);
    // Rates D q^2 recovered by the power law, exponent fixed to 2.
    xpcs::PowerLawModel law;
    law.exponent.fixed = true;
    const xpcs::FitResult d =
        xpcs::fitRateVsQ({0.01, 0.02, 0.03, 0.04}, {0.5, 2.0, 4.5, 8.0}, {}, law);
    QVERIFY(std::abs(d.values[0] - 5000.0) < 1e-6 * 5000.0);
    QCOMPARE(d.errors[1], 0.0);
}

// Run clscope-cli; returns its exit code.
static int cli(const QStringList& args) {
    QProcess p;
    p.start(qEnvironmentVariable("CLSCOPE_CLI"), args);
    if (!p.waitForFinished(120000)) return -1;
    if (p.exitCode() != 0) qInfo().noquote() << p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

void TestXpcs::commandLineRoundTrip() {
    QTemporaryDir dir;
    const QString in = dir.filePath("in.h5"), out = dir.filePath("out.h5"),
                  other = dir.filePath("other.h5");
    QCOMPARE(cli({"generate", "xpcs", "--frames", "12", "--height", "41", "--width", "49",
                  "--frame-time", "0.01", "-o", in}),
             0);
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--twotime", "1,2", "-o", out}), 0);
    const H5Reader file(out.toStdString());
    const xpcs::Result r = xpcs::readResult(file);
    QCOMPARE(file.info("/xpcs/g2").shape, (Shape{r.labels.size(), 12}));
    QCOMPARE(file.info("/xpcs/g2_err").shape, (Shape{r.labels.size(), 12}));
    QCOMPARE(*file.info("/xpcs/labels").dtype, DType::Int32);
    QCOMPARE(*file.info("/xpcs/pixels").dtype, DType::Int64);
    QCOMPARE(*file.info("/xpcs/twotime/2").dtype, DType::Float32);
    QCOMPARE(file.info("/xpcs/twotime/2").shape, (Shape{12, 12}));
    QCOMPARE(r.tau[1], 0.01); // seconds from the file's frame time
    QCOMPARE(file.stringAttribute("/xpcs", "variant").value_or(""), std::string("cpu"));
    QVERIFY(file.stringAttribute("/xpcs", "kernel_ms").has_value());
    QVERIFY(file.stringAttribute("/xpcs", "clscope_version").has_value());
    // The OpenCL default variant writes the same g2.
    if (!openclDevices().empty()) {
        QCOMPARE(cli({"correlate", in, "--device", "ocl:0", "-o", other}), 0);
        compareValues("g2", xpcs::readResult(H5Reader(other.toStdString())).g2, r.g2, 1e-9);
    }
    // Mask of another shape: exit 3, and no output left behind.
    QCOMPARE(
        cli({"generate", "xpcs", "--frames", "2", "--height", "40", "--width", "49", "-o", other}),
        0);
    const QString failed = dir.filePath("failed.h5");
    QCOMPARE(cli({"correlate", in, "--mask", other, "--device", "cpu", "-o", failed}), 3);
    QVERIFY(!QFile::exists(failed));
    QCOMPARE(cli({"correlate", dir.filePath("missing.h5"), "--device", "cpu", "-o", failed}), 3);
    QCOMPARE(cli({"correlate", in, "--device", "ocl:nosuchdevice", "-o", failed}), 4);
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--variant", "nope", "-o", failed}), 2);
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--frame-time", "-1", "-o", failed}), 2);
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--twotime", "99", "-o", failed}), 2);
    QVERIFY(!QFile::exists(failed));
}

QTEST_GUILESS_MAIN(TestXpcs)
#include "tst_xpcs.moc"
