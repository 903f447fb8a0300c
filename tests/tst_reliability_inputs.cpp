// No crash, hang or garbage on damaged or extreme inputs (issue 13), second part: values at
// the ends of their dtype, a shape that declares more than the file stores, and the inputs
// the libFuzzer target fuzz_hdf5 found (tests/fuzz/corpus/crash-*), each through clscope-cli
// as a user would run it. The first part is tst_reliability.cpp.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "test_util.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>

using namespace clscope;

namespace {

using Run = clscope::test::CliRun;

// The clscope-cli beside this test is built with ASan as this test is (build-asan).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool asanBuild = true;
#elif defined(__has_feature)
constexpr bool asanBuild = __has_feature(address_sanitizer);
#else
constexpr bool asanBuild = false;
#endif

using clscope::test::readAll;

void writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

// (5,4,4) frames all equal to value, labels of ones, no compression (contiguous storage).
template <class T> void writeConstant(const std::string& file, T value) {
    H5Writer w(file);
    w.write(paths::frames, makeArray<T>({5, 4, 4}, std::vector<T>(80, value)));
    w.write(paths::qmask, makeArray<std::int32_t>({4, 4}, std::vector<std::int32_t>(16, 1)));
    w.commit();
}

// The little-endian bytes of the 64-bit dimensions as HDF5's dataspace message stores them.
QByteArray dims64(std::initializer_list<quint64> dims) {
    QByteArray out;
    for (quint64 d : dims)
        for (int b = 0; b < 8; ++b)
            out.append(static_cast<char>((d >> (8 * b)) & 0xFF));
    return out;
}

} // namespace

class TestReliabilityInputs : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString path(const QString& name) const { return tmp.filePath(name); }

  private slots:
    // Constant frames at the ends of uint32 and int32 (EIGER's 2^32-1 sentinel, -2^31) gave
    // g2 != 1 (signed overflow) and g2 = 0: through the CLI they give exactly 1.
    void constantExtremeFrames() {
        writeConstant<std::uint32_t>(path("u32.h5").toStdString(), UINT32_MAX);
        writeConstant<std::int32_t>(path("i32.h5").toStdString(), INT32_MIN);
        for (const QString name : {"u32.h5", "i32.h5"}) {
            const QString out = path("g2_" + name);
            const Run r = test::runCli({"correlate", path(name), "--device", "cpu", "-o", out});
            QVERIFY2(r.code == 0, qPrintable(name + ": " + r.err));
            const Array g2 = H5Reader(out.toStdString()).read("/xpcs/g2", DType::Float64);
            QVERIFY(g2.size() > 0);
            for (double v : g2.as<double>())
                QVERIFY2(v == 1.0, qPrintable(name + ": g2 " + QString::number(v, 'g', 17)));
        }
    }

    // A file of 8 KB whose frames declare (8, 67108880, 16) (8.5 GB): refused at once, naming
    // file, dataset and the bytes, before anything of that size is allocated.
    void declaredShapeBeyondStorage() {
        const QString good = path("raw.h5");
        {
            H5Writer w(good.toStdString());
            w.write(paths::frames,
                    makeArray<std::uint8_t>({8, 16, 16}, std::vector<std::uint8_t>(2048, 7)));
            w.write(paths::qmask,
                    makeArray<std::int32_t>({16, 16}, std::vector<std::int32_t>(256, 1)));
            w.commit();
        }
        QByteArray bytes = readAll(good);
        const QByteArray from = dims64({8, 16, 16}), to = dims64({8, 67108880, 16});
        const qsizetype at = bytes.indexOf(from);
        QVERIFY(at >= 0);
        bytes.replace(at, from.size(), to);
        const QString bad = path("declared.h5"), out = path("d_out.h5");
        writeAll(bad, bytes);
        QElapsedTimer clock;
        clock.start();
        const Run r = test::runCli({"correlate", bad, "--device", "cpu", "-o", out});
        QVERIFY2(r.code == 3, qPrintable(QString::number(r.code) + " " + r.err));
        QVERIFY2(r.err.contains(bad + ":/entry/data/data") && r.err.contains("8589936640"),
                 qPrintable(r.err));
        QVERIFY(clock.elapsed() < 10000);
        QVERIFY(!QFile::exists(out));
        QCOMPARE(readAll(bad), bytes);
    }

    // Memory: on a CPU OpenCL device (PoCL) the Gram matrices of 1000 frames (16 MiB a bin and
    // slot) no longer all live beside the frames: the bins run in groups, with the same g2 as
    // the cpu reference (bit for bit) and the same errors (to rounding), also in chunks of rows.
    void groupedBinsMatchCpu() {
        const QString in = path("long.h5");
        QCOMPARE(test::runCli({"generate", "xpcs", "-o", in, "--frames", "1000", "--height", "32",
                               "--width", "32", "--ring-width", "4", "--seed", "3"})
                     .code,
                 0);
        std::vector<Array> g2, err;
        // cpu, then PoCL whole, then PoCL in chunks of rows (rectangular uploads).
        const QList<QStringList> runs{{"--device", "cpu"},
                                      {"--device", "ocl:0"},
                                      {"--device", "ocl:0", "--chunk-pixels", "200"}};
        for (const QStringList& run : runs) {
            const QString out = path(QString("long_%1.h5").arg(g2.size()));
            const Run r = test::runCli(QStringList{"correlate", in, "-o", out} + run);
            QVERIFY2(r.code == 0, qPrintable(run.join(' ') + ": " + r.err));
            const H5Reader result(out.toStdString());
            g2.push_back(result.read("/xpcs/g2", DType::Float64));
            err.push_back(result.read("/xpcs/g2_err", DType::Float64));
        }
        for (std::size_t k = 1; k < g2.size(); ++k) {
            QCOMPARE(g2[k].shape(), g2[0].shape());
            QVERIFY(std::memcmp(g2[0].bytes(), g2[k].bytes(), g2[0].byteSize()) == 0);
            for (std::size_t i = 0; i < err[0].size(); ++i) {
                const double a = err[0].as<double>()[i], b = err[k].as<double>()[i];
                QVERIFY2(std::abs(a - b) <= 1e-12 * std::abs(a) || (std::isnan(a) && std::isnan(b)),
                         qPrintable(QString("g2_err %1: %2 vs %3").arg(i).arg(a).arg(b)));
            }
        }
        QVERIFY(g2[0].shape()[0] >= 3); // several bins, so several groups
    }

    // Every input fuzz_hdf5 crashed on, run through the command that reads its roles: exit 3
    // with the file named, or exit 0, never a crash; the input is left as it was.
    void fuzzCrashers() {
        const QDir corpus(QString::fromStdString(test::dataFile("../fuzz/corpus")));
        const QStringList crashers = corpus.entryList({"crash-*"}, QDir::Files);
        QVERIFY(!crashers.isEmpty());
        for (const QString& name : crashers) {
            const QString input = corpus.filePath(name), out = path("f_out.h5");
            const QByteArray before = readAll(input);
            for (const char* command : {"correlate", "rbf", "cluster"}) {
                const Run r = test::runCli({command, input, "--device", "cpu", "-o", out});
                QVERIFY2(r.code == 0 || (r.code == 3 && r.err.contains(input)),
                         qPrintable(name + " " + command + ": exit " + QString::number(r.code) +
                                    " " + r.err));
                QFile::remove(out);
            }
            QCOMPARE(readAll(input), before);
        }
    }

    // Inputs on which Debian's libhdf5 1.10.8 itself crashes or hangs (tests/fuzz/corpus/
    // libhdf5-*): the forked probe (core/hdf5_probe.cpp) turns them into exit 3 naming the file
    // and saying what the library did, no output and no dead process. libhdf5-crash-h5g-link-*
    // is an invalid free that glibc's free() does not always catch: exit 3 all the same.
    void libhdf5Crashers() {
        const QDir corpus(QString::fromStdString(test::dataFile("../fuzz/corpus")));
        const QStringList inputs = corpus.entryList({"libhdf5-*"}, QDir::Files);
        QVERIFY(inputs.size() >= 6);
        for (const QString& name : inputs) {
            const QString input = corpus.filePath(name), out = path("l_out.h5");
            const QByteArray before = readAll(input);
            QElapsedTimer clock;
            clock.start();
            const Run r = test::runCli({"correlate", input, "--device", "cpu", "-o", out},
                                       {{"CLSCOPE_PROBE_SECONDS", "3"}});
            const QString why = name + ": exit " + QString::number(r.code) + " " + r.err;
            QVERIFY2(r.code == 3 && r.err.contains(input), qPrintable(why));
            if (name.contains("timeout")) {
                QVERIFY2(r.err.contains("the HDF5 library hung reading it (no answer in 3 s): "
                                        "the file is damaged"),
                         qPrintable(why));
                QVERIFY2(clock.elapsed() < 60000, qPrintable(why));
            } else if (name.contains("segv") || name.contains("null")) {
                // A signal; in a sanitizer build ASan's SEGV handler reports it and exits 1.
                // Whether libhdf5 faults on these at all is undefined behaviour that follows the
                // heap's layout (here: the length of the checkout's path); when it does not, the
                // reader's own refusal of the damaged file is the answer.
                const bool crashed =
                    r.err.contains(asanBuild ? "crashed reading it (exit status 1)"
                                             : "the HDF5 library crashed reading it (signal");
                QVERIFY2(crashed || r.err.contains("bad input: " + input), qPrintable(why));
            }
            QVERIFY(!QFile::exists(out));
            QVERIFY(QDir(tmp.path()).entryList({".*tmp*"}, QDir::Files | QDir::Hidden).isEmpty());
            QCOMPARE(readAll(input), before);
        }
    }

    // The GUI's case: the probe forks a process whose other threads are busy (allocating,
    // throwing, reading another HDF5 file through the shared lock). Each libhdf5 crasher opened
    // in-process is an InputError naming the file, the process lives on, and no probe
    // deadlocks in its child.
    void probeAmongThreads() {
        qputenv("CLSCOPE_PROBE_SECONDS", "3");
        const std::string good = path("good.h5").toStdString();
        writeConstant<std::uint16_t>(good, 7);
        std::atomic<bool> stop{false};
        std::vector<std::thread> busy;
        for (int t = 0; t < 3; ++t)
            busy.emplace_back([&, t] {
                while (!stop) {
                    std::vector<std::string> junk(64, std::string(100 + t, 'x'));
                    try {
                        if (t == 0) H5Reader(good).read(paths::frames);
                        throw std::runtime_error(junk.back());
                    } catch (const std::exception&) {
                    }
                }
            });
        const QDir corpus(QString::fromStdString(test::dataFile("../fuzz/corpus")));
        int refused = 0;
        for (const QString& name : corpus.entryList({"libhdf5-*"}, QDir::Files)) {
            const std::string input = corpus.filePath(name).toStdString();
            try {
                const H5Reader file(input);
                readFrames(file);
            } catch (const InputError& e) {
                refused += std::string(e.what()).find(input) != std::string::npos;
            }
        }
        stop = true;
        for (std::thread& t : busy)
            t.join();
        qunsetenv("CLSCOPE_PROBE_SECONDS");
        QVERIFY(refused >= 6);
    }
};

QTEST_GUILESS_MAIN(TestReliabilityInputs)
#include "tst_reliability_inputs.moc"
