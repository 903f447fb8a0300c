// Compressed frames decoded on an OpenCL device (gpu/decode/, resources/kernels/bslz4.cl):
// bslz4 frames made by bitshuffle's own HDF5 filter (Debian's bitshuffle,
// tests/bitshuffle_cases.py) and lz4 frames (python3-lz4) decode byte for byte to the frames
// compressed and to the CPU decoder's bytes: uint8/16/32/64, odd sizes (7x13, 1x1, 1000x1001),
// partial last blocks, random and all-zero frames, several frames (and both codecs) in one
// batch. Corrupt frames are InputErrors naming frame and block, and nothing is written
// outside the frames' bytes.
#include "core/errors.hpp"
#include "core/stream/compression.hpp"
#include "gpu/decode/decoder.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/runtime/session.hpp"
#include "test_util.hpp"

#include <QFile>

using namespace clscope;
using namespace clscope::decode;

namespace {

using Bytes = std::vector<std::byte>;
constexpr std::size_t Guard = 4096; // bytes after the frames that no decode may touch
constexpr std::byte Sentinel{0xA5};

Bytes fileBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    const auto* p = reinterpret_cast<const std::byte*>(b.constData());
    return {p, p + b.size()};
}

// The frames decoded on the device, then the guard bytes after them (Sentinel where
// untouched).
// `decoder`: one kept over batches (else a new one for this batch).
Bytes decodeOnDevice(ClSession& session, const std::vector<CompressedFrame>& frames,
                     std::size_t frameBytes, FrameDecoder* decoder = nullptr) {
    Bytes out(frames.size() * frameBytes + Guard, Sentinel);
    cl::Buffer buffer = session.allocate(out.size(), "frames");
    session.upload(buffer, out.data(), out.size(), "sentinel");
    std::exception_ptr error;
    try {
        if (decoder)
            decoder->decode(frames, frameBytes, buffer);
        else
            decodeFrames(session, frames, frameBytes, buffer);
    } catch (const InputError&) {
        error = std::current_exception();
    }
    session.download(buffer, out.data(), out.size(), "download");
    for (std::size_t i = frames.size() * frameBytes; i < out.size(); ++i)
        if (out[i] != Sentinel) throw std::logic_error("a byte after the frames was written");
    if (error) std::rethrow_exception(error);
    out.resize(frames.size() * frameBytes);
    return out;
}

// "" when equal, else where they first differ.
QString firstDifference(const Bytes& a, const Bytes& b) {
    if (a.size() != b.size())
        return "sizes " + QString::number(a.size()) + ", " + QString::number(b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return "first wrong byte " + QString::number(i);
    return {};
}

struct Case {
    QString name;
    std::uint64_t elemSize;
    Bytes raw, bslz4, lz4;
};

} // namespace

class TestStreamGpuDecode : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::vector<Case> cases;
    std::unique_ptr<ClSession> session;

    const Case& named(const QString& name) const {
        for (const Case& c : cases)
            if (c.name == name) return c;
        throw std::logic_error("no case " + name.toStdString());
    }
    QString inputError(const std::vector<CompressedFrame>& frames, std::size_t frameBytes) {
        try {
            decodeOnDevice(*session, frames, frameBytes);
        } catch (const InputError& e) {
            return QString::fromUtf8(e.what());
        }
        return {};
    }

  private slots:
    void initTestCase() {
        if (openclDevices().empty()) QSKIP("no OpenCL device");
        const QString python = qEnvironmentVariable("CLSCOPE_PYTHON", "python3");
        if (QProcess::execute(python, {"-c", "import bitshuffle.h5, h5py, lz4.block"}) != 0)
            QSKIP("needs Debian's bitshuffle (python3), python3-h5py and python3-lz4");
        const QString script = QString::fromStdString(test::dataFile("../bitshuffle_cases.py"));
        QCOMPARE(QProcess::execute(python, {script, dir.path()}), 0);
        QFile list(dir.filePath("cases.txt"));
        QVERIFY(list.open(QIODevice::ReadOnly));
        for (const QByteArray& line : list.readAll().split('\n')) {
            const QList<QByteArray> f = line.split(' ');
            if (f.size() != 2) continue;
            const QString name = QString::fromUtf8(f[0]);
            cases.push_back({name, f[1].toULongLong(), fileBytes(dir.filePath(name + ".raw")),
                             fileBytes(dir.filePath(name + ".bslz4")),
                             fileBytes(dir.filePath(name + ".lz4"))});
        }
        QCOMPARE(cases.size(), std::size_t(16));
        session = std::make_unique<ClSession>(openclDevices().front());
    }

    // Every case, bslz4 and lz4, one frame a batch: the bitshuffle library's frame and the
    // CPU decoder's bytes.
    void everyCaseDecodesExactly() {
        for (const Case& c : cases) {
            for (const auto& [algorithm, packed] :
                 {std::pair{"bslz4", &c.bslz4}, std::pair{"lz4", &c.lz4}}) {
                const Bytes gpu =
                    decodeOnDevice(*session, {{algorithm, c.elemSize, *packed}}, c.raw.size());
                Bytes cpu(c.raw.size());
                stream::decompress(algorithm, c.elemSize, *packed, cpu);
                const QString what = c.name + " " + algorithm + ": ";
                QVERIFY2(firstDifference(gpu, c.raw).isEmpty(),
                         qPrintable(what + firstDifference(gpu, c.raw)));
                QVERIFY2(firstDifference(gpu, cpu).isEmpty(),
                         qPrintable(what + firstDifference(gpu, cpu)));
            }
        }
    }

    // Three frames of one size (half compressible, all zero, random) and an lz4 one, decoded
    // in one launch into one buffer, each at its place.
    void severalFramesInOneBatch() {
        const Case &a = named("batch0"), &b = named("batch1"), &c = named("batch2");
        const std::vector<CompressedFrame> frames{
            {"bslz4", 2, a.bslz4}, {"bslz4", 2, b.bslz4}, {"lz4", 1, a.lz4}, {"bslz4", 2, c.bslz4}};
        Bytes expected;
        for (const Case* k : {&a, &b, &a, &c})
            expected.insert(expected.end(), k->raw.begin(), k->raw.end());
        const Bytes got = decodeOnDevice(*session, frames, a.raw.size());
        QVERIFY2(firstDifference(got, expected).isEmpty(),
                 qPrintable(firstDifference(got, expected)));
    }

    // One decoder kept over batches of growing and shrinking sizes (its buffers reused or
    // grown), a corrupt batch among them: every other batch still decodes exactly.
    void oneDecoderOverManyBatches() {
        FrameDecoder decoder(*session);
        const Case& bad = named("u16_random");
        const Bytes truncated(bad.bslz4.begin(), bad.bslz4.end() - 7);
        for (int round = 0; round < 2; ++round)
            for (const Case& c : cases) {
                const std::vector<CompressedFrame> frames(3, {"bslz4", c.elemSize, c.bslz4});
                Bytes expected;
                for (int i = 0; i < 3; ++i)
                    expected.insert(expected.end(), c.raw.begin(), c.raw.end());
                const Bytes got = decodeOnDevice(*session, frames, c.raw.size(), &decoder);
                QVERIFY2(firstDifference(got, expected).isEmpty(),
                         qPrintable(c.name + ": " + firstDifference(got, expected)));
                if (&c == &bad)
                    QVERIFY_THROWS_EXCEPTION(InputError,
                                             decodeOnDevice(*session, {{"bslz4", 2, truncated}},
                                                            bad.raw.size(), &decoder));
            }
    }

    // Framing errors, found on the host: a truncated frame, a block size beyond the bytes.
    void corruptFramingIsAnInputError() {
        const Case& c = named("u16_random");
        Bytes truncated(c.bslz4.begin(), c.bslz4.end() - 7);
        const QString cut =
            inputError({{"bslz4", 2, c.bslz4}, {"bslz4", 2, truncated}}, c.raw.size());
        QVERIFY2(cut.startsWith("frame 1: bslz4 data truncated"), qPrintable(cut));
        Bytes huge = c.bslz4;
        huge[12] = std::byte{0x7F}; // the first block's size: about 2 GB
        const QString error = inputError({{"bslz4", 2, huge}}, c.raw.size());
        QVERIFY2(error.contains("frame 0: bslz4 data truncated: an LZ4 block of"),
                 qPrintable(error));
    }

    // Corrupt LZ4 blocks, found by the kernel: its error flag names frame, block and why, and
    // nothing is written after the frames (decodeOnDevice checks the guard bytes).
    void corruptBlockIsFlaggedByTheKernel_data() {
        QTest::addColumn<QByteArray>("block");
        QTest::addColumn<QString>("expected");
        // 8 uint16 elements in one block of 16 bytes
        QTest::newRow("match before the start")
            << QByteArray("\x10\x41\x05\x00", 4) << "a match reaching before the block's start";
        QTest::newRow("literals beyond the block")
            << QByteArray("\xF0\xFF\xFF\x41", 4)
            << "a literal run or match beyond the block's bytes";
        QTest::newRow("too many bytes")
            << QByteArray("\x1F\x41\x01\x00\x30", 5) << "more bytes than the block decodes to";
        QTest::newRow("too few bytes")
            << QByteArray("\x30\x41\x42\x43", 4) << "fewer bytes than the block decodes to";
    }
    void corruptBlockIsFlaggedByTheKernel() {
        QFETCH(QByteArray, block);
        QFETCH(QString, expected);
        // A frame of 8 uint16 in one block of 16 bytes: the header, then the block.
        auto frameOf = [](const QByteArray& lz4) {
            Bytes frame(16, std::byte{0});
            frame[7] = frame[11] = std::byte{16};
            frame[15] = std::byte(static_cast<unsigned char>(lz4.size()));
            for (char ch : lz4)
                frame.push_back(std::byte(static_cast<unsigned char>(ch)));
            return frame;
        };
        const Bytes good = frameOf(QByteArray("\xF0\x01", 2) + QByteArray(16, 'x'));
        const Bytes bad = frameOf(block);
        Bytes cpu(16);
        QVERIFY_THROWS_EXCEPTION(InputError, stream::decompress("bslz4", 2, bad, cpu));
        stream::decompress("bslz4", 2, good, cpu);
        QCOMPARE(decodeOnDevice(*session, {{"bslz4", 2, good}}, 16), cpu);
        const QString error = inputError({{"bslz4", 2, good}, {"bslz4", 2, bad}}, 16);
        QVERIFY2(error.startsWith("frame 1, block 0 of 1: corrupt bslz4 data: " + expected),
                 qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestStreamGpuDecode)
#include "tst_stream_gpu_decode.moc"
