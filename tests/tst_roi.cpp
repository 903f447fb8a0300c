// ROI time series (issue 53): `clscope-cli roi` on h5py-written frames (uint16 near the top,
// uint32, float32; a pixel mask) equals numpy's sums over the pixels whose centre lies in each
// rectangle and ring (tests/roi_reference.py), masked pixels left out; a live series fed frame
// by frame equals the file's; bad regions, a mask of another shape and an output that is the
// input are refused with one message and nothing written.
#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/hdf5.hpp"
#include "core/roi/roi.hpp"
#include "test_util.hpp"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace clscope;

// A reference step: skipped without h5py, failed on a difference.
#define PY(call)                                                                                   \
    do {                                                                                           \
        const bool ok_ = (call);                                                                   \
        if (!skip_.isEmpty()) QSKIP(qPrintable(skip_));                                            \
        QVERIFY(ok_);                                                                              \
    } while (false)

namespace {

const QString rects = "10,10,50,40;0,0,5.5,3;4,4,10,10";
const QString rings = "26.5,20.5,5,12.25;0,0,0,3;30,30,100,101";

} // namespace

class TestRoi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // The reference script; false when it failed or was skipped (`skip_` says why).
    bool python(const QStringList& args) {
        return test::runPython(QStringList{CLSCOPE_ROI_REFERENCE} + args, skip_) && skip_.isEmpty();
    }
    QString skip_;

  private slots:
    void equalsNumpy_data() {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<bool>("masked");
        QTest::newRow("uint16") << "uint16" << false;
        QTest::newRow("uint16, pixel mask") << "uint16" << true;
        QTest::newRow("uint32") << "uint32" << true;
        QTest::newRow("float32") << "float32" << false;
    }
    void equalsNumpy() {
        QFETCH(QString, dtype);
        QFETCH(bool, masked);
        const QString frames = dir_.filePath(dtype + ".h5"), out = dir_.filePath("roi.h5");
        PY(python({"write", frames, dtype}));
        QStringList args{"roi", frames, "--rects", rects, "--rings", rings, "-o", out};
        if (masked)
            args << "--pixel-mask"
                 << "/entry/instrument/detector/pixel_mask";
        const auto run = test::runCli(args);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY(run.out.contains("6 regions over 6 frames"));
        PY(python({"check", frames, out, rects, rings, masked ? "1" : "0"}));
    }

    // The GUI's live series: frames added one at a time give the file's sums.
    void liveSeriesEqualsTheFiles() {
        const QString frames = dir_.filePath("live.h5");
        PY(python({"write", frames, "uint16"}));
        const FrameStream stream(frames.toStdString(), "/entry/data/data");
        std::vector<roi::Region> regions =
            roi::parseRegions(rects.toStdString(), roi::Region::Kind::Rect, "--rects");
        const roi::Series whole = roi::seriesOf(stream, regions);
        roi::Series live(regions, stream.height(), stream.width());
        for (std::size_t t = 0; t < stream.frameCount(); ++t)
            live.add(stream.read(t, 1));
        QCOMPARE(live.frames(), whole.frames());
        for (std::size_t r = 0; r < regions.size(); ++r)
            QCOMPARE(live.sums(r), whole.sums(r));
        QVERIFY(roi::seriesCsv(live).starts_with("frame,region,pixels,sum,mean\n0,rect 1,1200,"));
    }

    // An event list (tests/sparse_files.py edges: pixel, time in ns) read as the frames it is
    // binned into (--frame-time): each frame's sum the events it holds; none without a width.
    void eventListBinnedByTheFrameTime() {
        const QString events = dir_.filePath("events.h5"), out = dir_.filePath("events_roi.h5");
        QString skip;
        QVERIFY(test::runPython({CLSCOPE_SPARSE_FILES, "edges", events}, skip));
        if (!skip.isEmpty()) QSKIP(qPrintable(skip));
        const auto none = test::runCli(
            {"roi", events, "--data", "/entry/data/events", "--rects", "0,0,3,2", "-o", out});
        QCOMPARE(none.code, 2);
        QVERIFY2(none.err.contains("--frame-time SECONDS"), qPrintable(none.err));
        const auto run = test::runCli({"roi", events, "--data", "/entry/data/events", "--rects",
                                       "0,0,3,2", "--frame-time", "0.001", "-o", out});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const Array sums = H5Reader(out.toStdString()).read("/roi/sum");
        const auto got = sums.as<double>();
        QCOMPARE(std::vector<double>(got.begin(), got.end()), (std::vector<double>{2, 4, 0, 1}));
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("x1 <= x0") << QStringList{"--rects", "10,10,5,40"}
                                  << "--rects: '10,10,5,40'";
        QTest::newRow("three numbers") << QStringList{"--rings", "1,2,3"} << "--rings: '1,2,3'";
        QTest::newRow("not a number") << QStringList{"--rects", "1,2,x,4"} << "'1,2,x,4'";
        QTest::newRow("r0 < 0") << QStringList{"--rings", "1,2,-1,4"} << "0 <= r0 < r1";
        QTest::newRow("no region") << QStringList{} << "no region";
        QTest::newRow("mask of another shape")
            << QStringList{"--rects", "1,1,4,4", "--pixel-mask", "/entry/small_mask"}
            << "/entry/small_mask";
        QTest::newRow("no such dataset")
            << QStringList{"--rects", "1,1,4,4", "--data", "/entry/none"} << "/entry/none";
    }
    void refusals() {
        QFETCH(QStringList, options);
        QFETCH(QString, message);
        const QString frames = dir_.filePath("refused.h5"), out = dir_.filePath("never.h5");
        PY(python({"write", frames, "uint16"}));
        const auto run = test::runCli(QStringList{"roi", frames, "-o", out} + options);
        QVERIFY2(run.code == 2 || run.code == 3, qPrintable(run.err));
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void outputThatIsTheInputIsRefused() {
        const QString frames = dir_.filePath("self.h5");
        PY(python({"write", frames, "uint16"}));
        const QByteArray before = test::readAll(frames);
        const auto run = test::runCli({"roi", frames, "--rects", "1,1,4,4", "-o", frames});
        QCOMPARE(run.code, 2);
        QCOMPARE(test::readAll(frames), before);
    }
};

QTEST_GUILESS_MAIN(TestRoi)
#include "tst_roi.moc"
