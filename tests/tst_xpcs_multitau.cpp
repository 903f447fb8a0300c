// xpcs multi-tau (DESIGN.md §5): every variant against an independent numpy implementation
// (tests/xpcs_multitau_ref.py) on a decaying-speckle series, level 0 against dense g2, the
// OpenCL variant against the CPU reference on awkward inputs (block edges, ring wrap, signed
// data), the command line's refusals, and a 10^6-frame series in bounded memory.
#include "core/errors.hpp"
#include "core/range_pool.hpp"
#include "core/xpcs/multitau.hpp"
#include "core/xpcs/sparse_blocks.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/xpcs/live_choice.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/run_types.hpp"
#include "gpu/xpcs/sparse_rings.hpp"
#include "test_util.hpp"
#include "typed_runs.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <thread>

using namespace clscope;

namespace {

// Python with h5py: $CLSCOPE_PYTHON or python3; empty when h5py cannot be imported.
QString pythonWithH5py() {
    for (const QString& candidate : {qEnvironmentVariable("CLSCOPE_PYTHON"), QString("python3"),
                                     QString("/usr/bin/python3")}) {
        if (candidate.isEmpty()) continue;
        QProcess p;
        p.start(candidate, {"-c", "import h5py, numpy"});
        if (p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return candidate;
    }
    return {};
}

bool runPython(const QStringList& args) {
    QProcess p;
    p.start(pythonWithH5py(),
            QStringList{QString::fromStdString(test::dataFile("../xpcs_multitau_ref.py"))} + args);
    const bool ok = p.waitForFinished(120000) && p.exitCode() == 0;
    if (!ok) qWarning("%s", p.readAllStandardError().constData());
    return ok;
}

// Relative difference, NaN equal to NaN only.
double relDiff(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0.0 : INFINITY;
    return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300});
}

void expectClose(const char* what, const std::vector<double>& got, const std::vector<double>& want,
                 double tolerance) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (relDiff(got[i], want[i]) > tolerance)
            QFAIL(qPrintable(QString("%1[%2]: %3 vs %4")
                                 .arg(what)
                                 .arg(i)
                                 .arg(got[i], 0, 'g', 17)
                                 .arg(want[i], 0, 'g', 17)));
}

template <class T>
Array randomFrames(std::size_t t, std::size_t h, std::size_t w, long lo, long hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<long> dist(lo, hi);
    std::vector<T> v(t * h * w);
    for (T& x : v)
        x = static_cast<T>(dist(rng));
    return makeArray<T>({t, h, w}, v);
}

LabelMask labelsOf(std::size_t h, std::size_t w, std::vector<std::int32_t> set) {
    LabelMask m{h, w, std::vector<std::int32_t>(h * w)};
    for (std::size_t i = 0; i < m.labels.size(); ++i)
        m.labels[i] = set[(i * 7) % set.size()];
    return m;
}

// Peak resident memory (KiB) of one clscope-cli run, measured by a small python parent (a
// child forked from this test process would count this process's memory too); -1 on failure.
// ASan's shadow memory and redzones make every allocation of the sanitizer build larger, so
// the same bounded run grows by ~1.5x more there; the unbounded one (holding the frames) would
// still add the whole stack.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kGrowthDivisor = 2;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr long kGrowthDivisor = 2;
#else
constexpr long kGrowthDivisor = 4;
#endif
#else
constexpr long kGrowthDivisor = 4;
#endif

long peakRssKiB(const QStringList& args) {
    QProcess p;
    // In the sanitizer build, ASan's quarantine keeps up to 256 MB of freed blocks resident,
    // which a streamed run frees and allocates again on every batch: it would measure the
    // quarantine, not the run. Without it freed blocks are reused as they are in a release build.
    auto env = QProcessEnvironment::systemEnvironment();
    const QString asan = env.value("ASAN_OPTIONS");
    env.insert("ASAN_OPTIONS", (asan.isEmpty() ? "" : asan + ":") + "quarantine_size_mb=0");
    p.setProcessEnvironment(env);
    p.start(
        pythonWithH5py(),
        QStringList{"-c",
                    "import resource, subprocess, sys\n"
                    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
                    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if code == 0 "
                    "else -1)",
                    qEnvironmentVariable("CLSCOPE_CLI")} +
            args);
    if (!p.waitForFinished(300000) || p.exitCode() != 0) return -1;
    return p.readAllStandardOutput().trimmed().toLong();
}

} // namespace

Q_DECLARE_METATYPE(clscope::Array)

class TstXpcsMultitau : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::map<int, QString> references_; // channels -> numpy reference of dir_/series.h5

  private slots:
    void numpyReference_data();
    void numpyReference();
    void levelZeroIsDense();
    void streamMatchesCpu_data();
    void streamMatchesCpu();
    void twotimeBinned();
    void progressOverFrames_data();
    void progressOverFrames();
    void refusals();
    void millionFramesBoundedMemory();
    void foldRangesOnThePool();
    void splitByPixels_data();
    void splitByPixels();
    void mergeAddsPartsExactly();
    void liveChoiceOfFrames();
    void sparseBlocksWiderBelowTheOccupancyRule();
    void sparseEntriesStagedWhereTheyLie();
};

void TstXpcsMultitau::numpyReference_data() {
    QTest::addColumn<int>("channels");
    QTest::addColumn<QString>("device");
    for (int c : {8, 16}) {
        QTest::newRow(qPrintable(QString("C=%1 cpu").arg(c))) << c << QString("cpu");
        if (!openclDevices().empty())
            QTest::newRow(qPrintable(QString("C=%1 multitau ocl:0").arg(c))) << c << "ocl:0";
    }
}

// clscope-cli correlate --multitau against the numpy definition (g2, g2_err, NaN, lags).
void TstXpcsMultitau::numpyReference() {
    QFETCH(int, channels);
    QFETCH(QString, device);
    if (pythonWithH5py().isEmpty()) QSKIP("python3 with h5py not found");
    const QString in = dir_.filePath("series.h5"), out = dir_.filePath("out.h5");
    if (!QFile::exists(in)) QVERIFY(runPython({"series", in, "--frames", "2500"}));
    QString& ref = references_[channels];
    if (ref.isEmpty()) {
        ref = dir_.filePath(QString("ref%1.h5").arg(channels));
        QVERIFY(runPython({"reference", in, ref, "--channels", QString::number(channels)}));
    }
    const auto run = test::runCli({"correlate", in, "--multitau", "--channels",
                                   QString::number(channels), "--device", device, "-o", out});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const H5Reader got(out.toStdString()), want(ref.toStdString());
    const xpcs::Result r = xpcs::readResult(got);
    QVERIFY(r.multitau);
    QCOMPARE(got.stringAttribute("/xpcs", "mode").value_or(""), std::string("multitau"));
    const Array lags = want.read("/ref/lag_frames", DType::Int64);
    const Array levels = want.read("/ref/level", DType::Int32);
    QCOMPARE(r.lagFrames, std::vector<std::int64_t>(lags.as<std::int64_t>().begin(),
                                                    lags.as<std::int64_t>().end()));
    QCOMPARE(r.levels, std::vector<std::int32_t>(levels.as<std::int32_t>().begin(),
                                                 levels.as<std::int32_t>().end()));
    const Array g2 = want.read("/ref/g2", DType::Float64),
                err = want.read("/ref/g2_err", DType::Float64);
    expectClose("g2", r.g2, {g2.as<double>().begin(), g2.as<double>().end()}, 1e-12);
    expectClose("g2_err", r.g2Err, {err.as<double>().begin(), err.as<double>().end()}, 1e-9);
    std::size_t nans = 0;
    for (double v : r.g2Err)
        nans += std::isnan(v);
    QVERIFY2(nans >= r.frames, "the NaN rules are exercised (an all-zero bin)");
}

// Level 0 of multi-tau is the dense g2 at lags 0..C-1, bit for bit (integer data).
void TstXpcsMultitau::levelZeroIsDense() {
    const Array frames = randomFrames<std::uint16_t>(150, 5, 7, 0, 3000, 3);
    const LabelMask mask = labelsOf(5, 7, {0, 1, 2, 5});
    xpcs::Params dense, multi;
    multi.multitau = true, multi.channels = 10;
    const xpcs::Result d = xpcs::correlateCpu(frames, mask, dense);
    const xpcs::Result m = xpcs::correlateMultitauCpu(
        *xpcs::blocksInMemory(std::make_shared<Array>(frames)), mask, multi);
    for (std::size_t b = 0; b < d.binCount(); ++b)
        for (std::size_t lag = 0; lag < 10; ++lag) {
            QCOMPARE(m.levels[lag], 0);
            QCOMPARE(m.g2At(b, lag), d.g2At(b, lag));
            QVERIFY(relDiff(m.g2ErrAt(b, lag), d.g2ErrAt(b, lag)) < 1e-12);
        }
}

void TstXpcsMultitau::streamMatchesCpu_data() {
    QTest::addColumn<Array>("frames");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("blockFrames");
    QTest::addColumn<int>("workGroup"); // > 1: the GPUs' local-memory reduction, forced on PoCL
    QTest::addColumn<int>("rows");      // rows per work-group of mt_lags (0: the default)
    QTest::addColumn<bool>("ring64");   // 64-bit rings and sums forced (else int where they fit)
    QTest::addColumn<int>("depth");     // blocks queued ahead, MT_UPLOAD_DEPTH (0: the default)
    QTest::newRow("uint8 C=4, blocks of 5")
        << randomFrames<std::uint8_t>(203, 3, 5, 0, 255, 1) << 4 << 5 << 1 << 0 << false << 0;
    QTest::newRow("uint16 C=6, blocks of 64, work-groups of 64")
        << randomFrames<std::uint16_t>(301, 4, 4, 0, 900, 2) << 6 << 64 << 64 << 0 << false << 0;
    QTest::newRow("int32 signed C=8, blocks of 7")
        << randomFrames<std::int32_t>(157, 4, 3, -50, 60, 4) << 8 << 7 << 1 << 0 << false << 0;
    QTest::newRow("uint32 C=16, one block, work-groups of 4")
        << randomFrames<std::uint32_t>(90, 2, 6, 0, 100000, 5) << 16 << 4096 << 4 << 0 << false
        << 0;
    QTest::newRow("uint32 near 2^32 C=8, blocks of 9 (128-bit sums), work-groups of 4")
        << randomFrames<std::uint32_t>(61, 2, 5, 0xF0000000L, 0xFFFFFFFFL, 10) << 8 << 9 << 4 << 0
        << false << 0;
    QTest::newRow("int32 extremes C=6, blocks of 16 (128-bit sums)")
        << randomFrames<std::int32_t>(77, 3, 3, INT32_MIN, INT32_MAX, 11) << 6 << 16 << 1 << 0
        << false << 0;
    QTest::newRow("uint8 C=8, 1 frame per block, 1 pixel bins, work-groups of 8")
        << randomFrames<std::uint8_t>(70, 1, 3, 0, 255, 6) << 8 << 1 << 8 << 0 << false << 0;
    QTest::newRow("uint8 C=16, blocks of 37, 3 rows per group, work-groups of 16")
        << randomFrames<std::uint8_t>(260, 3, 4, 0, 255, 7) << 16 << 37 << 16 << 3 << false << 0;
    QTest::newRow("uint16 C=8, blocks of 50, 64-bit rings, 5 rows per group, work-groups of 32")
        << randomFrames<std::uint16_t>(233, 4, 5, 0, 65535, 8) << 8 << 50 << 32 << 5 << true << 0;
    // frames in pinned memory, as a GPU's runs hold them: blocks queued ahead, in place
    QTest::newRow("uint8 C=8, blocks of 9, in pinned memory")
        << randomFrames<std::uint8_t>(101, 3, 4, 0, 255, 10) << 8 << 9 << 16 << 0 << false << 0;
    QTest::newRow("uint8 C=8, blocks of 9, 7 queued ahead, in pinned memory")
        << randomFrames<std::uint8_t>(101, 3, 4, 0, 255, 10) << 8 << 9 << 16 << 0 << false << 7;
}

// The OpenCL variant is exact: the same g2 and g2_err as the CPU reference, bit for bit.
void TstXpcsMultitau::streamMatchesCpu() {
    QFETCH(Array, frames);
    QFETCH(int, channels);
    QFETCH(int, blockFrames);
    QFETCH(int, workGroup);
    QFETCH(int, rows);
    QFETCH(bool, ring64);
    QFETCH(int, depth);
    if (openclDevices().empty()) QSKIP("no OpenCL device");
    const LabelMask mask = labelsOf(frames.height(), frames.width(), {0, 2, 3, 9});
    xpcs::Params p;
    p.multitau = true, p.channels = channels, p.tuning["MT_FRAMES"] = blockFrames;
    p.tuning["MT_WG"] = workGroup;
    if (rows > 0) p.tuning["MT_ROWS"] = rows;
    if (ring64) p.tuning["MT_RING64"] = 1;
    if (depth > 0) p.tuning["MT_UPLOAD_DEPTH"] = depth;
    const auto blocks = xpcs::blocksInMemory(std::make_shared<Array>(frames));
    const xpcs::Result cpu = xpcs::correlateMultitauCpu(*blocks, mask, p);
    const DeviceInfo& device = openclDevices().front();
    const bool pinned = QByteArray(QTest::currentDataTag()).endsWith("in pinned memory");
    std::optional<HostAllocatorScope> scope; // the run's copy of the frames there
    if (pinned) scope.emplace(pinnedAllocator(device), frames.byteSize());
    const xpcs::Result gpu = test::runXpcs(device, "multitau", frames, mask, p);
    scope.reset();
    QCOMPARE(test::timed(gpu.timings, "upload from pinned memory (host, queued)"), pinned);
    QCOMPARE(gpu.lagFrames, cpu.lagFrames);
    expectClose("g2", gpu.g2, cpu.g2, 0.0);
    expectClose("g2_err", gpu.g2Err, cpu.g2Err, 0.0);
}

// --twotime-bin F: C(t1,t2) = n N(t1,t2) / (S_t1 S_t2) of the stack binned by F frames, the
// trailing partial bin dropped, computed here directly.
void TstXpcsMultitau::twotimeBinned() {
    const Array frames = randomFrames<std::uint16_t>(43, 3, 4, 0, 500, 9);
    const LabelMask mask = labelsOf(3, 4, {0, 2, 5});
    xpcs::Params p;
    p.multitau = true, p.twotimeLabels = {5}, p.twotimeBin = 4;
    const auto maps =
        xpcs::binnedTwotime(*xpcs::blocksInMemory(std::make_shared<Array>(frames)), mask, p);
    const std::vector<float>& map = maps.at(5);
    const std::size_t count = 43 / 4;
    QCOMPARE(map.size(), count * count);
    const auto values = frames.as<std::uint16_t>();
    auto binned = [&](std::size_t t, std::size_t i) {
        double v = 0;
        for (std::size_t f = t * 4; f < t * 4 + 4; ++f)
            v += values[f * 12 + i];
        return v;
    };
    for (std::size_t t1 = 0; t1 < count; ++t1)
        for (std::size_t t2 = 0; t2 < count; ++t2) {
            double n = 0, gram = 0, s1 = 0, s2 = 0;
            for (std::size_t i = 0; i < 12; ++i)
                if (mask.labels[i] == 5)
                    ++n, gram += binned(t1, i) * binned(t2, i), s1 += binned(t1, i),
                        s2 += binned(t2, i);
            QVERIFY(relDiff(map[t1 * count + t2], n * gram / (s1 * s2)) < 1e-6);
        }
}

void TstXpcsMultitau::progressOverFrames_data() {
    QTest::addColumn<QString>("variant");
    QTest::newRow("cpu") << "cpu";
    QTest::newRow("multitau") << "multitau";
}

// A long series reports its progress over the frames, block by block, through runAlgorithm (the
// GUI's progress bar), stops when cancelled, and says how many frames a two-time cell holds.
void TstXpcsMultitau::progressOverFrames() {
    QFETCH(QString, variant);
    const bool host = variant == "cpu";
    if (!host && openclDevices().empty()) QSKIP("no OpenCL device");
    const DeviceInfo device = host ? hostDevice() : openclDevices().front();
    const Array frames = randomFrames<std::uint8_t>(1000, 64, 64, 0, 255, 12); // 4 blocks of 1 MiB
    const LabelMask mask = labelsOf(64, 64, {0, 1, 2});
    xpcs::Params p;
    p.multitau = true, p.channels = 8, p.twotimeLabels = {2}, p.twotimeBin = 8;
    p.tuning["MT_FRAMES"] = 256;
    if (host) p.tuning.clear();
    std::vector<double> reported;
    const Progress progress([&](double f) { reported.push_back(f); }, nullptr);
    const xpcs::Result r = test::runXpcs(device, variant.toStdString(), frames, mask, p, progress);
    QCOMPARE(r.twotimeBin, std::size_t(8));
    QCOMPARE(r.twotime.at(2).size(), std::size_t(125 * 125));
    int inside = 0;
    for (std::size_t i = 0; i < reported.size(); ++i) {
        inside += reported[i] > 0 && reported[i] < 1;
        if (i > 0)
            QVERIFY2(reported[i] >= reported[i - 1],
                     qPrintable(QString("%1 then %2").arg(reported[i - 1]).arg(reported[i])));
    }
    QVERIFY2(inside >= 3, qPrintable(QString::number(inside)));
    QCOMPARE(reported.back(), 1.0);
    std::atomic<bool> cancel{false};
    int calls = 0;
    const Progress cancelling([&](double) { cancel = ++calls == 1; }, &cancel);
    QVERIFY_THROWS_EXCEPTION(
        Cancelled, test::runXpcs(device, variant.toStdString(), frames, mask, p, cancelling));
    QCOMPARE(calls, 1);
}

void TstXpcsMultitau::refusals() {
    QTemporaryDir dir;
    const QString in = dir.filePath("x.h5"), out = dir.filePath("o.h5");
    QCOMPARE(test::runCli({"generate", "xpcs", "-o", in, "--frames", "40", "--height", "41",
                           "--width", "43"})
                 .code,
             0);
    auto expect = [&](QStringList args, int code, const QString& part) {
        const auto r = test::runCli(QStringList{"correlate", in, "-o", out} + args);
        QVERIFY2(r.code == code && r.err.contains(part), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    };
    expect({"--multitau", "--channels", "7"}, 2, "even");
    expect({"--multitau", "--variant", "gemm"}, 2, "dense only");
    expect({"--variant", "multitau"}, 2, "multi-tau only");
    expect({"--multitau", "--twotime", "1", "--twotime-bin", "41"}, 2, "more than the 40 frames");
    if (openclDevices().empty()) return;
    // Float data has no exact integer sums on the device: refused, pointing at cpu.
    xpcs::Params p;
    p.multitau = true;
    const Array floats = makeArray<float>({40, 2, 2}, std::vector<float>(160, 1.5f));
    EXPECT_ERROR(UsageError,
                 test::runXpcs(openclDevices().front(), "multitau", floats, labelsOf(2, 2, {1}), p),
                 "float", "cpu");
}

// 10^6 frames of 8x8 uint8 (a 64 MB stack): cpu and multitau on PoCL give the same result
// with lags up to ~2^19, and the peak memory of the run grows by far less than the stack
// over the same run on 1000 frames (the frames are streamed, never held), besides the few
// numbers per bin and frame the result keeps (its intensity against time, its sums).
void TstXpcsMultitau::millionFramesBoundedMemory() {
    if (pythonWithH5py().isEmpty()) QSKIP("python3 with h5py not found");
    QTemporaryDir dir;
    const QString big = dir.filePath("big.h5"), small = dir.filePath("small.h5");
    const long stackKiB = 1000000L * 64 / 1024;
    QVERIFY(runPython({"long", big, "--frames", "1000000"}));
    QVERIFY(runPython({"long", small, "--frames", "1000"}));
    QStringList devices{"cpu"};
    if (!openclDevices().empty()) devices << "ocl:0";
    std::vector<xpcs::Result> results;
    for (const QString& device : devices) {
        const QStringList common{"--multitau", "--channels", "8", "--device", device, "-o"};
        // The first run builds (and caches) the kernels; the second is the baseline.
        peakRssKiB(QStringList{"correlate", small} + common + QStringList{dir.filePath("w.h5")});
        const long base = peakRssKiB(QStringList{"correlate", small} + common +
                                     QStringList{dir.filePath("s.h5")});
        const QString out = dir.filePath("big_" + QString(device).replace(':', '_') + ".h5");
        const long peak = peakRssKiB(QStringList{"correlate", big} + common + QStringList{out});
        QVERIFY(base > 0 && peak > 0);
        qInfo("%s: peak RSS %ld KiB for 10^6 frames, %ld KiB for 1000 (stack %ld KiB)",
              qPrintable(device), peak, base, stackKiB);
        results.push_back(xpcs::readResult(H5Reader(out.toStdString())));
        // What the result keeps of every frame may grow with them: each bin's intensity per
        // frame (/xpcs/intensity_vs_time) and the frame sums it and /xpcs/sums come from, at
        // most 48 bytes a bin and frame; the frames themselves (64 bytes each) never.
        const long keptKiB = 1000000L * long(results.back().binCount()) * 48 / 1024;
        QVERIFY2(peak - base < stackKiB / kGrowthDivisor + keptKiB,
                 "memory grows with the number of frames");
    }
    QVERIFY(results[0].lagFrames.back() >= (1 << 19));
    for (std::size_t i = 1; i < results.size(); ++i) {
        expectClose("g2", results[i].g2, results[0].g2, 0.0);
        expectClose("g2_err", results[i].g2Err, results[0].g2Err, 0.0);
    }
}

QTEST_GUILESS_MAIN(TstXpcsMultitau)
// The folds' pool (core/range_pool.hpp): every index of [0, n) in exactly one piece, on
// several threads, call after call; more pieces than indices clamped; a piece's exception
// reaches the caller, and the pool runs on after it.
void TstXpcsMultitau::foldRangesOnThePool() {
    for (const auto& [n, parts] : std::vector<std::pair<std::size_t, std::size_t>>{
             {57, 16}, {57, 4}, {3, 8}, {1000, 7}, {0, 4}, {10, 1}}) {
        for (int call = 0; call < 3; ++call) {
            std::vector<std::atomic<int>> seen(n);
            std::atomic<std::size_t> pieces{0};
            parallelRanges(n, parts, [&](std::size_t b0, std::size_t b1) {
                ++pieces;
                for (std::size_t i = b0; i < b1; ++i)
                    ++seen[i];
            });
            for (std::size_t i = 0; i < n; ++i)
                QCOMPARE(seen[i].load(), 1);
            QCOMPARE(pieces.load(), std::min(parts, std::max<std::size_t>(n, 1)));
        }
    }
    EXPECT_ERROR(UsageError,
                 parallelRanges(8, 4,
                                [](std::size_t b0, std::size_t) {
                                    if (b0 >= 4) throw UsageError("piece failed");
                                }),
                 "piece failed");
    std::atomic<std::size_t> after{0};
    parallelRanges(8, 4, [&](std::size_t b0, std::size_t b1) { after += b1 - b0; });
    QCOMPARE(after.load(), std::size_t(8));
}

// Bins for a split by bands of rows (13 rows): 2 in every row, 3 only in rows 0-2, 5 only in
// rows 10-12, 7 in rows 5-8 (across the band boundaries of two and three parts), 0 elsewhere.
LabelMask bandedLabels(std::size_t h, std::size_t w) {
    LabelMask m{h, w, std::vector<std::int32_t>(h * w)};
    for (std::size_t y = 0; y < h; ++y)
        for (std::size_t x = 0; x < w; ++x)
            m.labels[y * w + x] = x < 2                        ? 2
                                  : y <= 2 && x < 5            ? 3
                                  : y >= 10 && x >= 3          ? 5
                                  : y >= 5 && y <= 8 && x >= 2 ? 7
                                                               : 0;
    return m;
}

void TstXpcsMultitau::splitByPixels_data() {
    QTest::addColumn<Array>("frames");
    QTest::addColumn<QString>("devices");
    QTest::addColumn<QString>("normalisation");
    QTest::newRow("uint8, two parts, frame")
        << randomFrames<std::uint8_t>(150, 13, 6, 0, 255, 21) << "ocl:0,ocl:0"
        << "frame";
    QTest::newRow("uint8, three parts, symmetric")
        << randomFrames<std::uint8_t>(150, 13, 6, 0, 255, 22) << "ocl:0,ocl:0,ocl:0"
        << "symmetric";
    QTest::newRow("uint16, two parts, symmetric")
        << randomFrames<std::uint16_t>(131, 13, 6, 0, 3000, 23) << "ocl:0,ocl:0"
        << "symmetric";
    QTest::newRow("uint16, three parts, frame")
        << randomFrames<std::uint16_t>(131, 13, 6, 0, 65535, 24) << "ocl:0,ocl:0,ocl:0"
        << "frame";
    QTest::newRow("uint8, two parts, frame, in pinned memory")
        << randomFrames<std::uint8_t>(150, 13, 6, 0, 255, 26) << "ocl:0,ocl:0"
        << "frame";
    QTest::newRow("uint32 (128-bit sums), two parts, frame")
        << randomFrames<std::uint32_t>(70, 13, 6, 0xF0000000L, 0xFFFFFFFFL, 25) << "ocl:0,ocl:0"
        << "frame";
}

// Multi-tau split by pixels (bands of rows, one a device, their sums merged before the fold)
// gives the one device's result bit for bit, and the host reference's: a part whose sums were
// dropped would change every bin it holds pixels of.
void TstXpcsMultitau::splitByPixels() {
    QFETCH(Array, frames);
    QFETCH(QString, devices);
    QFETCH(QString, normalisation);
    if (openclDevices().empty()) QSKIP("no OpenCL device");
    const Algorithm& xpcs = AlgorithmRegistry::instance().find("xpcs");
    ParamSet p = xpcs.defaultParams();
    p.set("multitau", true), p.set("channels", 4), p.set("twotime", {2, 5});
    p.set("g2_normalisation", normalisation.toStdString());
    const auto devs = resolveDevices(devices.toStdString());
    // in pinned memory (as a GPU's runs hold frames): each band goes up by one rectangular DMA
    const bool pinned = QByteArray(QTest::currentDataTag()).endsWith("in pinned memory");
    std::optional<HostAllocatorScope> scope;
    if (pinned) scope.emplace(pinnedAllocator(devs.front()), frames.byteSize());
    Array held(frames.dtype(), {frames.frameCount(), frames.height(), frames.width()});
    std::copy_n(frames.bytes(), frames.byteSize(), held.bytes());
    scope.reset();
    auto in = xpcs::makeInput(std::move(held), bandedLabels(frames.height(), frames.width()));
    RunRequest r{devs.front(), "multitau", in, p, {{"MT_FRAMES", 16}}, {}, SplitRule::Always};
    const auto one = runAlgorithm(xpcs, r);
    const auto several = runOnDevices(xpcs, r, devs);
    QCOMPARE(several->info.device, devices.toStdString());
    const auto& a = dynamic_cast<const xpcs::XpcsResult&>(*several).result;
    const auto& b = dynamic_cast<const xpcs::XpcsResult&>(*one).result;
    QCOMPARE(a.labels, (std::vector<std::int32_t>{2, 3, 5, 7}));
    QCOMPARE(a.labels, b.labels);
    QCOMPARE(a.pixels, b.pixels);
    QCOMPARE(a.lagFrames, b.lagFrames);
    expectClose("g2", a.g2, b.g2, 0.0);
    expectClose("g2_err", a.g2Err, b.g2Err, 0.0);
    QCOMPARE(a.twotime, b.twotime);
    QCOMPARE(a.twotime.size(), std::size_t{2});
    QVERIFY(xpcs.compare(*several, *one).pass);
    // every part's uploads ran (its own timings, named by its device)
    const std::size_t parts = std::size_t(devices.count(',') + 1);
    std::size_t uploads = 0;
    for (const TimingRecord& t : several->info.timings)
        uploads += t.label.find("set-up (host wall") != std::string::npos;
    QCOMPARE(uploads, parts);
    bool inPlace = false;
    for (const TimingRecord& t : several->info.timings)
        inPlace |= t.label.find("upload from pinned memory (host, queued)") != std::string::npos;
    QCOMPARE(inPlace, pinned);
    // a part that cannot run (the OpenCL variant on the host) stops the others, which would
    // wait for its sums: the run fails with its error, nothing hangs
    if (devices == "ocl:0,ocl:0") {
        bool threw = false;
        try {
            runOnDevices(xpcs, r, resolveDevices("ocl:0,cpu"));
        } catch (const std::exception&) {
            threw = true;
        }
        QVERIFY(threw);
    }
    // and the host reference agrees: no part's sums lost (symmetric: the host variant's g2 rounds
    // in its own order and its g2_err comes from the per-pixel sums)
    RunRequest cpu = r;
    cpu.device = hostDevice(), cpu.variant = "cpu", cpu.tuning = {};
    const auto onHost = runAlgorithm(xpcs, cpu);
    const auto& c = dynamic_cast<const xpcs::XpcsResult&>(*onHost).result;
    if (normalisation == "frame") {
        expectClose("g2 vs cpu", a.g2, c.g2, 0.0);
        expectClose("g2_err vs cpu", a.g2Err, c.g2Err, 0.0);
    } else {
        expectClose("g2 vs cpu", a.g2, c.g2, 1e-12);
    }
}

// The merge of a split's parts: two parts' block sums added (128-bit with the carry; products
// large enough to be added on several threads) give the statistics of their sum given by one
// part; a part's failure reaches the others; a block a part never gave is an error, not a hang.
void TstXpcsMultitau::mergeAddsPartsExactly() {
    LabelMask mask{1, 4, {1, 1, 2, 2}};
    const xpcs::Bins bins = xpcs::makeBins(mask);
    xpcs::Params p;
    p.multitau = true, p.channels = 4;
    const std::size_t rows = 40000, lags = std::size_t(xpcs::multitauLagCount(0, 4)),
                      nb = bins.count();
    for (const bool wide : {false, true}) {
        const std::size_t words = wide ? 2 : 1;
        std::mt19937_64 rng(wide ? 7 : 8);
        auto values = [&](std::size_t n) {
            std::vector<std::int64_t> v(n * words);
            for (std::size_t i = 0; i < n; ++i) { // wide: signed (lo, hi) pairs, carries
                const auto x = std::int64_t(rng() % 200000) - (wide ? 100000 : 0);
                v[i * words] = x;
                if (wide) v[i * words + 1] = x < 0 ? -1 : 0;
            }
            return v;
        };
        auto sums = values(rows * nb), products = values(rows * nb * lags);
        auto sums2 = values(rows * nb), products2 = values(rows * nb * lags);
        // a copy, held by the block: a split's merge adds the parts into one of them
        auto block = [&](const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& pr) {
            using Words = std::vector<std::int64_t>;
            auto held = std::make_shared<std::pair<Words, Words>>(s, pr);
            xpcs::BlockSums b;
            b.rows = {{0, 0, rows, 0, 0}}, b.rowCount = rows;
            b.sumWords = s.size(), b.productWords = pr.size();
            b.sums = held->first.data(), b.products = held->second.data(), b.holder = held;
            return b;
        };
        xpcs::MultitauMerge two(bins, 4, 2);
        std::thread other([&] { two.add(block(sums2, products2), wide), two.partDone(); });
        two.add(block(sums, products), wide), two.partDone();
        other.join();
        // the sum by hand, carried
        for (std::vector<std::int64_t>* v : {&sums, &products}) {
            const auto& add = v == &sums ? sums2 : products2;
            for (std::size_t i = 0; i < v->size(); i += words) {
                const auto lo = std::uint64_t((*v)[i]) + std::uint64_t(add[i]);
                if (wide) (*v)[i + 1] += add[i + 1] + (lo < std::uint64_t((*v)[i]) ? 1 : 0);
                (*v)[i] = std::int64_t(lo);
            }
        }
        xpcs::MultitauMerge one(bins, 4, 1);
        one.add(block(sums, products), wide), one.partDone();
        const xpcs::Result a = two.finish(rows, p), b = one.finish(rows, p);
        expectClose("g2", a.g2, b.g2, 0.0);
        expectClose("g2_err", a.g2Err, b.g2Err, 0.0);
    }
    xpcs::MultitauMerge failing(bins, 4, 2);
    failing.partDone();
    failing.fail(std::make_exception_ptr(InputError("part 1 failed")));
    QVERIFY_THROWS_EXCEPTION(InputError, failing.finish(1, p));
    // a block only one part gave, both parts done: the fold thread says so, nothing hangs
    std::vector<std::int64_t> s(nb), pr(nb * lags);
    xpcs::BlockSums lone;
    lone.rows = {{0, 0, 1, 0, 0}}, lone.rowCount = 1;
    lone.sumWords = s.size(), lone.productWords = pr.size();
    lone.sums = s.data(), lone.products = pr.data();
    xpcs::MultitauMerge short1(bins, 4, 2);
    short1.add(lone, false), short1.partDone(), short1.partDone();
    QVERIFY_THROWS_EXCEPTION(std::logic_error, short1.finish(1, p));
}

// The live rule over frames in memory (the GUI's live g2): one labelled pixel in 4,096 non-zero
// takes sparse; the same at 4·10⁹ counts would pass the sparse rings' 64-bit products binned
// over the frames (dense, said why); float frames stay dense.
void TstXpcsMultitau::liveChoiceOfFrames() {
    const LabelMask mask = labelsOf(64, 64, {1, 2});
    Array a(DType::UInt32, {4, 64, 64});
    auto* v = reinterpret_cast<std::uint32_t*>(a.bytes());
    for (std::size_t f = 0; f < 4; ++f)
        v[f * 4096 + 7 * f] = 1;
    xpcs::LiveChoice c = xpcs::liveChoiceOf(a, mask);
    QVERIFY2(c.sparse, c.note.c_str());
    QVERIFY2(c.note.find("variant sparse: 0.0244 % of the labelled pixels non-zero in the 4 "
                         "frames received, below the crossover 1 %") != std::string::npos,
             c.note.c_str());
    v[0] = 4000000000u;
    c = xpcs::liveChoiceOf(a, mask);
    QVERIFY2(!c.sparse && c.note.find("but frames of 4000000000 counts binned over 4 frames") !=
                              std::string::npos,
             c.note.c_str());
    QVERIFY(!xpcs::liveChoiceOf(Array(DType::Float32, {4, 64, 64}), mask).sparse);
}

// The sparse rings' block: 1,024 frames of 512×1024 on an 80 GB device (its rings' 3 GiB bound),
// 2,048 where the frames are sparser than the rule's occupancy and the device allows the wider
// ring (4.3 GB), the same where occupancy is not known, higher, or the device's largest buffer too
// small, or the run too short.
void TstXpcsMultitau::sparseBlocksWiderBelowTheOccupancyRule() {
    DeviceInfo d;
    d.globalMemBytes = std::uint64_t(80) << 30, d.maxAllocBytes = std::uint64_t(20) << 30;
    const std::size_t positions = 512 * 1024, frames = 65536;
    const auto block = [&](double occupancy, std::size_t n = 65536) {
        return xpcs::SparseRings::blockFor(positions, n, 16, d, {}, occupancy);
    };
    QCOMPARE(block(-1), std::size_t(1024));
    QCOMPARE(block(0.001), std::size_t(2048));
    QCOMPARE(block(xpcs::SparseRings::sparseWideBlocks), std::size_t(1024));
    QCOMPARE(block(0.01), std::size_t(1024));
    QCOMPARE(block(0.001, 1500), std::size_t(2048));
    QCOMPARE(block(0.001, 1024), std::size_t(1024));
    QCOMPARE(xpcs::SparseRings::blockFor(positions, frames, 16, d, {{"MT_FRAMES", 512}}, 0.001),
             std::size_t(512));
    d.maxAllocBytes = std::uint64_t(4) << 30;
    QCOMPARE(block(0.001), std::size_t(1024));
    // The pair levels: below the first level whose binned rows hold more than 40 % of the
    // positions (2^k > ln 0.6 / ln(1 - occupancy)); none where that is level 1, or unknown.
    // Not where a position holds more than 32 entries a block.
    QCOMPARE(xpcs::SparseRings::pairLevelsFor(0.001, 2048), 9); // 2^9 > 510.6
    QCOMPARE(xpcs::SparseRings::pairLevelsFor(0.003, 1024), 8); // 2^8 > 170.0
    QCOMPARE(xpcs::SparseRings::pairLevelsFor(0.01, 1024), 6);  // 2^6 > 50.8
    QCOMPARE(xpcs::SparseRings::pairLevelsFor(0.01, 4096), 0);  // 41 entries a position
    QCOMPARE(xpcs::SparseRings::pairLevelsFor(0.0947, 4096), 0);
    QCOMPARE(xpcs::SparseRings::pairLevelsFor(0.3, 16), 0);
    QCOMPARE(xpcs::SparseRings::pairLevelsFor(-1, 1024), 0);
}

// Sparse frames that lie in memory (a pool of 40 frames cycling over 200, as the bench's):
// `sparse` stages their entries from where they lie (FrameBlocks::viewSparse: no read into a
// block of its own) and gives the cpu's g2 and g2_err bit for bit, in blocks of 16 frames, by
// the rings alone and with the pair levels below level 2; pixels listed twice in a frame add.
void TstXpcsMultitau::sparseEntriesStagedWhereTheyLie() {
    if (openclDevices().empty()) QSKIP("no OpenCL device");
    auto pool = std::make_shared<SparseBlock>();
    pool->where = "test pool";
    std::mt19937 rng(3);
    for (int f = 0; f < 40; ++f) {
        for (int i = 0; i < 12; ++i) {
            pool->pixel.push_back(std::int32_t(rng() % (24 * 32)));
            pool->count.push_back(1 + rng() % 3);
        }
        pool->pixel.push_back(pool->pixel.back()); // the last pixel listed twice
        pool->count.push_back(2);
        pool->ptr.push_back(std::int64_t(pool->pixel.size()));
    }
    const auto frames = xpcs::blocksSparseRepeating(pool, 24, 32, DType::UInt16, 200);
    SparseView view;
    QVERIFY(frames->viewSparse(45, 10, view));
    QCOMPARE(view.pixel[0], pool->pixel.data() + pool->ptr[5]);
    const LabelMask mask = labelsOf(24, 32, {0, 2, 3, 9});
    xpcs::Params p;
    p.multitau = true, p.channels = 8, p.tuning["MT_FRAMES"] = 16;
    const xpcs::Result cpu = xpcs::correlateMultitauCpu(*frames, mask, p);
    for (const int pairs : {0, 2}) {
        p.tuning["SP_PAIRS"] = pairs;
        const xpcs::Result gpu =
            xpcs::correlateMultitauSparse(openclDevices().front(), *frames, mask, p, {}, {});
        QCOMPARE(gpu.lagFrames, cpu.lagFrames);
        expectClose("g2", gpu.g2, cpu.g2, 0.0);
        expectClose("g2_err", gpu.g2Err, cpu.g2Err, 0.0);
        QCOMPARE(gpu.entries, std::uint64_t(200 / 40 * pool->entries()));
    }
}

#include "tst_xpcs_multitau.moc"
