// xpcs on real-detector values: the pixel mask (EIGER sentinels excluded), exact sums for
// every value of every dtype (2^32-1, -2^31, constant frames) on every variant (value planes
// where 64-bit sums would wrap), and the GPU kernels forced for every dtype.
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/xpcs/frames_read.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"
#include "typed_runs.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <random>

using namespace clscope;

namespace {

constexpr std::uint32_t sentinel = 4294967295u; // EIGER's 2^32 - 1 in dead pixels

template <class T>
Array randomFrames(std::size_t t, std::size_t h, std::size_t w, std::int64_t lo, std::int64_t hi,
                   unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> dist(lo, hi);
    std::vector<T> v(t * h * w);
    for (T& x : v)
        x = static_cast<T>(dist(rng));
    return makeArray<T>({t, h, w}, v);
}

LabelMask stripes(std::size_t h, std::size_t w, int bins) {
    LabelMask m{h, w, std::vector<std::int32_t>(h * w)};
    for (std::size_t i = 0; i < m.labels.size(); ++i)
        m.labels[i] = static_cast<std::int32_t>(i % w) % (bins + 1); // column 0: excluded
    return m;
}

// g2 and g2_err of DESIGN.md §5 straight from the definition in long double (independent of
// the library's blocked Gram matrices and 128-bit sums).
template <class T>
void definitionG2(const Array& frames, const LabelMask& mask, std::int32_t label,
                  std::vector<long double>& g2, std::vector<long double>& err) {
    const auto v = frames.as<T>();
    const std::size_t frameCount = frames.frameCount(), size = frames.frameSize();
    std::vector<std::size_t> px;
    for (std::size_t i = 0; i < size; ++i)
        if (mask.labels[i] == label) px.push_back(i);
    const long double n = static_cast<long double>(px.size());
    auto at = [&](std::size_t t, std::size_t p) {
        return static_cast<long double>(v[t * size + p]);
    };
    g2.assign(frameCount, 0), err.assign(frameCount, 0);
    for (std::size_t lag = 0; lag < frameCount; ++lag) {
        long double num = 0, den = 0;
        std::vector<long double> r;
        for (std::size_t t = lag; t < frameCount; ++t) {
            long double nt = 0, s = 0, s2 = 0;
            for (std::size_t p : px)
                nt += at(t, p) * at(t - lag, p), s += at(t, p), s2 += at(t - lag, p);
            num += nt, den += s * s2 / (n * n);
            if (s * s2 != 0) r.push_back(n * nt / (s * s2));
        }
        long double mean = 0, sq = 0;
        for (long double x : r)
            mean += x / r.size();
        for (long double x : r)
            sq += (x - mean) * (x - mean);
        g2[lag] = num / (n * den);
        err[lag] = std::sqrt(sq / r.size()) / std::sqrt(static_cast<long double>(r.size()));
    }
}

template <class T> void checkAgainstDefinition(const Array& frames, const LabelMask& mask) {
    const xpcs::Result r = xpcs::correlateCpu(frames, mask, {});
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        std::vector<long double> g2, err;
        definitionG2<T>(frames, mask, r.labels[b], g2, err);
        for (std::size_t t = 0; t < r.frames; ++t) {
            QVERIFY2(std::abs(r.g2At(b, t) - g2[t]) <= 1e-13 * std::abs(g2[t]),
                     qPrintable(QString("bin %1 lag %2: %3 vs %4")
                                    .arg(b)
                                    .arg(t)
                                    .arg(r.g2At(b, t), 0, 'g', 17)
                                    .arg(double(g2[t]), 0, 'g', 17)));
            QVERIFY(std::abs(r.g2ErrAt(b, t) - err[t]) <= 1e-9 * std::abs(g2[t]));
        }
    }
}

DeviceInfo openclDevice() {
    const auto& devices = openclDevices();
    return devices.empty() ? hostDevice() : devices.front();
}

// The OpenCL variants and the GPU kernels (XPCS_CPU 0) of gemm, each as (variant, tuning).
std::vector<std::pair<std::string, std::map<std::string, int>>> deviceRuns() {
    return {{"naive", {}}, {"ordered", {}}, {"gemm", {}}, {"gemm", {{"XPCS_CPU", 0}}}};
}

int cli(const QStringList& args, QString* out = nullptr, QString* err = nullptr) {
    QProcess p;
    p.start(qEnvironmentVariable("CLSCOPE_CLI"), args);
    if (!p.waitForFinished(120000)) return -1;
    if (out) *out = QString::fromUtf8(p.readAllStandardOutput());
    if (err) *err = QString::fromUtf8(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

} // namespace

class TestXpcsExact : public QObject {
    Q_OBJECT
  private slots:
    void referenceMatchesDefinitionAtExtremes();
    void constantFramesGiveOne();
    void deviceVariantsExactBeyond53Bits();
    void deviceVariantsExactNear2To32();
    void gpuKernelsEveryDtype();
    void pixelMaskExcludesSentinels();
    void parallelReadMatchesPlainRead();
};

// uint32 at 2^32-2 and 2^32-1, int32 down to -2^31: the cpu reference against the definition.
void TestXpcsExact::referenceMatchesDefinitionAtExtremes() {
    Array u = randomFrames<std::uint32_t>(9, 4, 5, 4294967294ll, 4294967295ll, 1);
    checkAgainstDefinition<std::uint32_t>(u, stripes(4, 5, 2));
    Array mixed = randomFrames<std::uint32_t>(7, 3, 6, 0, 4294967295ll, 2);
    checkAgainstDefinition<std::uint32_t>(mixed, stripes(3, 6, 3));
    Array s = randomFrames<std::int32_t>(8, 4, 4, -2147483648ll, 2147483647ll, 3);
    s.as<std::int32_t>()[5] = INT32_MIN;
    checkAgainstDefinition<std::int32_t>(s, stripes(4, 4, 2));
    checkAgainstDefinition<std::uint16_t>(randomFrames<std::uint16_t>(6, 3, 5, 65530, 65535, 4),
                                          stripes(3, 5, 2));
}

// Constant frames: g2 exactly 1 and g2_err exactly 0 at every lag, every dtype and variant.
void TestXpcsExact::constantFramesGiveOne() {
    const LabelMask mask = stripes(5, 6, 3);
    std::vector<Array> stacks{
        makeArray<std::uint32_t>({7, 5, 6}, std::vector<std::uint32_t>(210, sentinel)),
        makeArray<std::int32_t>({7, 5, 6}, std::vector<std::int32_t>(210, INT32_MIN)),
        makeArray<std::uint16_t>({7, 5, 6}, std::vector<std::uint16_t>(210, 65535)),
        makeArray<std::uint8_t>({7, 5, 6}, std::vector<std::uint8_t>(210, 255)),
        makeArray<std::uint32_t>({7, 5, 6}, std::vector<std::uint32_t>(210, 77777))};
    for (std::size_t i = 0; i < stacks.size(); ++i) {
        const Array& frames = stacks[i];
        std::vector<xpcs::Result> results{xpcs::correlateCpu(frames, mask, {})};
        for (const auto& [variant, tuning] : deviceRuns()) { // the first two: value planes
            xpcs::Params p;
            p.tuning = tuning;
            results.push_back(test::runXpcs(openclDevice(), variant, frames, mask, p));
        }
        for (const xpcs::Result& r : results)
            for (std::size_t k = 0; k < r.g2.size(); ++k) {
                QVERIFY2(r.g2[k] == 1.0, qPrintable(QString::fromStdString(
                                             r.variant + " " + dtypeName(frames.dtype()))));
                QCOMPARE(r.g2Err[k], 0.0);
            }
    }
}

// Sums above 2^53 (uint32 near 2^26 over many pixels) but below 2^63: every OpenCL variant
// gives the cpu's g2 bit for bit (exact 128-bit numerator and denominator on both).
void TestXpcsExact::deviceVariantsExactBeyond53Bits() {
    const Array frames = randomFrames<std::uint32_t>(19, 9, 11, 60000000, 67108863, 5);
    const LabelMask mask = stripes(9, 11, 3);
    const xpcs::Result ref = xpcs::correlateCpu(frames, mask, {});
    const Array signedFrames = randomFrames<std::int32_t>(13, 5, 7, -67108864, 67108863, 6);
    const xpcs::Result signedRef = xpcs::correlateCpu(signedFrames, stripes(5, 7, 2), {});
    for (const auto& [variant, tuning] : deviceRuns()) {
        xpcs::Params p;
        p.tuning = tuning;
        const xpcs::Result got = test::runXpcs(openclDevice(), variant, frames, mask, p);
        QCOMPARE(got.g2, ref.g2);
        for (std::size_t i = 0; i < ref.g2Err.size(); ++i)
            QVERIFY(std::abs(got.g2Err[i] - ref.g2Err[i]) <= 1e-9 * std::abs(ref.g2[i]));
        const xpcs::Result s =
            test::runXpcs(openclDevice(), variant, signedFrames, stripes(5, 7, 2), p);
        QCOMPARE(s.g2, signedRef.g2);
    }
}

// Whether a run went through value planes (the 128-bit Gram path of the OpenCL variants).
bool ranOnPlanes(const xpcs::Result& r) {
    for (const TimingRecord& t : r.timings.records())
        if (t.label == "xpcs value planes, exact 128-bit Gram (host)") return true;
    return false;
}

// uint32 near 2^32-1 (EIGER's sentinel included), whose 64-bit sums would wrap: every OpenCL
// variant, dense (through value planes) and multi-tau, gives the cpu's g2 bit for bit, the
// two-time map too; the default variant is an OpenCL one. Small values keep the 64-bit path.
void TestXpcsExact::deviceVariantsExactNear2To32() {
    Array frames = randomFrames<std::uint32_t>(6, 3, 4, 4294000000ll, 4294967295ll, 7);
    frames.as<std::uint32_t>()[6] = sentinel;
    const LabelMask mask = stripes(3, 4, 2);
    const Algorithm& algorithm = AlgorithmRegistry::instance().find("xpcs");
    const auto input = xpcs::makeInput(frames, mask);
    const DeviceInfo device = openclDevice();
    xpcs::Params p;
    p.twotimeLabels = {2};
    const xpcs::Result ref = xpcs::correlateCpu(frames, mask, p);
    auto runs = deviceRuns();
    runs.push_back({"mma", {}}); // uint32: gemm's kernels
    for (const auto& [variant, tuning] : runs) {
        QVERIFY(algorithm.supports(algorithm.variant(variant), device, input.get(), nullptr).ok);
        p.tuning = tuning;
        const xpcs::Result got = test::runXpcs(device, variant, frames, mask, p);
        QVERIFY2(got.g2 == ref.g2, variant.c_str());
        QVERIFY2(got.g2Err == ref.g2Err, variant.c_str()); // the cpu's own statistics
        QVERIFY2(got.twotime == ref.twotime, variant.c_str());
        QVERIFY(ranOnPlanes(got));
    }
    QVERIFY(algorithm.defaultVariant(device, input.get(), nullptr) != "cpu");
    xpcs::Params multitau;
    multitau.multitau = true, multitau.channels = 4;
    QCOMPARE(test::runXpcs(device, "multitau", frames, mask, multitau).g2,
             test::runXpcs(hostDevice(), "cpu", frames, mask, multitau).g2);
    // int32 down to -2^31: signed planes.
    const Array low = randomFrames<std::int32_t>(5, 3, 4, -2147483648ll, -2147000000ll, 8);
    const xpcs::Result signedGot = test::runXpcs(device, "gemm", low, mask);
    QVERIFY(ranOnPlanes(signedGot));
    QCOMPARE(signedGot.g2, xpcs::correlateCpu(low, mask, {}).g2);
    // The same frames below 2^27: the 64-bit path, unchanged.
    for (std::uint32_t& v : frames.as<std::uint32_t>())
        v >>= 5;
    const xpcs::Result small = test::runXpcs(device, "gemm", frames, mask);
    QVERIFY(!ranOnPlanes(small));
    QCOMPARE(small.g2, xpcs::correlateCpu(frames, mask, {}).g2);
}

// The GPU code paths (XPCS_CPU 0) of every variant for uint16, uint32, int32 and float32,
// one and two frames included, against the cpu reference.
void TestXpcsExact::gpuKernelsEveryDtype() {
    const LabelMask mask = stripes(7, 9, 3);
    std::vector<Array> stacks{randomFrames<std::uint16_t>(21, 7, 9, 0, 65535, 8),
                              randomFrames<std::uint32_t>(17, 7, 9, 0, 1 << 24, 9),
                              randomFrames<std::int32_t>(15, 7, 9, -100000, 100000, 10),
                              randomFrames<std::uint16_t>(1, 7, 9, 0, 65535, 11),
                              randomFrames<std::uint8_t>(2, 7, 9, 0, 255, 12)};
    std::vector<float> f(13 * 63);
    std::mt19937 rng(13);
    for (float& x : f)
        x = std::uniform_real_distribution<float>(0, 50)(rng);
    stacks.push_back(makeArray<float>({13, 7, 9}, f));
    for (const Array& frames : stacks) {
        const xpcs::Result ref = xpcs::correlateCpu(frames, mask, {});
        const bool exact = frames.dtype() != DType::Float32;
        for (const char* variant : {"naive", "ordered", "gemm"}) {
            xpcs::Params p;
            p.tuning = {{"XPCS_CPU", 0}, {"ORDERED_WG", 64}};
            const xpcs::Result got = test::runXpcs(openclDevice(), variant, frames, mask, p);
            for (std::size_t i = 0; i < ref.g2.size(); ++i) {
                const double a = got.g2[i], b = ref.g2[i];
                QVERIFY2((std::isnan(a) && std::isnan(b)) ||
                             (exact ? a == b : std::abs(a - b) <= 1e-6 * std::abs(b)),
                         qPrintable(QString("%1 %2 at %3: %4 vs %5")
                                        .arg(variant)
                                        .arg(QString::fromStdString(dtypeName(frames.dtype())))
                                        .arg(i)
                                        .arg(a, 0, 'g', 17)
                                        .arg(b, 0, 'g', 17)));
            }
        }
    }
}

// An EIGER-like file: uint32 frames, 2^32-1 in the pixel mask's dead pixels inside bins.
void TestXpcsExact::pixelMaskExcludesSentinels() {
    QTemporaryDir dir;
    const QString in = dir.filePath("eiger.h5"), out = dir.filePath("out.h5");
    Array frames = randomFrames<std::uint32_t>(8, 6, 7, 0, 50, 14);
    LabelMask labels = stripes(6, 7, 3);
    PixelMask bad{6, 7, std::vector<std::uint8_t>(42, 0)};
    for (std::size_t p : {3u, 9u, 10u, 29u, 35u}) { // 35: column 0, not labelled
        bad.bad[p] = 1;
        for (std::size_t t = 0; t < 8; ++t)
            frames.as<std::uint32_t>()[t * 42 + p] = sentinel;
    }
    {
        H5Writer w(in.toStdString());
        w.write(paths::frames, frames);
        w.write(paths::qmask, labelsArray(labels));
        w.write(paths::pixelMask, pixelMaskArray(bad));
        w.commit();
    }
    LabelMask used = labels;
    xpcs::applyPixelMask(used, bad);
    const xpcs::Result want = xpcs::correlateCpu(frames, used, {});
    QString stdOut, stdErr;
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "-o", out}, &stdOut), 0);
    QVERIFY2(stdOut.contains("4 labelled pixels excluded by the pixel mask"), qPrintable(stdOut));
    const H5Reader file(out.toStdString());
    const xpcs::Result got = xpcs::readResult(file);
    QCOMPARE(got.g2, want.g2);
    QCOMPARE(got.pixels, want.pixels);
    QCOMPARE(std::stod(file.stringAttribute("/xpcs", "excluded_pixels").value_or("-1")), 4.0);
    // --no-pixel-mask: the sentinels enter, exact on cpu and on the OpenCL variants.
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--no-pixel-mask", "-o", out}, &stdOut), 0);
    QVERIFY(stdOut.contains(" 0 labelled pixels excluded"));
    const xpcs::Result all = xpcs::readResult(H5Reader(out.toStdString()));
    QCOMPARE(all.g2, xpcs::correlateCpu(frames, labels, {}).g2);
    QVERIFY(all.g2 != want.g2);
    if (!openclDevices().empty()) {
        QCOMPARE(cli({"correlate", in, "--device", "ocl:0", "--variant", "gemm", "--no-pixel-mask",
                      "-o", out}),
                 0);
        QCOMPARE(xpcs::readResult(H5Reader(out.toStdString())).g2, all.g2);
        QCOMPARE(cli({"correlate", in, "--device", "ocl:0", "-o", out}), 0);
        QCOMPARE(xpcs::readResult(H5Reader(out.toStdString())).g2, want.g2);
    }
    // --pixel-mask FILE:PATH chooses another mask; one of the wrong shape is bad input.
    const QString other = dir.filePath("mask.h5");
    {
        H5Writer w(other.toStdString());
        w.write("/masks/dead", pixelMaskArray(bad));
        w.write("/masks/small", pixelMaskArray(PixelMask{5, 7, std::vector<std::uint8_t>(35, 0)}));
        w.commit();
    }
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--pixel-mask", other + ":/masks/dead", "-o",
                  out}),
             0);
    QCOMPARE(xpcs::readResult(H5Reader(out.toStdString())).g2, want.g2);
    QFile::remove(out);
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--pixel-mask", other + ":/masks/small", "-o",
                  out},
                 nullptr, &stdErr),
             3);
    QVERIFY2(stdErr.contains("/masks/small") && stdErr.contains("pixel mask"), qPrintable(stdErr));
    QVERIFY(!QFile::exists(out));
}

// Frames read through raw chunks decoded on threads: byte-identical to readFrames for gzip
// with and without shuffle and bitshuffle-LZ4 (every dtype), uncompressed and h5py's files.
void TestXpcsExact::parallelReadMatchesPlainRead() {
    QTemporaryDir dir;
    std::vector<std::string> files;
    const std::vector<Array> stacks{randomFrames<std::uint16_t>(9, 5, 7, 0, 65535, 15),
                                    randomFrames<std::uint8_t>(4, 3, 5, 0, 255, 16),
                                    randomFrames<std::int32_t>(3, 4, 4, INT32_MIN, INT32_MAX, 17),
                                    randomFrames<std::uint32_t>(5, 2, 9, 0, 4294967295ll, 18)};
    for (std::size_t i = 0; i < stacks.size(); ++i)
        for (Compression c : {Compression::Gzip, Compression::None, Compression::Bitshuffle}) {
            const std::string name =
                dir.filePath(QString("f%1_%2.h5").arg(i).arg(int(c))).toStdString();
            try {
                H5Writer w(name);
                w.write(paths::frames, stacks[i], c);
                w.commit();
                files.push_back(name);
            } catch (const InputError&) {
                QVERIFY(c == Compression::Bitshuffle); // only its plugin may be missing
            }
        }
    const std::string data = qEnvironmentVariable("CLSCOPE_TEST_DATA").toStdString();
    for (const char* name : {"h5py_frames.h5", "h5py_bslz4.h5", "xpcs_small.h5", "eiger_master.h5"})
        files.push_back(data + "/" + name);
    for (const std::string& f : files) {
        const H5Reader in(f);
        if (!in.hasObject(paths::frames) && f.find("eiger") == std::string::npos) continue;
        Array plain;
        try {
            plain = readFrames(in, paths::frames);
        } catch (const InputError&) {
            continue; // e.g. bslz4 without its plugin: nothing to compare
        }
        for (unsigned threads : {1u, 3u}) {
            const Array fast = xpcs::readFramesParallel(in, f, paths::frames, threads);
            QCOMPARE(fast.shape(), plain.shape());
            QCOMPARE(fast.dtype(), plain.dtype());
            QVERIFY2(std::memcmp(fast.bytes(), plain.bytes(), plain.byteSize()) == 0, f.c_str());
        }
    }
}

QTEST_GUILESS_MAIN(TestXpcsExact)
#include "tst_xpcs_exact.moc"
