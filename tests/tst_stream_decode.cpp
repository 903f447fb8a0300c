// Stream images' decoding: bslz4 frames made by bitshuffle's own HDF5 filter (Debian's
// bitshuffle, tests/bitshuffle_cases.py) decompress to exactly the frames compressed, odd sizes
// included; the ordered pool that decodes several images at once hands them out in order,
// holds at most its capacity, and passes a job's error on in its place.
#include "core/errors.hpp"
#include "core/stream/compression.hpp"
#include "core/stream/ordered_pool.hpp"
#include "test_util.hpp"

#include <QFile>
#include <atomic>
#include <chrono>
#include <thread>

using namespace clscope;
using namespace clscope::stream;

namespace {

std::vector<std::byte> fileBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    const auto* p = reinterpret_cast<const std::byte*>(b.constData());
    return {p, p + b.size()};
}

} // namespace

class TestStreamDecode : public QObject {
    Q_OBJECT
  private slots:
    void bitshuffleFilterFramesDecodeExactly() {
        const QString python = qEnvironmentVariable("CLSCOPE_PYTHON", "python3");
        if (QProcess::execute(python, {"-c", "import bitshuffle.h5, h5py"}) != 0)
            QSKIP("needs Debian's bitshuffle (python3) and python3-h5py");
        QTemporaryDir dir;
        const QString script = QString::fromStdString(test::dataFile("../bitshuffle_cases.py"));
        QCOMPARE(QProcess::execute(python, {script, dir.path()}), 0);
        QFile list(dir.filePath("cases.txt"));
        QVERIFY(list.open(QIODevice::ReadOnly));
        int cases = 0;
        for (const QByteArray& line : list.readAll().split('\n')) {
            const QList<QByteArray> f = line.split(' ');
            if (f.size() != 2) continue;
            const QString name = QString::fromUtf8(f[0]);
            const std::vector<std::byte> raw = fileBytes(dir.filePath(name + ".raw"));
            const std::vector<std::byte> packed = fileBytes(dir.filePath(name + ".bslz4"));
            std::vector<std::byte> out(raw.size(), std::byte{0xA5});
            decompress("bslz4", f[1].toULongLong(), packed, out);
            std::size_t first = 0;
            while (first < raw.size() && raw[first] == out[first])
                ++first;
            QVERIFY2(first == raw.size(),
                     qPrintable(name + ": first wrong byte " + QString::number(first) + " of " +
                                QString::number(raw.size())));
            ++cases;
        }
        QCOMPARE(cases, 16);
    }

    // Jobs that finish in reverse order come out in the order submitted.
    void poolKeepsOrder() {
        OrderedPool<int> pool(4, 8);
        std::thread submitter([&pool] {
            for (int i = 0; i < 40; ++i)
                pool.submit([i] {
                    std::this_thread::sleep_for(std::chrono::microseconds(400 * (7 - i % 8)));
                    return i;
                });
            pool.finish();
        });
        std::vector<int> got;
        while (auto v = pool.take())
            got.push_back(*v);
        submitter.join();
        QCOMPARE(got.size(), std::size_t(40));
        for (int i = 0; i < 40; ++i)
            QCOMPARE(got[std::size_t(i)], i);
    }

    // A taker that does not take: the submitter waits at the capacity, and says it waited.
    void poolHoldsTheSubmitterBack() {
        OrderedPool<int> pool(2, 3);
        std::atomic<int> submitted = 0;
        std::thread submitter([&] {
            for (int i = 0; i < 6; ++i)
                if (pool.submit([i] { return i; })) ++submitted;
            pool.finish();
        });
        QTRY_COMPARE_WITH_TIMEOUT(pool.fullWaits(), std::uint64_t(1), 5000);
        QCOMPARE(submitted.load(), 3);
        for (int i = 0; i < 6; ++i)
            QCOMPARE(*pool.take(), i);
        QVERIFY(!pool.take());
        submitter.join();
    }

    // A job's error comes out where its result would, after the results before it.
    void poolPassesErrorsOnInOrder() {
        OrderedPool<int> pool(3, 4);
        pool.submit([] { return 0; });
        pool.submit([]() -> int { throw InputError("bad image 1"); });
        pool.submit([] { return 2; });
        QCOMPARE(*pool.take(), 0);
        QVERIFY_THROWS_EXCEPTION(InputError, pool.take());
        QCOMPARE(*pool.take(), 2);
    }
};

QTEST_GUILESS_MAIN(TestStreamDecode)
#include "tst_stream_decode.moc"
