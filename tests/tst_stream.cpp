// Live input (DECTRIS Stream V2): frames from tests/stream_publisher.py, raw and compressed,
// equal the file's frames; malformed messages and a silent stream are InputErrors that say
// which message and field, or how long it waited.
#include "core/azint/header_geometry.hpp"
#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/hdf5.hpp"
#include "core/stream/live_frames.hpp"
#include "core/stream/stream_source.hpp"
#include "core/stream/stream_v2.hpp"
#include "stream_publisher.hpp"
#include "test_util.hpp"

#include <chrono>
#include <cstring>
#include <thread>

using namespace clscope;
using namespace clscope::stream;
using clscope::test::Publisher;

namespace {

QStringList fileArgs(const std::string& name, const QStringList& more) {
    return QStringList{QString::fromStdString(test::dataFile(name))} + more;
}

// Every frame of the source, read `chunk` at a time, as one (T,H,W) array.
Array readAll(FrameSource& source, std::size_t chunk) {
    std::vector<Array> parts;
    std::size_t total = 0;
    while (auto part = source.read(chunk)) {
        total += part->frameCount();
        parts.push_back(std::move(*part));
    }
    Array all(source.dtype(), {total, source.height(), source.width()});
    std::size_t at = 0;
    for (const Array& p : parts) {
        std::memcpy(all.bytes() + at, p.bytes(), p.byteSize());
        at += p.byteSize();
    }
    return all;
}

bool sameArray(const Array& a, const Array& b) {
    return a.dtype() == b.dtype() && a.shape() == b.shape() &&
           std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0;
}

SourceOptions options(const Publisher& p, double timeout = 20) {
    SourceOptions o;
    o.endpoint = p.endpoint;
    o.timeoutSeconds = timeout;
    o.queueFrames = 4;
    return o;
}

// The InputError message of f(), or "" when it throws none.
template <class F> QString inputError(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestStream : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        if (const QString missing = test::publisherMissing(); !missing.isEmpty())
            QSKIP(qPrintable(missing));
    }

    void framesEqualTheFile_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("chunk");
        const QString stack = "entry/data/data";
        QTest::newRow("u16 raw") << "h5py_frames.h5" << stack << QStringList{} << 1;
        QTest::newRow("u16 bslz4")
            << "h5py_frames.h5" << stack << QStringList{"--compression", "bslz4"} << 3;
        QTest::newRow("u8 bslz4, blocks of 64")
            << "xpcs_small.h5" << stack << QStringList{"--compression", "bslz4", "--block", "64"}
            << 16;
        QTest::newRow("u32 lz4, blocks of 16 B")
            << "h5py_frames.h5"
            << "u32" << QStringList{"--compression", "lz4", "--block", "16"} << 2;
        QTest::newRow("i32 bslz4") << "h5py_frames.h5"
                                   << "i32" << QStringList{"--compression", "bslz4"} << 4;
        QTest::newRow("f32 big-endian") << "h5py_frames.h5"
                                        << "f32" << QStringList{"--big-endian"} << 4;
        QTest::newRow("f64 big-endian bslz4")
            << "h5py_frames.h5"
            << "f64" << QStringList{"--big-endian", "--compression", "bslz4"} << 4;
    }
    void framesEqualTheFile() {
        QFETCH(QString, file);
        QFETCH(QString, dataset);
        QFETCH(QStringList, args);
        QFETCH(int, chunk);
        Publisher pub(fileArgs(file.toStdString(), QStringList{"--dataset", dataset} + args));
        QVERIFY(!pub.endpoint.empty());
        FrameSource source(options(pub));
        const H5Reader h5(test::dataFile(file.toStdString()));
        const Array expected = h5.read("/" + dataset.toStdString());
        QVERIFY(sameArray(readAll(source, std::size_t(chunk)), expected));
        QCOMPARE(source.framesRead(), std::uint64_t(expected.frameCount()));
        QCOMPARE(source.start().numberOfImages, std::uint64_t(expected.frameCount()));
        QCOMPARE(source.start().seriesId, std::uint64_t(7));
    }

    void startCarriesMaskAndFrameTime() {
        Publisher pub(fileArgs("h5py_frames.h5", {"--compression", "bslz4"}));
        FrameSource source(options(pub));
        const H5Reader h5(test::dataFile("h5py_frames.h5"));
        QVERIFY(
            sameArray(source.start().pixelMask, h5.read("/entry/instrument/detector/pixel_mask")));
        QCOMPARE(source.start().frameTime, 0.002);
        QCOMPARE(source.start().channel, std::string("threshold_1"));
    }

    // Issue 53: the detector geometry DECTRIS sends (beam centre in pixels, the detector's
    // translation and pixel size in m, wavelength in Å; or detector_distance, as some
    // publishers send it) as PONI parameters: poni = beam centre × pixel size; none when not
    // sent.
    void startCarriesTheGeometry_data() {
        QTest::addColumn<QStringList>("distance");
        QTest::newRow("detector_translation") << QStringList{};
        QTest::newRow("detector_distance") << QStringList{"--distance-field"};
    }
    void startCarriesTheGeometry() {
        QFETCH(QStringList, distance);
        Publisher pub(
            fileArgs("h5py_frames.h5",
                     QStringList{"--geometry", "10.5,20.25,0.12,0.9,0.000075"} + distance));
        FrameSource source(options(pub));
        const auto g = azint::headerGeometry(source.start());
        QVERIFY(g.has_value());
        QCOMPARE(g->poni1, 20.25 * 75e-6);
        QCOMPARE(g->poni2, 10.5 * 75e-6);
        QCOMPARE(g->pixel1, 75e-6);
        QCOMPARE(g->dist, 0.12);
        QCOMPARE(g->wavelength, 0.9e-10);
        QCOMPARE(g->rot1 + g->rot2 + g->rot3, 0.0);
        QCOMPARE(g->width, source.start().width);
        Publisher plain(fileArgs("h5py_frames.h5", {}));
        QVERIFY(!FrameSource(options(plain)).start().detector);
    }

    // header_detail basic leaves out the pixel mask, none the frame time too: taken as absent.
    void headerDetailLeavesOutMaskAndFrameTime_data() {
        QTest::addColumn<QString>("detail");
        QTest::addColumn<double>("frameTime");
        QTest::newRow("basic") << "basic" << 0.002;
        QTest::newRow("none") << "none" << 0.0;
    }
    void headerDetailLeavesOutMaskAndFrameTime() {
        QFETCH(QString, detail);
        QFETCH(double, frameTime);
        Publisher pub(fileArgs("h5py_frames.h5", {"--header-detail", detail}));
        LiveFrames live(options(pub));
        QCOMPARE(QString::fromStdString(live.start().headerDetail), detail);
        QCOMPARE(live.start().pixelMask.size(), std::size_t(0));
        QCOMPARE(live.start().frameTime, frameTime);
        QCOMPARE(live.absent("pixel mask"), "no pixel mask in the start message (header_detail " +
                                                detail.toStdString() + "): none used");
        QCOMPARE(live.read(0, 4).frameCount(), std::size_t(4));
    }

    // Multi-channel images: the first channel by default, another by name (the publisher's
    // channel k sends the frame + k - 1); a channel the series does not send is refused.
    void channelPicked() {
        const H5Reader h5(test::dataFile("xpcs_small.h5"));
        Array expected = h5.read("/entry/data/data");
        for (const std::string channel : {"", "threshold_2"}) {
            Publisher pub(fileArgs("xpcs_small.h5", {"--channels", "2", "--compression", "bslz4"}));
            SourceOptions o = options(pub);
            o.channel = channel;
            FrameSource source(o);
            QCOMPARE(source.start().channels.size(), std::size_t(2));
            QVERIFY(sameArray(readAll(source, 7), expected));
            for (std::size_t i = 0; i < expected.byteSize(); ++i)
                expected.bytes()[i] = std::byte(std::uint8_t(expected.bytes()[i]) + 1);
        }
        Publisher pub(fileArgs("xpcs_small.h5", {"--channels", "2"}));
        SourceOptions o = options(pub);
        o.channel = "threshold_3";
        const QString error = inputError([&] { FrameSource source(o); });
        QVERIFY2(error.contains("no channel 'threshold_3' (the series sends threshold_1, "
                                "threshold_2)"),
                 qPrintable(error));
    }

    // Image numbers are checked: a gap (images 3 and 4 never sent) and an image repeated (out
    // of order) are InputErrors that say which, and how many frames came before.
    void imageNumbersCheckedForGapsAndOrder_data() {
        QTest::addColumn<QStringList>("publisher");
        QTest::addColumn<QString>("expected");
        QTest::newRow("gap") << QStringList{"--skip", "3,4"}
                             << "image 5: a gap in image_id: image 5 after image 2, 2 "
                                "images (3..4) missing";
        QTest::newRow("first missing")
            << QStringList{"--skip", "0"} << "image 1 as the first image, 1 image (0) missing";
        QTest::newRow("repeated") << QStringList{"--repeat", "6"}
                                  << "image_id out of order: image 6 after image 6 (expected 7); "
                                     "7 of 100 frames received in order";
    }
    void imageNumbersCheckedForGapsAndOrder() {
        QFETCH(QStringList, publisher);
        QFETCH(QString, expected);
        Publisher pub(fileArgs("xpcs_small.h5", publisher));
        const QString error = inputError([&] {
            FrameSource source(options(pub));
            readAll(source, 4);
        });
        QVERIFY2(error.contains(expected), qPrintable(error));
        if (publisher.contains("3,4"))
            QVERIFY2(error.contains("3 of 100 frames received before the gap"), qPrintable(error));
    }

    // The start message's datasets are opened once for a run: the roles' reads (InputSources::
    // open) and FrameStream share LiveFrames' one file (each open used to copy the image twice:
    // 72 MB of pixel mask at 16M), and it holds the mask sent.
    void startFileOpenedOnce() {
        Publisher pub(fileArgs("h5py_frames.h5", {"--compression", "bslz4"}));
        const auto live = std::make_shared<const LiveFrames>(options(pub));
        const std::shared_ptr<H5Reader> start = live->startFile();
        QCOMPARE(live->startFile().get(), start.get());
        const long users = start.use_count();
        const FrameStream frames(live);
        QCOMPARE(start.use_count(), users + 1);
        const H5Reader h5(test::dataFile("h5py_frames.h5"));
        const std::string mask = "/entry/instrument/detector/pixel_mask";
        QVERIFY(sameArray(start->read(mask), h5.read(mask)));
    }

    // A reader slower than the sender: the full queue holds the receiver (and the sender) back
    // and says so; every frame still arrives, in order.
    void fullQueueIsReportedNotDropped() {
        Publisher pub(fileArgs("xpcs_small.h5", {"--count", "12"}));
        SourceOptions o = options(pub);
        o.queueFrames = 2;
        FrameSource source(o);
        QCOMPARE(source.queueFrames(), std::size_t(2));
        QTRY_VERIFY_WITH_TIMEOUT(source.queueFullWaits() > 0, 20000);
        const Array all = readAll(source, 1);
        const Array expected =
            H5Reader(test::dataFile("xpcs_small.h5")).readSlab("/entry/data/data", 0, 12);
        QVERIFY(sameArray(all, expected));
        QCOMPARE(source.framesReceived(), std::uint64_t(12));
    }

    // LiveFrames as spots' passes read it: the first frame alone, then parts of 4 frames (the
    // first again), each part's array given back and filled again by the next part of 4.
    void liveFramesFillRecycledArrays() {
        Publisher pub(fileArgs("xpcs_small.h5", {"--compression", "bslz4"}));
        const Array file = H5Reader(test::dataFile("xpcs_small.h5")).read("/entry/data/data");
        const std::size_t frame = file.byteSize() / file.frameCount(), part = 4;
        LiveFrames live(options(pub));
        auto sameAsFile = [&](const Array& a, std::size_t first) {
            return a.frameCount() * frame == a.byteSize() &&
                   std::memcmp(a.bytes(), file.bytes() + first * frame, a.byteSize()) == 0;
        };
        QVERIFY(sameAsFile(live.read(0, 1), 0));
        const std::byte* reused = nullptr;
        for (std::size_t first = 0; first + part <= live.frameCount(); first += part) {
            Array a = live.read(first, part);
            QVERIFY2(sameAsFile(a, first), qPrintable(QString::number(first)));
            if (reused) QCOMPARE(a.bytes(), reused); // the array given back, not a new one
            reused = a.bytes();
            live.recycle(std::move(a));
        }
        QVERIFY(!inputError([&] { live.read(0, 1); }).isEmpty()); // read once, in order
    }

    void maxFramesStopsEarly() {
        Publisher pub(fileArgs("xpcs_small.h5", {}));
        SourceOptions o = options(pub);
        o.maxFrames = 10;
        FrameSource source(o);
        QCOMPARE(readAll(source, 64).frameCount(), std::size_t(10));
        QVERIFY(!source.read(1));
    }

    // The cancel flag (the GUI's Stop): a read waiting for frames gives nullopt, and a source
    // still waiting for its start message throws Cancelled, both long before the timeout.
    void cancelEndsTheSeries() {
        Publisher pub(fileArgs("xpcs_small.h5", {"--rate", "5"}));
        auto stopReading = std::make_shared<std::atomic<bool>>(false);
        SourceOptions o = options(pub);
        o.cancel = stopReading;
        FrameSource source(o);
        QVERIFY(source.read(1));
        *stopReading = true;
        while (source.read(1)) {
        }
        QVERIFY(source.framesReceived() < 10);

        Publisher silent(fileArgs("h5py_frames.h5", {"--silent", "30"}));
        auto cancel = std::make_shared<std::atomic<bool>>(false);
        SourceOptions w = options(silent);
        w.cancel = cancel;
        std::thread stop([cancel] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            *cancel = true;
        });
        bool cancelled = false;
        try {
            FrameSource waiting(w);
        } catch (const Cancelled&) {
            cancelled = true;
        }
        stop.join();
        QVERIFY(cancelled);
    }

    void malformedMessageNamesMessageAndField_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated bslz4") << "truncated-bslz4"
                                         << "stream image message: field 'data.threshold_1";
        QTest::newRow("missing image_id") << "missing-image-id"
                                          << "stream image message: field 'image_id': missing";
    }
    void malformedMessageNamesMessageAndField() {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        Publisher pub(fileArgs("h5py_frames.h5", {"--compression", "bslz4", "--malformed", kind}));
        FrameSource source(options(pub));
        const QString error = inputError([&] { readAll(source, 1); });
        QVERIFY2(error.startsWith(expected), qPrintable(error));
        if (kind == "truncated-bslz4")
            QVERIFY2(error.contains("bslz4 data truncated"), qPrintable(error));
    }

    void imageBeforeStartIsRefused() {
        Publisher pub(fileArgs("h5py_frames.h5", {"--malformed", "no-start"}));
        const QString error = inputError([&] { FrameSource source(options(pub)); });
        QVERIFY2(error.endsWith("expected a start message first"), qPrintable(error));
    }

    void silentStreamTimesOut() {
        Publisher pub(fileArgs("h5py_frames.h5", {"--silent", "10"}));
        const QString error = inputError([&] { FrameSource source(options(pub, 0.5)); });
        QVERIFY2(error.endsWith("no message in 0.5 s"), qPrintable(error));
    }

    void notCborIsRefused() {
        const std::string bytes = "\xff\x00 not cbor";
        const QString error = inputError(
            [&] { decodeMessage(std::as_bytes(std::span(bytes.data(), bytes.size()))); });
        QVERIFY2(error.contains("not a well-formed CBOR item"), qPrintable(error));
    }

    void typedArrayTags() {
        QCOMPARE(typedArrayTag(69)->dtype, DType::UInt16);
        QVERIFY(typedArrayTag(69)->littleEndian);
        QVERIFY(!typedArrayTag(65)->littleEndian);
        QCOMPARE(typedArrayTag(68)->dtype, DType::UInt8); // clamped uint8
        QCOMPARE(typedArrayTag(86)->dtype, DType::Float64);
        QVERIFY(!typedArrayTag(67)); // uint64: no DType
        QVERIFY(!typedArrayTag(88));
    }
};

QTEST_GUILESS_MAIN(TestStream)
#include "tst_stream.moc"
