// Sparse frames and event lists (DESIGN.md §3 "Sparse frames", §5 "Sparse correlation";
// docs/SPARSE.md): files written by h5py (tests/sparse_files.py) read as the dense stack they
// hold, wherever a stack is read; correlate gives the dense file's g2 bit for bit; convert
// round-trips; events bin at the edges the contract says; every defect is refused naming its
// dataset; a long series runs in bounded memory.
#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/io.hpp"
#include "core/sparse/csr_frames.hpp"
#include "core/xpcs/pixel_major.hpp"
#include "test_util.hpp"

#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cstring>
#include <random>
#include <tuple>

using namespace clscope;

namespace {

const QString script = CLSCOPE_SPARSE_FILES;

bool sameArrays(const Array& a, const Array& b) {
    return a.dtype() == b.dtype() && a.shape() == b.shape() &&
           std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0;
}

Array readAt(const QString& file, const std::string& path) {
    return H5Reader(file.toStdString()).read(path);
}

// The datasets under `group`, recursively, with their attributes ("" where a and b agree, else
// the first path that differs): two runs' results whole (the group's own attributes, which
// say who ran them and on which file, left out).
QString firstDifference(const H5Reader& a, const H5Reader& b, const std::string& group) {
    const std::vector<H5Node> mine = a.children(group), theirs = b.children(group);
    if (mine.size() != theirs.size()) return QString::fromStdString(group) + " (children)";
    for (std::size_t i = 0; i < mine.size(); ++i) {
        const H5Node &x = mine[i], &y = theirs[i];
        if (x.path != y.path || x.kind != y.kind) return QString::fromStdString(x.path);
        if (x.kind == H5Node::Group) {
            const QString d = firstDifference(a, b, x.path);
            if (!d.isEmpty()) return d;
        } else if (x.kind == H5Node::Dataset &&
                   (x.attributes != y.attributes || !sameArrays(a.read(x.path), b.read(y.path)))) {
            return QString::fromStdString(x.path);
        }
    }
    return {};
}

// Photon-like frames for pixelMajorOf: `frames` frames of about 400 entries each at random
// pixels of H x W, each frame's entries shuffled, a pixel listed twice or three times in a frame
// (a second entry for one in 8, random collisions besides), a quarter of the counts zero.
// CLSCOPE_MEMORY_LIMIT set for this process while it lives (the test's own reads).
struct MemoryLimit {
    explicit MemoryLimit(const char* bytes) { qputenv("CLSCOPE_MEMORY_LIMIT", bytes); }
    ~MemoryLimit() { qunsetenv("CLSCOPE_MEMORY_LIMIT"); }
    MemoryLimit(const MemoryLimit&) = delete;
    MemoryLimit& operator=(const MemoryLimit&) = delete;
};

std::shared_ptr<SparseBlock> shuffledFrames(std::size_t frames, std::size_t pixels) {
    auto pool = std::make_shared<SparseBlock>();
    pool->where = "test frames";
    std::mt19937 rng(11);
    for (std::size_t t = 0; t < frames; ++t) {
        std::vector<std::pair<std::int32_t, std::uint32_t>> e;
        for (int n = 0; n < 400; ++n) {
            const auto pixel = static_cast<std::int32_t>(rng() % pixels);
            e.push_back({pixel, rng() % 4});
            if (rng() % 8 == 0) e.push_back({pixel, rng() % 3});
        }
        std::shuffle(e.begin(), e.end(), rng);
        for (const auto& [pixel, count] : e)
            pool->pixel.push_back(pixel), pool->count.push_back(count);
        pool->ptr.push_back(static_cast<std::int64_t>(pool->pixel.size()));
    }
    return pool;
}

// The frames' labelled entries pixel-major as the rows give them frame by frame
// (SparseRows::row: a pixel's counts of a frame summed, zeros and unlabelled pixels left out).
xpcs::PixelMajor pixelMajorByRows(const xpcs::Bins& bins, const SparseBlock& frames,
                                  std::size_t pixels) {
    const xpcs::SparseRows rows(bins, pixels, DType::UInt16);
    std::vector<std::vector<std::pair<std::int32_t, std::uint32_t>>> at(bins.pixelIndex.size());
    std::vector<xpcs::SparseEntry> row;
    for (std::size_t t = 0; t < frames.frames(); ++t) {
        rows.row(frames, t, row);
        for (const xpcs::SparseEntry& e : row)
            at[std::size_t(e.position)].push_back(
                {std::int32_t(t), static_cast<std::uint32_t>(e.value)});
    }
    xpcs::PixelMajor m;
    m.first.push_back(0);
    for (const auto& entries : at) {
        for (const auto& [t, v] : entries)
            m.frame.push_back(t), m.count.push_back(v),
                m.largest = std::max<std::uint64_t>(m.largest, v);
        m.first.push_back(static_cast<std::int64_t>(m.frame.size()));
    }
    return m;
}

// "" where a and b hold the same entries, else what differs first.
template <class V> QString firstMismatch(const char* what, const V& a, const V& b) {
    if (a.size() != b.size())
        return QString("%1: %2 against %3 values").arg(what).arg(a.size()).arg(b.size());
    const auto d = std::mismatch(a.begin(), a.end(), b.begin());
    return d.first == a.end() ? QString()
                              : QString("%1[%2]: %3 against %4")
                                    .arg(what)
                                    .arg(d.first - a.begin())
                                    .arg(qint64(*d.first))
                                    .arg(qint64(*d.second));
}

} // namespace

class TstSparse : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString dense; // uint16 brownian frames with labels and a frame time

    QString path(const QString& name) const { return tmp.filePath(name); }
    // tests/sparse_files.py with args; QSKIP without h5py.
    bool python(const QStringList& args, QString& skip) {
        return test::runPython(QStringList{script} + args, skip);
    }
#define PYTHON(...)                                                                                \
    do {                                                                                           \
        QString skip_;                                                                             \
        QVERIFY(python(QStringList{__VA_ARGS__}, skip_));                                          \
        if (!skip_.isEmpty()) QSKIP(qPrintable(skip_));                                            \
    } while (0)
#define CLI_OK(...)                                                                                \
    do {                                                                                           \
        const test::CliRun r_ = test::runCli(QStringList{__VA_ARGS__});                            \
        QVERIFY2(r_.code == 0, qPrintable(r_.err));                                                \
    } while (0)

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        dense = path("dense.h5");
        CLI_OK("generate", "xpcs", "--frames", "48", "--height", "24", "--width", "28", "--dtype",
               "uint16", "--intensity", "2", "--frame-time", "0.001", "--seed", "3", "-o", dense);
    }

    // Both places of the shape attribute read as the dense stack, whole (readFrames) and a
    // window at a time (FrameStream, as the streamed and split runs read).
    void sparseReadsAsDense_data() {
        QTest::addColumn<QString>("where");
        QTest::newRow("shape on the group") << "group";
        QTest::newRow("shape on frame_ptr") << "frame_ptr";
    }
    void sparseReadsAsDense() {
        QFETCH(QString, where);
        const QString sparse = path("sparse_" + where + ".h5");
        PYTHON("sparse", dense, sparse, where);
        const Array want = readFrames(H5Reader(dense.toStdString()));
        QVERIFY(want.frameCount() == 48);
        const H5Reader in(sparse.toStdString());
        QVERIFY(sameArrays(readFrames(in), want));                       // default path absent
        QVERIFY(sameArrays(readFrames(in, "/entry/data/sparse"), want)); // --data the group
        FrameStream stream(sparse.toStdString(), paths::frames);
        QCOMPARE(stream.frameCount(), std::size_t{48});
        QCOMPARE(stream.dtype(), DType::UInt16);
        QVERIFY(stream.isStack());
        stream.window(5, 30);
        const Array window = stream.read(3, 10); // frames 8..17 of the stack
        QVERIFY(sameArrays(window, want.frameView(8, 10)));
        QCOMPARE(stream.framesWithin(10 * stream.frameBytes()), std::size_t{10});
    }

    // DESIGN.md §5 "Sparse correlation": the g2 of the densified stack, bit for bit, on the
    // host and on the OpenCL device (PoCL in CI), dense lags and multi-tau.
    void correlateSparseEqualsDense_data() {
        QTest::addColumn<QStringList>("options");
        for (const char* device : {"cpu", "ocl:0"}) {
            QTest::newRow(qPrintable(QString("dense ") + device))
                << QStringList{"--device", device};
            QTest::newRow(qPrintable(QString("multitau ") + device))
                << QStringList{"--device", device, "--multitau", "--channels", "4"};
        }
        QTest::newRow("dense cpu frames 5:30")
            << QStringList{"--device", "cpu", "--frames", "5:30"};
        QTest::newRow("twotime cpu") << QStringList{"--device", "cpu", "--twotime", "1"};
    }
    void correlateSparseEqualsDense() {
        QFETCH(QStringList, options);
        const QString sparse = path("sparse_corr.h5");
        if (!QFile::exists(sparse)) PYTHON("sparse", dense, sparse, "group");
        const QString tag = QString(QTest::currentDataTag()).replace(' ', '_').remove(':');
        const QString a = path(tag + "_dense_g2.h5"), b = path(tag + "_sparse_g2.h5");
        CLI_OK(QStringList{"correlate", dense, "-o", a} + options);
        CLI_OK(QStringList{"correlate", sparse, "-o", b} + options);
        QVERIFY(sameArrays(readAt(a, "/xpcs/g2"), readAt(b, "/xpcs/g2")));
        QVERIFY(sameArrays(readAt(a, "/xpcs/g2_err"), readAt(b, "/xpcs/g2_err")));
        if (options.contains("--twotime"))
            QVERIFY(sameArrays(readAt(a, "/xpcs/twotime/1"), readAt(b, "/xpcs/twotime/1")));
    }

    // Issue 55: a sparse file's two-time maps come from its entries, never densified (each
    // labelled pixel's binned values, then exact sums and Gram matrices pair by pair; where the
    // binned pixels are mostly non-zero, their binned stack through the dense reference): the
    // dense file's maps bit for bit, over photon frames and dense ones, partial bins dropped.
    void twotimeFromEntriesEqualsDense_data() {
        QTest::addColumn<QString>("intensity");
        QTest::addColumn<QStringList>("options");
        const QStringList multitau{"--multitau", "--channels", "4", "--twotime", "1"};
        QTest::newRow("photons, bin 2, cpu")
            << "0.03" << QStringList{"--device", "cpu", "--twotime-bin", "2"} + multitau;
        QTest::newRow("photons, bin 5, sparse-cpu")
            << "0.03"
            << QStringList{"--device", "cpu", "--variant", "sparse-cpu", "--twotime-bin", "5"} +
                   multitau;
        QTest::newRow("photons, bin 3, sparse on ocl:0")
            << "0.03"
            << QStringList{"--device", "ocl:0", "--variant", "sparse", "--twotime-bin", "3"} +
                   multitau;
        QTest::newRow("dense, bin 4, cpu (the binned stack)")
            << "2" << QStringList{"--device", "cpu", "--twotime-bin", "4"} + multitau;
    }
    void twotimeFromEntriesEqualsDense() {
        QFETCH(QString, intensity);
        QFETCH(QStringList, options);
        const QString frames = path("twotime_" + intensity + ".h5"),
                      sparse = path("twotime_" + intensity + "_sparse.h5");
        if (!QFile::exists(sparse)) {
            CLI_OK("generate", "xpcs", "--frames", "40", "--height", "20", "--width", "24",
                   "--dtype", "uint16", "--intensity", intensity, "--seed", "5", "-o", frames);
            CLI_OK("convert", frames, "--to", "sparse", "-o", sparse);
        }
        const QString tag =
            QString(QTest::currentDataTag()).remove(QRegularExpression("[^a-z0-9]"));
        const QString a = path(tag + "_dense_tt.h5"), b = path(tag + "_sparse_tt.h5");
        CLI_OK(QStringList{"correlate", frames, "-o", a} + options);
        CLI_OK(QStringList{"correlate", sparse, "-o", b} + options);
        const Array dense = readAt(a, "/xpcs/twotime/1"),
                    fromEntries = readAt(b, "/xpcs/twotime/1");
        QVERIFY(dense.size() > 0);
        QVERIFY(sameArrays(dense, fromEntries));
    }

    // The sparse variants (DESIGN.md §5 "Sparse correlation"; sparse-cpu on the host, sparse on
    // the OpenCL device) correlate the entries as stored — a count split over two entries, zero
    // counts listed, each frame's entries in random order, an event list — and give the dense
    // multi-tau's g2 of the densified stack bit for bit (3 bins, a masked pixel, several
    // levels, blocks of 6 frames on the device); g2_err too: the frame normalisation's against
    // cpu, the symmetric one's (scaled as g2, as every variant but cpu gives it) against the
    // dense OpenCL variant multitau.
    void sparseVariantsEqualDense_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QStringList>("variant");
        QTest::addColumn<QString>("normalisation");
        const QStringList host{"--device", "cpu", "--variant", "sparse-cpu"};
        const QStringList device{"--device", "ocl:0", "--variant", "sparse"};
        for (const char* norm : {"frame", "symmetric"}) {
            QTest::newRow(qPrintable(QString("scattered sparse-cpu ") + norm))
                << "scattered" << host << norm;
            QTest::newRow(qPrintable(QString("scattered sparse blocks of 6, groups of 64 ") + norm))
                << "scattered" << device + QStringList{"--tune",   "MT_FRAMES=6", "--tune",
                                                       "SP_WG=64", "--tune",      "SP_PAIRS=0"}
                << norm;
        }
        QTest::newRow("events sparse-cpu frame") << "events" << host << "frame";
        QTest::newRow("events sparse frame") << "events" << device << "frame";
        // sparse-pairs: each pixel's pairs of entries into the rows' lag products they meet, every
        // level's row sums binned on the host (a dense stack and rising occupancy: every level).
        const QStringList pairs{"--device", "ocl:0", "--variant", "sparse-pairs"};
        for (const char* norm : {"frame", "symmetric"})
            QTest::newRow(qPrintable(QString("scattered sparse-pairs ") + norm))
                << "scattered" << pairs << norm;
        QTest::newRow("events sparse-pairs frame") << "events" << pairs << "frame";
        QTest::newRow("dense stack sparse-pairs frame") << "dense" << pairs << "frame";
        QTest::newRow("rising occupancy sparse-pairs frame") << "rising" << pairs << "frame";
        QTest::newRow("dense stack sparse blocks of 10 frame")
            << "dense" << device + QStringList{"--tune", "MT_FRAMES=10", "--tune", "SP_PAIRS=0"}
            << "frame";
        // The levels below K by each position's pairs of entries (sp_pm_pairs), level K on by
        // the rings: the lags reach into the block before (blocks of 2^(K-1)·C frames: C = 4).
        for (const char* norm : {"frame", "symmetric"})
            QTest::newRow(
                qPrintable(QString("scattered sparse, pairs below 3, blocks of 16 ") + norm))
                << "scattered"
                << device + QStringList{"--tune", "SP_PAIRS=3", "--tune", "MT_FRAMES=16"} << norm;
        QTest::newRow("scattered sparse, pairs below 2, global sums, blocks of 8 frame")
            << "scattered" << device + QStringList{"--tune",          "SP_PAIRS=2", "--tune",
                                                   "SP_LOCAL_BINS=0", "--tune",     "MT_FRAMES=8"}
            << "frame";
        QTest::newRow("events sparse, pairs below 4, blocks of 32 frame")
            << "events" << device + QStringList{"--tune", "SP_PAIRS=4", "--tune", "MT_FRAMES=32"}
            << "frame";
        QTest::newRow("dense stack sparse, pairs below 1, blocks of 6 frame")
            << "dense" << device + QStringList{"--tune", "SP_PAIRS=1", "--tune", "MT_FRAMES=6"}
            << "frame";
        QTest::newRow("rising occupancy sparse, pairs below 2, blocks of 8 frame")
            << "rising" << device + QStringList{"--tune", "SP_PAIRS=2", "--tune", "MT_FRAMES=8"}
            << "frame";
        // Upper levels list-held, then by values halfway (their rows' unlisted values zeroed),
        // binned from reused list-held slots: every read of a listed row through its bitmap.
        QTest::newRow("rising occupancy sparse blocks of 8 frame")
            << "rising" << device + QStringList{"--tune", "MT_FRAMES=8", "--tune", "SP_PAIRS=0"}
            << "frame";
        QTest::newRow("scattered sparse, every level by values frame")
            << "scattered"
            << device + QStringList{"--tune", "SP_DENSE=1000000", "--tune", "SP_PAIRS=0"}
            << "frame";
        QTest::newRow("scattered sparse, every level by values in chunks frame")
            << "scattered" << device + QStringList{"--tune",     "SP_DENSE=1000000", "--tune",
                                                   "SP_CHUNK=4", "--tune",           "SP_PAIRS=0"}
            << "frame";
        QTest::newRow("scattered sparse, every level by lists frame")
            << "scattered" << device + QStringList{"--tune", "SP_DENSE=1", "--tune", "SP_PAIRS=0"}
            << "frame";
        QTest::newRow("scattered sparse, lists, global sums frame")
            << "scattered" << device + QStringList{"--tune",          "SP_DENSE=1", "--tune",
                                                   "SP_LOCAL_BINS=0", "--tune",     "SP_PAIRS=0"}
            << "frame";
        QTest::newRow("scattered sparse, lists in chunks of 4 entries, blocks of 6 frame")
            << "scattered" << device + QStringList{"--tune", "SP_DENSE=1",  "--tune", "SP_CHUNK=4",
                                                   "--tune", "MT_FRAMES=6", "--tune", "SP_PAIRS=0"}
            << "frame";
    }
    void sparseVariantsEqualDense() {
        QFETCH(QString, input);
        QFETCH(QStringList, variant);
        QFETCH(QString, normalisation);
        QString in = path("scattered.h5"), reference = path("scattered_dense.h5");
        if (input == "scattered" && !QFile::exists(in)) PYTHON("scattered", dense, reference, in);
        if (input == "events") {
            in = path("events.h5"), reference = dense;
            if (!QFile::exists(in)) PYTHON("events", dense, in, "1000000");
        }
        if (input == "dense") in = reference = dense;
        if (input == "rising") {
            in = reference = path("rising.h5");
            if (!QFile::exists(in)) PYTHON("rising", in);
        }
        const QStringList common{"--multitau", "--channels",         "4",          "--frame-time",
                                 "0.001",      "--g2-normalisation", normalisation};
        const QString tag = QString(QTest::currentDataTag()).replace(' ', '_');
        // The dense references once for each dense file and normalisation (rows share them).
        const QString dense = QFileInfo(reference).completeBaseName() + "_" + normalisation;
        const QString cpu = path(dense + "_cpu.h5"), multitau = path(dense + "_multitau.h5"),
                      got = path(tag + "_got.h5");
        if (!QFile::exists(cpu))
            CLI_OK(QStringList{"correlate", reference, "--device", "cpu", "-o", cpu} + common);
        CLI_OK(QStringList{"correlate", in, "-o", got} + variant + common);
        QVERIFY(sameArrays(readAt(cpu, "/xpcs/g2"), readAt(got, "/xpcs/g2")));
        QString errors = cpu;
        if (normalisation == "symmetric") {
            errors = multitau;
            if (!QFile::exists(multitau))
                CLI_OK(QStringList{"correlate", reference, "--device", "ocl:0", "--variant",
                                   "multitau", "-o", multitau} +
                       common);
        }
        QVERIFY(sameArrays(readAt(errors, "/xpcs/g2_err"), readAt(got, "/xpcs/g2_err")));
        QCOMPARE(readAt(got, "/xpcs/g2").shape()[0],
                 input == "scattered" || input == "rising" ? 3u : 1u);
    }

    // Issue 55: dense lags (every lag, no --multitau) on sparse-cpu, from the stored entries,
    // give the dense cpu's result on the densified stack bit for bit: g2, g2_err, the sums,
    // intensities and two-time maps, every dataset under /xpcs. CSR uint16 with a masked
    // pixel, split counts, zero counts and shuffled entries (scattered); an event list; uint32
    // counts near 2^32 (128-bit sums on cpu); 300 frames (rows read in several blocks); a window
    // of frames (--frames); both normalisations (symmetric: g2_err from the per-pixel sums, as
    // cpu's). The file's entries are streamed as stored (Algorithm::readFor), not the non-zero
    // pixels of a densified stack.
    void sparseCpuDenseLagsEqualCpu_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("variant");
        // sparse-cpu against cpu; sparse-pairs (OpenCL) against gemm, the dense variant whose lag
        // sums and two-time maps it shares, on ocl:0.
        for (const char* variant : {"sparse-cpu", "sparse-pairs"}) {
            const auto row = [&](const QString& name, const QString& input,
                                 const QStringList& options) {
                QTest::newRow(qPrintable(name + " " + variant)) << input << options << variant;
            };
            for (const char* norm : {"frame", "symmetric"}) {
                const QStringList n{"--g2-normalisation", norm};
                row(QString("scattered ") + norm, "scattered", n);
                row(QString("events ") + norm, "events", n);
            }
            row("scattered twotime", "scattered", {"--twotime", "1,3"});
            row("scattered frames 5:30", "scattered", {"--frames", "5:30"});
            // a budget below the densified stack (150 KiB) that fits the held entries (about 60
            // KiB): the entries are held, not dense slabs in passes (sparse-pairs; sparse-cpu
            // holds one bin's Gram matrix beside them, 1.4 MiB here: denseLagsGramOverBudget)
            if (variant == std::string("sparse-pairs"))
                row("long budget 96K", "long", {"--memory-budget", "96K"});
            row("uint32 frame", "uint32", {});
            row("long symmetric", "long", {"--g2-normalisation", "symmetric"});
        }
    }
    void sparseCpuDenseLagsEqualCpu() {
        QFETCH(QString, input);
        QFETCH(QStringList, options);
        QFETCH(QString, variant);
        const bool device = variant == "sparse-pairs";
        QString in = path("scattered.h5"), reference = path("scattered_dense.h5");
        if (input == "scattered" && !QFile::exists(in)) PYTHON("scattered", dense, reference, in);
        if (input == "events") {
            in = path("events.h5"), reference = dense;
            if (!QFile::exists(in)) PYTHON("events", dense, in, "1000000");
        }
        if (input == "uint32") {
            in = path("dense_lags_u32_sparse.h5"), reference = path("dense_lags_u32.h5");
            PYTHON("uint32", reference, in);
        }
        if (input == "long") {
            in = path("dense_lags_long.h5"), reference = path("dense_lags_long_dense.h5");
            PYTHON("long", in, "300", "0.05");
            CLI_OK("convert", in, "--to", "dense", "-o", reference);
        }
        const QString tag = QString(QTest::currentDataTag()).replace(' ', '_').remove(':');
        const QString cpu = path(tag + "_lags_reference.h5"), got = path(tag + "_lags_sparse.h5");
        const QStringList common =
            QStringList{"--device", device ? "ocl:0" : "cpu", "--frame-time", "0.001"} + options;
        const test::CliRun r =
            test::runCli(QStringList{"correlate", in, "--variant", variant, "-o", got} + common);
        if (device && input == "uint32") { // counts near 2^32: 64-bit sums could overflow
            QVERIFY2(r.code == 2, qPrintable(r.err));
            QVERIFY2(r.err.contains("sparse-cpu sums in 128 bits"), qPrintable(r.err));
            QVERIFY(!QFile::exists(got));
            return;
        }
        QVERIFY2(r.code == 0, qPrintable(r.err));
        CLI_OK(
            QStringList{"correlate", reference, "--variant", device ? "gemm" : "cpu", "-o", cpu} +
            common);
        if (options.contains("--memory-budget"))
            QVERIFY2(r.out.contains("; 1 pass within a memory budget"), qPrintable(r.out));
        // The file's entries as stored, streamed: its zero counts and split counts too.
        if (input == "scattered" && !options.contains("--frames")) {
            const std::size_t stored =
                H5Reader(in.toStdString()).info("/entry/data/sparse/count").shape[0];
            QVERIFY2(r.out.contains(QString("read %1 stored entries").arg(stored)),
                     qPrintable(r.out));
        }
        const H5Reader a(cpu.toStdString()), b(got.toStdString());
        QCOMPARE(b.stringAttribute("/xpcs", "variant").value_or(""), variant.toStdString());
        QCOMPARE(b.stringAttribute("/xpcs", "mode").value_or(""), std::string("dense"));
        QCOMPARE(firstDifference(a, b, "/xpcs"), QString());
    }

    // Dense lags (and sparse-pairs' multi-tau) hold the series' stored entries (16 bytes each): a
    // file whose entries pass --memory-budget is refused before anything is read (exit 2, as every
    // run that cannot fit the budget), naming the entries, their dataset, the budget and what to
    // run instead; nothing written. Under a budget that fits, sparseCpuDenseLagsEqualCpu's "long
    // budget" row.
    void denseLagsEntriesOverBudget() {
        const QString in = path("entries_budget.h5"), out = path("entries_budget_out.h5");
        PYTHON("long", in, "300", "0.05");
        const std::size_t stored =
            H5Reader(in.toStdString()).info("/entry/data/sparse/count").shape[0];
        // sparse-cpu holds one bin's 300 x 300 Gram matrix beside them (1,440,000 bytes): a
        // budget that holds it and half the entries (denseLagsGramOverBudget: one that does not).
        const QString besideGram = QString::number(1440000 + 8 * stored);
        for (const char* variant : {"sparse-cpu", "sparse-pairs"}) {
            const bool cpu = variant == QString("sparse-cpu");
            const test::CliRun r = test::runCli(
                {"correlate", in, "--variant", variant, "--device", cpu ? "cpu" : "ocl:0",
                 "--frame-time", "0.001", "--memory-budget", cpu ? besideGram : "32K", "-o", out});
            QVERIFY2(r.code == 2, qPrintable(r.err));
            QVERIFY2(r.err.contains(QString("its %1 stored entries").arg(stored)),
                     qPrintable(r.err));
            QVERIFY2(r.err.contains(":/entry/data/sparse"), qPrintable(r.err));
            QVERIFY2(r.err.contains(cpu ? " beside xpcs dense lags (sparse-cpu) on "
                                        : "more than the memory budget 32.0 KiB"),
                     qPrintable(r.err));
            QVERIFY2(r.err.contains("--frames a:b") && r.err.contains("--multitau"),
                     qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
        }
        // sparse-pairs' multi-tau holds the whole series too; sparse and sparse-cpu stream it.
        const test::CliRun r = test::runCli({"correlate", in, "--variant", "sparse-pairs",
                                             "--device", "ocl:0", "--multitau", "--frame-time",
                                             "0.001", "--memory-budget", "32K", "-o", out});
        QVERIFY2(r.code == 2 && r.err.contains("xpcs multi-tau (sparse-pairs) on"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QString("its %1 stored entries").arg(stored)), qPrintable(r.err));
        QVERIFY2(r.err.contains("take sparse or sparse-cpu"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        CLI_OK("correlate", in, "--variant", "sparse", "--device", "ocl:0", "--multitau",
               "--frame-time", "0.001", "--memory-budget", "32K", "-o", out);
    }

    // The host references' dense lags hold one bin's T x T Gram matrix beside their input
    // (Algorithm::holdsBeside): 600 frames, 5.5 MiB for sparse-cpu's 128-bit sums, 2.7 MiB for
    // cpu's on these uint8 counts. A budget below it refuses them (exit 2, naming it, nothing
    // written), while sparse-pairs (its Gram matrices on the device, checked there) runs within
    // it; within a budget that holds it both run, sparse-cpu equal to cpu.
    void denseLagsGramOverBudget() {
        const QString in = path("gram_budget.h5"), out = path("gram_budget_out.h5");
        CLI_OK("generate", "xpcs", "--sparse", "--frames", "600", "--height", "20", "--width", "24",
               "--intensity", "0.02", "-o", in);
        for (const auto& [variant, element] : {std::pair{"sparse-cpu", 16}, std::pair{"cpu", 8}}) {
            const test::CliRun r = test::runCli({"correlate", in, "--variant", variant, "--device",
                                                 "cpu", "--memory-budget", "2M", "-o", out});
            QVERIFY2(r.code == 2, qPrintable(r.err));
            QVERIFY2(r.err.contains(QString("xpcs dense lags (%1) on ").arg(variant)) &&
                         r.err.contains(QString("one bin's 600 x 600 Gram matrix (%1 bytes an "
                                                "element)")
                                            .arg(element)),
                     qPrintable(r.err));
            QVERIFY2(r.err.contains("more than the memory budget 2.0 MiB") &&
                         r.err.contains("--multitau"),
                     qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
        }
        CLI_OK("correlate", in, "--variant", "sparse-pairs", "--device", "ocl:0", "--memory-budget",
               "2M", "-o", out);
        const QString whole = path("gram_budget_whole.h5"), ref = path("gram_budget_cpu.h5");
        CLI_OK("correlate", in, "--variant", "sparse-cpu", "--device", "cpu", "--memory-budget",
               "8M", "-o", whole);
        CLI_OK("correlate", in, "--variant", "cpu", "--device", "cpu", "--memory-budget", "8M",
               "-o", ref);
        for (const char* name : {"/xpcs/g2", "/xpcs/g2_err"})
            QVERIFY2(sameArrays(readAt(whole, name), readAt(ref, name)), name);
    }

    // A dense-lag run on an OpenCL device that names no variant takes sparse-pairs below the
    // dense-lag crossover (0.2 %), saying so, with gemm's result bit for bit; above it, or where
    // its Gram matrices cannot fit the device, the preferred gemm. docs/SPARSE-LAGS.md "Which
    // variant runs".
    void denseLagsChooseSparsePairsBelowTheCrossover() {
        const QString low = path("lags_low.h5"), high = path("lags_high.h5");
        CLI_OK("generate", "xpcs", "--sparse", "--frames", "300", "--height", "64", "--width", "64",
               "--intensity", "0.002", "-o", low);
        CLI_OK("generate", "xpcs", "--sparse", "--frames", "300", "--height", "64", "--width", "64",
               "--intensity", "0.05", "-o", high);
        const QString chosen = path("lags_low_auto.h5"), gemm = path("lags_low_gemm.h5");
        const test::CliRun r = test::runCli({"correlate", low, "--device", "ocl:0", "-o", chosen});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("variant sparse-pairs: the frames' stored entries fill 0.07") &&
                     r.err.contains("below the dense-lag crossover 0.2 %"),
                 qPrintable(r.err));
        QCOMPARE(H5Reader(chosen.toStdString()).stringAttribute("/xpcs", "variant").value_or(""),
                 std::string("sparse-pairs"));
        CLI_OK("correlate", low, "--device", "ocl:0", "--variant", "gemm", "-o", gemm);
        for (const char* name : {"/xpcs/g2", "/xpcs/g2_err"})
            QVERIFY2(sameArrays(readAt(chosen, name), readAt(gemm, name)), name);
        const QString above = path("lags_high_auto.h5");
        const test::CliRun h = test::runCli({"correlate", high, "--device", "ocl:0", "-o", above});
        QVERIFY2(h.code == 0 && !h.err.contains("variant sparse"), qPrintable(h.err));
        QCOMPARE(H5Reader(above.toStdString()).stringAttribute("/xpcs", "variant").value_or(""),
                 std::string("gemm"));
        // 100,000 frames at 0.1 %: their Gram matrices (75 GiB) fit no device here, so the
        // choice keeps gemm, whose refusal names what it needs (not sparse-pairs'); nothing
        // written.
        const QString longSeries = path("lags_long.h5"), longOut = path("lags_long_out.h5");
        CLI_OK("generate", "xpcs", "--sparse", "--frames", "100000", "--height", "16", "--width",
               "16", "--intensity", "0.003", "-o", longSeries);
        const test::CliRun l =
            test::runCli({"correlate", longSeries, "--device", "ocl:0", "-o", longOut});
        QVERIFY2(l.code == 4 && !l.err.contains("sparse-pairs") &&
                     l.err.contains("xpcs: the Gram matrices need"),
                 qPrintable(l.err));
        QVERIFY(!QFile::exists(longOut));
    }

    // A dense-lag run on a sparse file that names no variant on the host keeps the preferred
    // cpu: sparse-cpu runs dense lags only when named (docs/SPARSE.md "Which variant runs").
    void denseLagsOnSparseKeepCpu() {
        const QString in = path("scattered.h5"), out = path("dense_lags_default.h5");
        if (!QFile::exists(in)) PYTHON("scattered", dense, path("scattered_dense.h5"), in);
        const test::CliRun r = test::runCli({"correlate", in, "--device", "cpu", "-o", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("variant sparse"), qPrintable(r.err));
        QCOMPARE(H5Reader(out.toStdString()).stringAttribute("/xpcs", "variant").value_or(""),
                 std::string("cpu"));
    }

    // A pixel's counts summed beyond the count type, and float frames: refused by the sparse
    // variants with the reason (exit 3 naming the dataset; exit 2), nothing written; sparse-pairs
    // (dense lags) too, which sums a frame's entries of a pixel after sorting them pixel-major.
    void sparseVariantsRefuse() {
        const QString in = path("dup_overflow.h5"), out = path("dup_out.h5");
        PYTHON("bad", "duplicate_overflow", in);
        const QStringList multitau{"--multitau", "--channels", "4"};
        for (const QStringList& variant :
             {multitau + QStringList{"--device", "cpu", "--variant", "sparse-cpu"},
              multitau + QStringList{"--device", "ocl:0", "--variant", "sparse"},
              QStringList{"--device", "ocl:0", "--variant", "sparse-pairs"},
              multitau + QStringList{"--device", "ocl:0", "--variant", "sparse-pairs"}}) {
            const test::CliRun r = test::runCli(QStringList{"correlate", in, "-o", out} + variant);
            QVERIFY2(r.code == 3, qPrintable(r.err));
            QVERIFY2(r.err.contains(in + ":/entry/data/sparse/count: pixel 1"), qPrintable(r.err));
            QVERIFY2(r.err.contains("beyond uint16"), qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
        }
        // Beyond frame 0 (which a run's shape check reads densely): sparse-pairs' pixel-major
        // sort sums a frame's entries of a pixel and refuses as sparse-cpu's rows do.
        const QString late = path("dup_overflow_late.h5");
        PYTHON("bad", "duplicate_overflow_late", late);
        for (const QStringList& variant :
             {QStringList{"--device", "cpu", "--variant", "sparse-cpu"},
              QStringList{"--device", "ocl:0", "--variant", "sparse-pairs"}}) {
            const test::CliRun r =
                test::runCli(QStringList{"correlate", late, "-o", out} + variant);
            QVERIFY2(r.code == 3, qPrintable(r.err));
            QVERIFY2(r.err.contains(late + ":/entry/data/sparse/count: pixel 7 of frame 2 sums to "
                                           "80000, beyond uint16 (listed more than once)"),
                     qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
        }
        // `sparse` sums a frame's entries of a pixel on the device: in the rings, and in the
        // levels by pairs (sp_pm_pairs' level 0).
        for (const char* pairs : {"SP_PAIRS=0", "SP_PAIRS=1"}) {
            const test::CliRun r = test::runCli(
                QStringList{"correlate", late, "-o", out, "--device", "ocl:0", "--variant",
                            "sparse", "--tune", pairs, "--tune", "MT_FRAMES=4"} +
                multitau);
            QVERIFY2(r.code == 3, qPrintable(r.err));
            QVERIFY2(r.err.contains(late + ":/entry/data/sparse/count: pixel 7 sums beyond uint16 "
                                           "in a frame of frames 0..2 (listed more than once)"),
                     qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
        }
        const QString floats = path("floats.h5");
        CLI_OK("generate", "xpcs", "--frames", "8", "--height", "24", "--width", "28", "--dtype",
               "float32", "-o", floats);
        const test::CliRun r =
            test::runCli({"correlate", floats, "--multitau", "--channels", "4", "--device", "cpu",
                          "--variant", "sparse-cpu", "-o", out});
        QVERIFY2(r.code == 2 && r.err.contains("unsigned integer counts"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    // sparse-pairs holds every bin's T x T Gram matrix on the device, as the dense variants:
    // a series too long for it is refused before its entries are read (exit 4, what it would
    // need and what the device has), nothing written.
    void sparsePairsRefusesTooManyFrames() {
        const QString in = path("long_series.h5"), out = path("long_series_out.h5");
        CLI_OK("generate", "xpcs", "--sparse", "--frames", "100000", "--height", "16", "--width",
               "16", "--intensity", "0.01", "-o", in);
        const test::CliRun r = test::runCli(
            {"correlate", in, "--variant", "sparse-pairs", "--device", "ocl:0", "-o", out});
        QVERIFY2(r.code == 4, qPrintable(r.err));
        QVERIFY2(r.err.contains("the Gram matrices of") && r.err.contains("100000^2 frames need"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    // pixelMajorOf (sparse-pairs' host steps: the entries cut into pieces, grouped by ranges of
    // positions, each range counting-sorted) against the rows frame by frame, on 1 thread and
    // every thread: 300 frames of 96x128 with shuffled entries, a pixel twice or three times in a
    // frame, zero counts and unlabelled pixels, 8 pieces and 3 ranges of positions.
    void pixelMajorPiecesEqualRows() {
        const std::size_t height = 96, width = 128, pixels = height * width;
        LabelMask mask{height, width, std::vector<std::int32_t>(pixels)};
        std::mt19937 rng(5);
        for (std::int32_t& label : mask.labels)
            label = static_cast<std::int32_t>(rng() % 6); // 0: unlabelled
        const xpcs::Bins bins = xpcs::makeBins(mask);
        const std::shared_ptr<SparseBlock> pool = shuffledFrames(300, pixels);
        QVERIFY(xpcs::pixelMajorPieces(pool->entries()) >= 8);
        QVERIFY(bins.pixelIndex.size() > 2 * 4096);
        const xpcs::PixelMajor want = pixelMajorByRows(bins, *pool, pixels);
        const auto frames = xpcs::blocksSparseRepeating(pool, height, width, DType::UInt16, 300);
        for (const std::size_t threads : {1, 0}) {
            const xpcs::PixelMajor m = xpcs::pixelMajorOf(bins, *frames, Progress(), threads);
            for (const QString& d : {firstMismatch("first", m.first, want.first),
                                     firstMismatch("frame", m.frame, want.frame),
                                     firstMismatch("count", m.count, want.count)})
                QVERIFY2(d.isEmpty(), qPrintable(QString("%1 threads: %2").arg(threads).arg(d)));
            QCOMPARE(m.largest, want.largest);
            QCOMPARE(m.read, std::uint64_t(pool->entries()));
        }
    }

    // dense → sparse → dense: the same frames, and the labels, pixel mask and frame time
    // (with its units) carried along.
    void convertRoundTrip() {
        const QString sparse = path("converted_sparse.h5"), back = path("converted_dense.h5");
        CLI_OK("convert", dense, "--to", "sparse", "-o", sparse);
        CLI_OK("convert", sparse, "--to", "dense", "-o", back);
        const Array want = readFrames(H5Reader(dense.toStdString()));
        const H5Reader s(sparse.toStdString()), d(back.toStdString());
        QVERIFY(s.hasDataset("/entry/data/sparse/frame_ptr"));
        QVERIFY(!s.hasObject(paths::frames));
        QVERIFY(s.info("/entry/data/sparse/count").dtype == DType::UInt16);
        QVERIFY(s.info("/entry/data/sparse/pixel").dtype == DType::Int32);
        QVERIFY(s.info("/entry/data/sparse/frame_ptr").dtype == DType::Int64);
        QVERIFY(*s.integerAttribute("/entry/data/sparse", "shape") ==
                (std::vector<std::int64_t>{48, 24, 28}));
        QVERIFY(sameArrays(readFrames(s), want));
        QVERIFY(sameArrays(d.read(paths::frames), want));
        for (const H5Reader* out : {&s, &d}) {
            QVERIFY(sameArrays(out->read(paths::qmask), readAt(dense, paths::qmask)));
            QCOMPARE(out->readScalar(paths::frameTime), 0.001);
            QVERIFY(out->stringAttribute(paths::frameTime, "units") == std::string("s"));
        }
        // A window of frames, and a refused output over the input.
        const QString part = path("converted_part.h5");
        CLI_OK("convert", sparse, "--frames", "10:5", "--to", "dense", "-o", part);
        QVERIFY(sameArrays(readAt(part, paths::frames), Array(want.frameView(10, 5))));
        QCOMPARE(test::runCli({"convert", dense, "--to", "sparse", "-o", dense}).code, 2);
        QCOMPARE(test::runCli({"convert", dense, "--to", "csr", "-o", path("x.h5")}).code, 2);
    }

    // generate xpcs --sparse writes the frames the dense generate writes, as the CSR layout
    // (convert --to dense gives them back bit for bit), with the same labels and frame time; a
    // low intensity gives photon frames of low occupancy; float32 frames are refused.
    void generateSparse() {
        const QString sparse = path("generated_sparse.h5"), back = path("generated_dense.h5");
        CLI_OK("generate", "xpcs", "--sparse", "--frames", "48", "--height", "24", "--width", "28",
               "--dtype", "uint16", "--intensity", "2", "--frame-time", "0.001", "--seed", "3",
               "-o", sparse);
        const H5Reader s(sparse.toStdString());
        QVERIFY(!s.hasObject(paths::frames));
        QVERIFY(*s.integerAttribute("/entry/data/sparse", "shape") ==
                (std::vector<std::int64_t>{48, 24, 28}));
        QVERIFY(s.info("/entry/data/sparse/count").dtype == DType::UInt16);
        CLI_OK("convert", sparse, "--to", "dense", "-o", back);
        QVERIFY(sameArrays(readAt(back, paths::frames), readAt(dense, paths::frames)));
        QVERIFY(sameArrays(s.read(paths::qmask), readAt(dense, paths::qmask)));
        QCOMPARE(s.readScalar(paths::frameTime), 0.001);

        const QString photons = path("generated_photons.h5");
        CLI_OK("generate", "xpcs", "--sparse", "--frames", "20", "--height", "32", "--width", "32",
               "--intensity", "0.01", "-o", photons);
        const Array ptr = readAt(photons, "/entry/data/sparse/frame_ptr");
        const double occupancy = double(ptr.as<std::int64_t>().back()) / (20.0 * 32 * 32);
        QVERIFY2(occupancy > 0 && occupancy < 0.05, qPrintable(QString::number(occupancy)));
        EXPECT_EXIT(test::runCli({"generate", "xpcs", "--sparse", "--dtype", "float32", "-o",
                                  path("float.h5")}),
                    2, "--sparse writes integer counts");
    }

    // An event list's time column is scanned once a process (the automatic variant choice and
    // the run each open it): a second open of the same file, group and Δ takes the frames kept;
    // another Δ or a rewritten file scans again, and every open gives the same frames.
    void eventScanKeptForTheProcess() {
        const QString events = path("scan_once.h5");
        PYTHON("edges", events);
        const auto frames = [&](double seconds) {
            return readFrames(H5Reader(events.toStdString()), paths::frames, seconds);
        };
        const std::uint64_t before = CsrFrames::eventScans();
        const Array first = frames(1e-3);
        QCOMPARE(CsrFrames::eventScans(), before + 1);
        QVERIFY(sameArrays(frames(1e-3), first));
        QCOMPARE(CsrFrames::eventScans(), before + 1); // kept
        frames(2e-3);
        QCOMPARE(CsrFrames::eventScans(), before + 2); // another Δ
        QTest::qWait(20);                              // a later modification time
        PYTHON("edges", events);
        QVERIFY(sameArrays(frames(1e-3), first));
        QCOMPARE(CsrFrames::eventScans(), before + 3); // rewritten: scanned again
    }

    // Frame k holds k·Δ ≤ time < (k+1)·Δ: events exactly at an edge open the later frame, one
    // nanosecond before it stays in the earlier; T = ⌊last / Δ⌋ + 1 (an empty frame kept).
    void eventsBinAtEdges() {
        const QString events = path("edges.h5");
        PYTHON("edges", events);
        const Array frames = readFrames(H5Reader(events.toStdString()), paths::frames, 1e-3);
        QCOMPARE(frames.dtype(), DType::UInt32);
        QCOMPARE(frames.shape(), (Shape{4, 2, 3}));
        const std::vector<std::uint32_t> want{
            1, 1, 0, 0, 0, 0, // frame 0: t = 0 (pixel 0), 999999 (pixel 1)
            0, 1, 3, 0, 0, 0, // frame 1: t = 1000000 (pixels 1, 2), 1999999 twice (pixel 2)
            0, 0, 0, 0, 0, 0, // frame 2: none
            0, 0, 0, 1, 0, 0, // frame 3: t = 3000000 exactly (pixel 3)
        };
        const auto got = frames.as<std::uint32_t>();
        QCOMPARE(std::vector<std::uint32_t>(got.begin(), got.end()), want);
        // Δ = 2 ms: frames 0 (t < 2000000) and 1 (t = 3000000).
        const Array two = readFrames(H5Reader(events.toStdString()), paths::frames, 2e-3);
        QCOMPARE(two.shape(), (Shape{2, 2, 3}));
        QCOMPARE(two.as<std::uint32_t>()[2], 3u);
        QCOMPARE(two.as<std::uint32_t>()[1], 2u);
    }

    // An event list made from the dense stack (each count an event, spread over its frame's
    // interval, both edges included) correlates as that stack, and converts back to it.
    void eventsCorrelateAsTheirFrames_data() {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("dense cpu") << QStringList{"--device", "cpu"};
        QTest::newRow("multitau cpu")
            << QStringList{"--device", "cpu", "--multitau", "--channels", "4"};
        QTest::newRow("multitau ocl:0")
            << QStringList{"--device", "ocl:0", "--multitau", "--channels", "4"};
    }
    void eventsCorrelateAsTheirFrames() {
        QFETCH(QStringList, options);
        const QString events = path("events.h5");
        if (!QFile::exists(events)) PYTHON("events", dense, events, "1000000");
        const Array want = readFrames(H5Reader(dense.toStdString()));
        const Array binned = readFrames(H5Reader(events.toStdString()), paths::frames, 1e-3);
        QCOMPARE(binned.shape(), want.shape()); // the generated stack's last frame holds counts
        const QString tag = QString(QTest::currentDataTag()).replace(' ', '_').remove(':');
        const QString a = path(tag + "_dense_ev.h5"), b = path(tag + "_events_ev.h5");
        options << "--frame-time"
                << "0.001";
        CLI_OK(QStringList{"correlate", dense, "-o", a} + options);
        CLI_OK(QStringList{"correlate", events, "-o", b} + options);
        QVERIFY(sameArrays(readAt(a, "/xpcs/g2"), readAt(b, "/xpcs/g2")));
        const QString back = path(tag + "_events_dense.h5");
        CLI_OK("convert", events, "--frame-time", "0.001", "--to", "dense", "-o", back);
        const Array converted = readAt(back, paths::frames);
        QCOMPARE(converted.dtype(), DType::UInt32); // events count in uint32
        QCOMPARE(converted.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            if (converted.valueAt(i) != want.valueAt(i)) QFAIL(qPrintable(QString::number(i)));
    }

    // Without a frame width an event list is a usage error that says which option to give.
    void eventsNeedAFrameTime() {
        const QString events = path("edges_usage.h5");
        PYTHON("edges", events);
        EXPECT_EXIT(test::runCli({"correlate", events, "--device", "cpu", "-o", path("u.h5")}), 2,
                    "--frame-time");
        EXPECT_EXIT(test::runCli({"convert", events, "--to", "dense", "-o", path("u.h5")}), 2,
                    "--frame-time");
        EXPECT_EXIT(test::runCli({"convert", events, "--frame-time", "1e-12", "--to", "dense", "-o",
                                  path("u.h5")}),
                    2, "1 ns");
    }

    // Every defect: exit 3, the message naming the dataset (or group) and what was expected.
    void badInputRefused_data() {
        QTest::addColumn<QString>("defect");
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<QString>("says");
        const QString g = "/entry/data/sparse", e = "/entry/data/events";
        QTest::newRow("frame_ptr decreasing") << "frame_ptr_decreasing" << g + "/frame_ptr"
                                              << "non-decreasing";
        QTest::newRow("frame_ptr[T] != nnz") << "frame_ptr_end" << g + "/frame_ptr"
                                             << "frame_ptr[T] = 2";
        QTest::newRow("frame_ptr not from 0") << "frame_ptr_start" << g + "/frame_ptr"
                                              << "start at 0";
        QTest::newRow("frame_ptr length") << "frame_ptr_length" << g + "/frame_ptr"
                                          << "T + 1 = 4";
        QTest::newRow("frame_ptr missing") << "frame_ptr_missing" << g + "/frame_ptr"
                                           << "missing";
        QTest::newRow("pixel negative") << "pixel_negative" << g + "/pixel"
                                        << "pixel -1 at index 1";
        QTest::newRow("pixel past H*W") << "pixel_too_large" << g + "/pixel"
                                        << "outside [0, H·W = 8)";
        QTest::newRow("pixel float") << "pixel_float" << g + "/pixel"
                                     << "1-D integer";
        QTest::newRow("count float") << "count_float" << g + "/count"
                                     << "uint16 or uint32";
        QTest::newRow("count int8") << "count_int8" << g + "/count"
                                    << "uint16 or uint32, found int8";
        QTest::newRow("count length") << "count_length" << g + "/count"
                                      << "2 counts for 3 pixels";
        QTest::newRow("duplicate beyond uint16") << "duplicate_overflow" << g + "/count"
                                                 << "sums to 80000";
        QTest::newRow("shape missing") << "shape_missing" << g << "attribute shape";
        QTest::newRow("shape of rank 2") << "shape_rank" << g << "(T, H, W)";
        QTest::newRow("events time decreasing") << "events_time_decreasing" << e + "/time"
                                                << "non-decreasing";
        QTest::newRow("events time negative") << "events_time_negative" << e + "/time"
                                              << "negative";
        QTest::newRow("events shape missing") << "events_shape_missing" << e << "attribute shape";
    }
    void badInputRefused() {
        QFETCH(QString, defect);
        QFETCH(QString, dataset);
        QFETCH(QString, says);
        const QString in = path("bad_" + defect + ".h5");
        PYTHON("bad", defect, in);
        for (const QStringList& command :
             {QStringList{"correlate", in, "--device", "cpu", "--frame-time", "1e-9"},
              QStringList{"correlate", in, "--device", "cpu", "--frame-time", "1e-9", "--multitau",
                          "--channels", "4"},
              QStringList{"convert", in, "--frame-time", "1e-9", "--to", "sparse"}}) {
            const test::CliRun r = test::runCli(command + QStringList{"-o", path("bad_out.h5")});
            QVERIFY2(r.code == 3, qPrintable(command.join(' ') + ": " + r.err));
            QVERIFY2(r.err.contains(in + ":" + dataset), qPrintable(r.err));
            QVERIFY2(r.err.contains(says), qPrintable(r.err));
            QVERIFY(!QFile::exists(path("bad_out.h5")));
        }
    }

    // A pixel listed twice in a frame holds the sum of its counts (scipy's toarray), as long
    // as the sum fits the count type.
    void duplicatesSum() {
        const QString in = path("duplicate_sum.h5");
        PYTHON("bad", "duplicate_sum", in);
        const Array frames = readFrames(H5Reader(in.toStdString()));
        QCOMPARE(frames.shape(), (Shape{3, 2, 4}));
        const auto v = frames.as<std::uint16_t>();
        QCOMPARE(std::vector<std::uint16_t>(v.begin(), v.end()),
                 (std::vector<std::uint16_t>{0, 7, 0, 0, 0, 0, 0, 0, //
                                             0, 0, 0, 0, 0, 0, 0, 0, //
                                             0, 0, 0, 0, 0, 0, 0, 3}));
    }

    // uint32 counts at 2^32 - 1 and just below: read exactly, and correlated bit for bit as the
    // dense uint32 stack (no wrap, no sign extension) on the host, the exact variant for them.
    void uint32CountsNearTheTop() {
        const QString d = path("u32_dense.h5"), s = path("u32_sparse.h5");
        PYTHON("uint32", d, s);
        const Array want = readAt(d, paths::frames);
        const Array got = readFrames(H5Reader(s.toStdString()));
        QVERIFY(sameArrays(got, want));
        QCOMPARE(got.as<std::uint32_t>()[0], 4294967295u);
        const QString a = path("u32_dense_g2.h5"), b = path("u32_sparse_g2.h5");
        CLI_OK("correlate", d, "--device", "cpu", "-o", a);
        CLI_OK("correlate", s, "--device", "cpu", "-o", b);
        QVERIFY(sameArrays(readAt(a, "/xpcs/g2"), readAt(b, "/xpcs/g2")));
        // Beyond the OpenCL variants' 64-bit sums: both inputs go through value planes alike
        // (the sparse one is not let through as something else), the cpu's g2 bit for bit.
        for (const QString& in : {d, s}) {
            CLI_OK("correlate", in, "--device", "ocl:0", "-o", path("u.h5"));
            QVERIFY(sameArrays(readAt(path("u.h5"), "/xpcs/g2"), readAt(a, "/xpcs/g2")));
        }
        // Multi-tau: sparse-cpu's 128-bit sums give the cpu's g2; the device variants sparse and
        // sparse-pairs, whose lag products are 64-bit, refuse (exit 2) naming the one that runs it.
        const QString mc = path("u32_mt_cpu.h5"), ms = path("u32_mt_sparse.h5");
        CLI_OK("correlate", d, "--device", "cpu", "--multitau", "--channels", "4", "-o", mc);
        CLI_OK("correlate", s, "--device", "cpu", "--variant", "sparse-cpu", "--multitau",
               "--channels", "4", "-o", ms);
        QVERIFY(sameArrays(readAt(mc, "/xpcs/g2"), readAt(ms, "/xpcs/g2")));
        QVERIFY(sameArrays(readAt(mc, "/xpcs/g2_err"), readAt(ms, "/xpcs/g2_err")));
        for (const char* variant : {"sparse", "sparse-pairs"}) {
            const test::CliRun r =
                test::runCli({"correlate", s, "--device", "ocl:0", "--variant", variant,
                              "--multitau", "--channels", "4", "-o", path("u32_refused.h5")});
            QVERIFY2(r.code == 2 && r.err.contains("run sparse-cpu"), qPrintable(r.err));
            QVERIFY(!QFile::exists(path("u32_refused.h5")));
        }
    }

    // Counts whose terms n N_t pass 2^63 (frames binned by 2 and more; level 0's stay within):
    // the device's fold forms them in 128 bits, as the host's does, so `sparse` gives the cpu's
    // g2 and g2_err bit for bit, with its fold on the device and with the host's (SP_FOLD=0).
    void wideTermsFoldedOnTheDevice() {
        const QString d = path("wide_dense.h5"), s = path("wide_sparse.h5");
        PYTHON("wide", d, s);
        const QString want = path("wide_cpu.h5"), got = path("wide_sparse_g2.h5");
        const auto correlate = [](const QStringList& args) {
            const test::CliRun r =
                test::runCli(QStringList{"correlate", "--multitau", "--channels", "4"} + args);
            return r.code == 0 ? QString() : r.err + " (exit " + QString::number(r.code) + ")";
        };
        QString error = correlate({d, "--device", "cpu", "-o", want});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const QString& fold : {"SP_FOLD=1", "SP_FOLD=0"}) {
            error = correlate(
                {s, "--device", "ocl:0", "--variant", "sparse", "--tune", fold, "-o", got});
            QVERIFY2(error.isEmpty(), qPrintable(error));
            for (const char* name : {"/xpcs/g2", "/xpcs/g2_err"})
                QVERIFY2(sameArrays(readAt(want, name), readAt(got, name)),
                         qPrintable(fold + " " + name));
        }
    }

    // 100,000 frames of 16×16 at 3 % occupancy: 51 MB dense, 6 MB of pixel indices as int64.
    // Under a 4 MB memory limit the whole stack, or a whole column, cannot be read; a windowed
    // read and a streamed multi-tau run must (they read only their frames' entries).
    // A multi-tau run that names no variant takes `sparse` on a sparse stack below the
    // crossover occupancy (said on stderr, same g2 as multitau), the dense multitau above it,
    // and the host's variants on the host.
    void sparseChosenBelowTheCrossover() {
        const QString low = path("photons.h5"), high = path("occupied.h5");
        PYTHON("long", low, "600", "0.002");
        PYTHON("long", high, "600", "0.03");
        const auto run = [&](const QString& in, const QStringList& more) {
            return test::runCli(QStringList{"correlate", in, "--multitau", "-o",
                                            path("chosen_g2.h5"), "--frame-time", "0.001"} +
                                more);
        };
        test::CliRun r = run(low, {"--device", "ocl:0"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("variant sparse: the frames' stored entries fill"),
                 qPrintable(r.err));
        const Array chosen = readAt(path("chosen_g2.h5"), "/xpcs/g2");
        r = run(low, {"--device", "ocl:0", "--variant", "multitau"});
        QVERIFY2(r.code == 0 && !r.err.contains("variant sparse"), qPrintable(r.err));
        QVERIFY(sameArrays(chosen, readAt(path("chosen_g2.h5"), "/xpcs/g2")));
        r = run(high, {"--device", "ocl:0"});
        QVERIFY2(r.code == 0 && !r.err.contains("variant sparse"), qPrintable(r.err));
        r = run(low, {"--device", "cpu"});
        QVERIFY2(r.code == 0 && !r.err.contains("variant sparse"), qPrintable(r.err));
    }

    void longSeriesInBoundedMemory() {
        const QString in = path("long.h5");
        PYTHON("long", in, "100000");
        const char* limit = "4000000";
        {
            const MemoryLimit scoped(limit);
            const H5Reader file(in.toStdString());
            EXPECT_ERROR(InputError, readFrames(file), "needs");
            EXPECT_ERROR(InputError, file.read("/entry/data/sparse/pixel", DType::Int64), "needs");
            FrameStream stream(in.toStdString(), paths::frames);
            QCOMPARE(stream.frameCount(), std::size_t{100000});
            const std::size_t step = stream.framesWithin(1 << 20);
            std::uint64_t total = 0;
            for (std::size_t first = 0; first < stream.frameCount(); first += step) {
                const Array frames =
                    stream.read(first, std::min(step, stream.frameCount() - first));
                for (const std::uint16_t v : frames.as<std::uint16_t>())
                    total += v;
            }
            QVERIFY(total > 100000 * 256 * 0.03); // counts 1..3 at 3 %
        }
        const test::CliRun r = test::runCli(
            {"correlate", in, "--device", "cpu", "--multitau", "-o", path("long_g2.h5")},
            {{"CLSCOPE_MEMORY_LIMIT", limit}});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(readAt(path("long_g2.h5"), "/xpcs/g2").rank(), std::size_t{2});
        // The sparse variant on the host reads the entries block by block too: the same g2.
        const test::CliRun sparse =
            test::runCli({"correlate", in, "--device", "cpu", "--variant", "sparse-cpu",
                          "--multitau", "-o", path("long_sparse_g2.h5")},
                         {{"CLSCOPE_MEMORY_LIMIT", limit}});
        QVERIFY2(sparse.code == 0, qPrintable(sparse.err));
        QVERIFY(sameArrays(readAt(path("long_g2.h5"), "/xpcs/g2"),
                           readAt(path("long_sparse_g2.h5"), "/xpcs/g2")));
    }

    // 10⁶ frames of 16×16 at 2 % (5.1·10⁶ entries): under a 16 MB memory limit neither the dense
    // stack (512 MB) nor the pixel column (20 MB) can be read whole, and both sparse multi-tau
    // variants, `sparse` on the OpenCL device
    // and `sparse-cpu`, run block by block (what they hold for the series: its frame_ptr, 8 bytes
    // a frame, and the per-frame sums of the output) to the same g2 and g2_err bit for bit.
    void millionSparseFramesBoundedMemory() {
        const QString in = path("million.h5");
        PYTHON("long", in, "1000000", "0.02");
        const char* limit = "16000000";
        {
            const MemoryLimit scoped(limit);
            const H5Reader file(in.toStdString());
            EXPECT_ERROR(InputError, readFrames(file), "needs");
            EXPECT_ERROR(InputError, file.read("/entry/data/sparse/pixel", DType::Int32), "needs");
        }
        const QString device = path("million_sparse.h5"), host = path("million_cpu.h5");
        for (const auto& [where, variant, out] :
             {std::tuple{"ocl:0", "sparse", device}, std::tuple{"cpu", "sparse-cpu", host}}) {
            const test::CliRun r = test::runCli(
                {"correlate", in, "--device", where, "--variant", variant, "--multitau", "-o", out},
                {{"CLSCOPE_MEMORY_LIMIT", limit}});
            QVERIFY2(r.code == 0, qPrintable(r.err));
        }
        for (const char* name : {"/xpcs/g2", "/xpcs/g2_err"})
            QVERIFY2(sameArrays(readAt(device, name), readAt(host, name)), name);
        QVERIFY(readAt(device, "/xpcs/g2").shape()[1] > 100); // lags up to 2^16 frames and more
    }

    // A Rigaku 500k .bin file in boost_corr's layout (numpy-written, junk in the unused bits):
    // the frames boost_corr's reader finds (12-bit counts kept whole), a window of them, and
    // convert to the CSR layout; a file that is not whole words, or a frame out of order, is
    // bad input naming the file.
    void rigakuBinaryFrames() {
        const QString bin = path("rigaku.bin"), want = path("rigaku_dense.h5");
        PYTHON("rigaku", bin, want);
        const Array dense = readAt(want, paths::frames);
        FrameStream stream(bin.toStdString(), paths::frames);
        QCOMPARE(stream.frameCount(), std::size_t{5});
        QCOMPARE(stream.height(), std::size_t{512});
        QCOMPARE(stream.width(), std::size_t{1024});
        QVERIFY(sameArrays(stream.read(0, 5), dense));
        stream.window(1, 3);
        QVERIFY(sameArrays(stream.read(1, 2), Array(dense.frameView(2, 2))));
        const QString sparse = path("rigaku_sparse.h5");
        CLI_OK("convert", bin, "--to", "sparse", "-o", sparse);
        QVERIFY(sameArrays(readFrames(H5Reader(sparse.toStdString())), dense));
        // The .bin correlated as its words by both sparse variants (its labels from the dense
        // twin): the dense stack's multi-tau g2 bit for bit.
        const QStringList common{"--multitau", "--channels", "4", "--no-pixel-mask"};
        const QString reference = path("rigaku_g2.h5");
        CLI_OK(QStringList{"correlate", want, "--device", "cpu", "-o", reference} + common);
        for (const QStringList& variant :
             {QStringList{"--device", "cpu", "--variant", "sparse-cpu"},
              QStringList{"--device", "ocl:0", "--variant", "sparse"}}) {
            const QString got = path("rigaku_" + variant.last() + "_g2.h5");
            CLI_OK(QStringList{"correlate", bin, "--mask", want, "-o", got} + variant + common);
            QVERIFY(sameArrays(readAt(reference, "/xpcs/g2"), readAt(got, "/xpcs/g2")));
            QVERIFY(sameArrays(readAt(reference, "/xpcs/g2_err"), readAt(got, "/xpcs/g2_err")));
        }
        // The last file's scan is reused (RigakuFrames) only while the file stays: the same
        // file rewritten at the same size, its first and last words swapped, is scanned again.
        QFile same(bin);
        QVERIFY(same.open(QIODevice::ReadWrite));
        QByteArray words = same.readAll();
        const QByteArray first = words.left(8), last = words.right(8);
        words.replace(0, 8, last).replace(words.size() - 8, 8, first);
        QVERIFY(same.seek(0) && same.write(words) == words.size());
        same.close();
        QVERIFY_THROWS_EXCEPTION(InputError, FrameStream(bin.toStdString(), paths::frames));

        const QString disorder = path("rigaku_disorder.bin");
        PYTHON("rigaku", disorder, path("rigaku_disorder.h5"), "disorder");
        EXPECT_EXIT(test::runCli({"convert", disorder, "--to", "sparse", "-o", path("r.h5")}), 3,
                    disorder + ": word 300 (byte 2400): frame 2 after the last word's frame 0");
        const QString torn = path("rigaku_torn.bin");
        QFile f(torn);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("1234567", 7) == 7);
        f.close();
        EXPECT_EXIT(test::runCli({"convert", torn, "--to", "sparse", "-o", path("r.h5")}), 3,
                    torn + ": 7 bytes");
    }
};

QTEST_GUILESS_MAIN(TstSparse)
#include "tst_sparse.moc"
