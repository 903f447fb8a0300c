// clscope-cli over a detector stream (DESIGN.md §4 "Live input"): spots and correlate
// --multitau over tests/stream_publisher.py, raw and bslz4, write the datasets the runs over
// the same file write; a silent stream and a malformed message are exit 3 with nothing written.
#include "core/hdf5.hpp"
#include "registry_cases.hpp"
#include "stream_publisher.hpp"
#include "test_util.hpp"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <nlohmann/json.hpp>

using namespace clscope;
using clscope::test::Publisher;
using clscope::test::runCli;

namespace {

QString inDir(const QTemporaryDir& dir, const QString& name) {
    return dir.filePath(name);
}

// 4 frames of 5x6 uint16 with a pixel mask, a frame time and labels.
QString framesFile() {
    return QString::fromStdString(test::dataFile("h5py_frames.h5"));
}

// Runs `command` over the file (with `fileOnly`) and over the publisher streaming it
// (`compression`, `publisher` options, with `streamOnly`), each to its own output, and checks
// that both succeed and write the same datasets; the stream run's log.
QString compareFileAndStream(const QTemporaryDir& dir, const QStringList& command,
                             const QString& file, const QString& compression,
                             const QStringList& streamOnly, const QStringList& fileOnly = {},
                             const QStringList& publisher = {}, const QString& timeout = "20") {
    const QString fromFile = inDir(dir, "file.h5"), fromStream = inDir(dir, "stream.h5");
    const auto a = runCli(command + fileOnly + QStringList{file, "-o", fromFile});
    [&] { QVERIFY2(a.code == 0, qPrintable(a.err)); }();
    Publisher pub(QStringList{file, "--compression", compression} + publisher);
    [&] { QVERIFY(!pub.endpoint.empty()); }();
    const auto b = runCli(
        command + streamOnly +
        QStringList{QString::fromStdString(pub.endpoint), "--timeout", timeout, "-o", fromStream});
    [&] {
        QVERIFY2(b.code == 0, qPrintable(b.err));
        QVERIFY2(b.err.contains("frames received"), qPrintable(b.err));
    }();
    if (QTest::currentTestFailed()) return b.err;
    int compared = 0;
    test::compareTrees(H5Reader(fromFile.toStdString()), H5Reader(fromStream.toStdString()), "/",
                       compared);
    if (!QTest::currentTestFailed()) [&] { QVERIFY(compared > 2); }();
    return b.err;
}

} // namespace

class TestStreamCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    // `bench stream --size small --threads 1` and `more`, its --json output (`name` in the test
    // directory); empty, `err` saying why, where it failed.
    nlohmann::json benchStreamJson(const QString& name, const QStringList& more, QString& err) {
        const QString json = inDir(dir, name);
        const auto r = runCli(
            QStringList{"bench", "stream", "--size", "small", "--threads", "1", "--json", json} +
            more);
        QFile f(json);
        if (r.code != 0 || !f.open(QIODevice::ReadOnly)) {
            err = r.code != 0 ? r.err : "no " + json;
            return {};
        }
        return nlohmann::json::parse(f.readAll().toStdString());
    }
    QString spotsFile, xpcsFile;

  private slots:
    void initTestCase() {
        if (const QString missing = test::publisherMissing(); !missing.isEmpty())
            QSKIP(qPrintable(missing));
        spotsFile = inDir(dir, "diffraction.h5"), xpcsFile = inDir(dir, "xpcs.h5");
        const auto d = runCli({"generate", "diffraction", "--frames", "6", "--height", "64",
                               "--width", "80", "--spots", "5", "--gaps", "-o", spotsFile});
        QVERIFY2(d.code == 0, qPrintable(d.err));
        const auto x = runCli({"generate", "xpcs", "--frames", "64", "--height", "32", "--width",
                               "40", "--ring-width", "4", "--dtype", "uint16", "--frame-time",
                               "0.001", "-o", xpcsFile});
        QVERIFY2(x.code == 0, qPrintable(x.err));
    }

    // h5py_frames.h5: its pixel mask and frame time come with the start message.
    void spotsOverStreamEqualsFile_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("compression");
        QTest::addColumn<QStringList>("more");
        QTest::newRow("raw") << spotsFile << "raw" << QStringList{};
        QTest::newRow("bslz4, 2 frames a pass")
            << spotsFile << "bslz4" << QStringList{"--memory-budget", "40K"};
        QTest::newRow("pixel mask") << framesFile() << "raw" << QStringList{};
    }
    void spotsOverStreamEqualsFile() {
        QFETCH(QString, file);
        QFETCH(QString, compression);
        QFETCH(QStringList, more);
        compareFileAndStream(dir, {"spots", "--device", "cpu"}, file, compression, more);
    }

    // The labels from the file (--mask).
    void multitauOverStreamEqualsFile_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("compression");
        QTest::addColumn<QString>("device");
        QTest::newRow("raw") << xpcsFile << "raw"
                             << "cpu";
        QTest::newRow("bslz4") << xpcsFile << "bslz4"
                               << "cpu";
        QTest::newRow("pixel mask") << framesFile() << "bslz4"
                                    << "cpu";
        // The OpenCL variant reads its blocks on a thread of its own.
        QTest::newRow("OpenCL variant") << xpcsFile << "bslz4"
                                        << "ocl:0";
    }
    void multitauOverStreamEqualsFile() {
        QFETCH(QString, file);
        QFETCH(QString, compression);
        QFETCH(QString, device);
        compareFileAndStream(dir,
                             {"correlate", "--multitau", "--channels", "4", "--device", device},
                             file, compression, {"--mask", file});
    }

    void maxFramesEqualsTheFramesRange() {
        compareFileAndStream(dir, {"spots", "--device", "cpu"}, spotsFile, "bslz4",
                             {"--max-frames", "4"}, {"--frames", "0:4"});
    }

    // A series that ends early gives the file of the frames that came (DESIGN.md §4): its end
    // message after 4 of the 6 frames announced, or no message for --timeout after them.
    void earlyEndIsTheFramesThatCame_data() {
        QTest::addColumn<QStringList>("publisher");
        QTest::addColumn<QString>("timeout");
        QTest::addColumn<QString>("why");
        QTest::newRow("end message") << QStringList{"--count", "4"} << "20"
                                     << "its end message";
        QTest::newRow("timeout") << QStringList{"--count", "4", "--no-end", "10"} << "0.5"
                                 << "no message in 0.5 s";
    }
    void earlyEndIsTheFramesThatCame() {
        QFETCH(QStringList, publisher);
        QFETCH(QString, timeout);
        QFETCH(QString, why);
        const QString log =
            compareFileAndStream(dir, {"spots", "--device", "cpu"}, spotsFile, "bslz4", {},
                                 {"--frames", "0:4"}, publisher, timeout);
        QVERIFY2(log.contains("4 of 6 frames received (announced; the series ended early: " + why +
                              "): the output holds those 4"),
                 qPrintable(log));
    }

    // A start message of header_detail basic has no pixel mask: none is used (the run equals
    // the file's with --no-pixel-mask) and the log says so.
    void basicHeaderHasNoMask() {
        const QString log = compareFileAndStream(
            dir, {"correlate", "--multitau", "--channels", "4", "--device", "cpu"}, framesFile(),
            "bslz4", {"--mask", framesFile()}, {"--no-pixel-mask"}, {"--header-detail", "basic"});
        QVERIFY2(log.contains("no pixel mask in the start message (header_detail basic): none "
                              "used"),
                 qPrintable(log));
    }

    // --stream-channel names a channel the series does not send: exit 3, nothing written
    // (tst_stream::channelPicked reads the second channel).
    void unknownStreamChannelIsBadInput() {
        Publisher pub({xpcsFile, "--channels", "2", "--header-detail", "all"});
        const QString out = inDir(dir, "channel.h5");
        const auto r = runCli({"spots", QString::fromStdString(pub.endpoint), "--device", "cpu",
                               "--stream-channel", "threshold_9", "--timeout", "20", "-o", out});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("no channel 'threshold_9'"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    // A gap in the image numbers (another PULL client took images 2 and 3) is exit 3 saying so.
    void gapIsBadInput() {
        Publisher pub({spotsFile, "--compression", "bslz4", "--skip", "2,3"});
        const QString out = inDir(dir, "gap.h5");
        const auto r = runCli({"spots", QString::fromStdString(pub.endpoint), "--device", "cpu",
                               "--timeout", "20", "-o", out});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("a gap in image_id: image 4 after image 1, 2 images (2..3) "
                                "missing"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("2 of 6 frames received before the gap"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }
    void refusedOnStream_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("expected");
        QTest::newRow("dense") << QStringList{"--mask", xpcsFile}
                               << "correlate on a stream is multi-tau";
        QTest::newRow("two-time") << QStringList{"--mask", xpcsFile, "--multitau", "--twotime", "1"}
                                  << "--twotime on a stream";
        QTest::newRow("no labels") << QStringList{"--multitau"} << "give the labels with --mask";
    }
    void refusedOnStream() {
        QFETCH(QStringList, options);
        QFETCH(QString, expected);
        Publisher pub({xpcsFile});
        const QString out = inDir(dir, "refused.h5");
        const auto r = runCli(QStringList{"correlate", QString::fromStdString(pub.endpoint),
                                          "--device", "cpu", "-o", out} +
                              options);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void silentStreamIsNoData() {
        Publisher pub({xpcsFile, "--silent", "10"});
        const QString out = inDir(dir, "silent.h5");
        const auto r = runCli({"spots", QString::fromStdString(pub.endpoint), "--device", "cpu",
                               "--timeout", "0.5", "-o", out});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("no data: no message in 0.5 s"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    // No HDF5 probe (core/hdf5_probe.cpp) forks once the stream's threads run: the start
    // message's datasets, written by clscope, are never probed; --mask's file is, before the
    // connection. A fork while the decoding threads allocated hung the probe's child under
    // ASan ("tcp://...: the HDF5 library hung reading it", exit 3 after 60 s).
    void noProbeOfTheStream() {
        Publisher pub({xpcsFile, "--compression", "bslz4"});
        const auto r =
            runCli({"correlate", QString::fromStdString(pub.endpoint), "--multitau", "--device",
                    "cpu", "--mask", xpcsFile, "--timeout", "20", "-o", inDir(dir, "probed.h5")},
                   {{"CLSCOPE_PROBE_VERBOSE", "1"}});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("probe of tcp://"), qPrintable(r.err));
        QVERIFY2(r.err.contains("probe of " + xpcsFile), qPrintable(r.err));
    }

    void malformedMessageNamesMessageAndField_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no image_id") << "missing-image-id"
                                     << "image message: field 'image_id'";
        QTest::newRow("truncated bslz4") << "truncated-bslz4"
                                         << "image message: field 'data.threshold_1";
    }
    void malformedMessageNamesMessageAndField() {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        Publisher pub({spotsFile, "--compression", "bslz4", "--malformed", kind});
        const QString out = inDir(dir, "malformed.h5");
        const auto r = runCli({"spots", QString::fromStdString(pub.endpoint), "--device", "cpu",
                               "--timeout", "20", "-o", out});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }
    // bench stream's bounds: every stage's line, the device's decode and upload included, each
    // with all the frames sent (a line that lost frames or failed would not be there).
    void benchStreamHasEveryStage() {
        QString err;
        const auto j =
            benchStreamJson("bench_stream.json", {"--frames", "16", "--device", "ocl:0"}, err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QCOMPARE(j["frames"].get<int>(), 16);
        QStringList stages;
        for (const auto& line : j["lines"]) {
            stages << QString::fromStdString(line["what"].get<std::string>()).section(' ', 0, 2);
            QVERIFY(line["frames_per_s"].get<double>() > 0);
        }
        for (const char* stage : {"decode from memory", "decode on the", "upload only (ocl:0,",
                                  "receive only (ZeroMQ", "receive + decode"})
            QVERIFY2(stages.contains(QString(stage)), qPrintable(stages.join(" | ")));
    }

    // Several devices: each device's decode and upload lines run before the timed run, so that
    // every lane starts as warm as the first.
    void benchStreamWarmsEveryDevice() {
        QString err;
        const auto j = benchStreamJson("bench_stream_devices.json",
                                       {"--frames", "8", "--device", "ocl:0,ocl:0"}, err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        int decoded = 0, uploaded = 0;
        for (const auto& line : j["lines"]) {
            const std::string what = line["what"].get<std::string>();
            decoded += what.rfind("decode on the device (ocl:0,", 0) == 0;
            uploaded += what.rfind("upload only (ocl:0,", 0) == 0;
        }
        QCOMPARE(decoded, 2);
        QCOMPARE(uploaded, 2);
    }

    // --file: the same frames from an HDF5 file of bslz4 chunks, read as stored and through
    // --then's algorithm (the chunks decoded on the device); the file is removed after.
    void benchStreamFileLines() {
        QString err;
        const auto j = benchStreamJson(
            "bench_stream_file.json",
            {"--frames", "12", "--device", "ocl:0", "--file", "--then", "spots"}, err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QStringList lines;
        for (const auto& line : j["lines"])
            lines << QString::fromStdString(line["what"].get<std::string>() + ": " +
                                            line["note"].get<std::string>());
        const QString all = lines.join("\n");
        QVERIFY2(all.contains("file read (bslz4 chunks as stored): 12 frames"), qPrintable(all));
        QVERIFY2(all.contains(QRegularExpression("bslz4 file \\+ spots \\w+ \\(.*12 frames "
                                                 "decoded on the device")),
                 qPrintable(all));
        QVERIFY(j.contains("then_file"));
        QVERIFY(QDir(QDir::tempPath()).entryList({"clscope-bench-stream-*"}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestStreamCli)
#include "tst_stream_cli.moc"
