// Synthetic datasets: the seeds' recipes, determinism, and generate -> write -> read back.
#include "core/cluster/synthetic.hpp"
#include "core/input/metadata.hpp"
#include "core/io.hpp"
#include "core/rbf/synthetic.hpp"
#include "core/spots/synthetic.hpp"
#include "core/xpcs/synthetic.hpp"
#include "test_util.hpp"

#include <cmath>
#include <set>
#include <tuple>

using namespace clscope;

class TestSynthetic : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void xpcsSeedLayout() {
        synthetic::XpcsParams seed;
        seed.model = "seed";
        const auto d = synthetic::generateXpcs(seed);
        QCOMPARE(d.frames.shape(), (Shape{500, 201, 241}));
        QCOMPARE(d.frames.dtype(), DType::UInt8);
        // Labels r // 10 about the centre (100, 120), as numpy.ogrid[-100:101, -120:121].
        for (std::size_t y : {0, 57, 100, 200})
            for (std::size_t x : {0, 13, 120, 240}) {
                const double r = std::hypot(double(y) - 100, double(x) - 120);
                QCOMPARE(d.labels.labels[y * 241 + x], std::int32_t(std::floor(r / 10)));
            }
        QCOMPARE(d.labels.bins().size(), std::size_t{15});
        std::size_t centre = std::count(d.labels.labels.begin(), d.labels.labels.end(), 0);
        QCOMPARE(centre, std::size_t{305}); // the seed's csr.indptr[1]
    }

    void xpcsFollowsItsRateModel() {
        synthetic::XpcsParams p;
        p.model = "seed";
        p.frames = 40;
        const auto d = synthetic::generateXpcs(p);
        const auto v = d.frames.as<std::uint8_t>();
        const std::size_t npix = 201 * 241;
        // Mean over ring 3 of frame t against 0.5*(sin(3 s_t)+1)*I0*(rmax-r)/rmax + 1.
        const double rmax = std::hypot(100.0, 120.0);
        for (std::size_t t : {0, 7, 20, 39}) {
            const double s = 100.0 * double(t) / 39;
            double sum = 0, expected = 0, n = 0;
            for (std::size_t i = 0; i < npix; ++i) {
                if (d.labels.labels[i] != 3) continue;
                const double r = std::hypot(double(i / 241) - 100, double(i % 241) - 120);
                expected += 0.5 * (std::sin(3 * s) + 1) * 10 * (rmax - r) / rmax + 1;
                sum += v[t * npix + i];
                ++n;
            }
            QVERIFY2(std::abs(sum - expected) < 5 * std::sqrt(expected),
                     qPrintable(QString::number(t)));
            QVERIFY(n > 1000);
        }
    }

    void deterministicPerSeed() {
        synthetic::XpcsParams p;
        p.frames = 5, p.height = 31, p.width = 17;
        const auto a = synthetic::generateXpcs(p), b = synthetic::generateXpcs(p);
        QVERIFY(std::memcmp(a.frames.bytes(), b.frames.bytes(), a.frames.byteSize()) == 0);
        p.seed = 1;
        const auto c = synthetic::generateXpcs(p);
        QVERIFY(std::memcmp(a.frames.bytes(), c.frames.bytes(), a.frames.byteSize()) != 0);
    }

    void generateWriteReadBack() {
        synthetic::XpcsParams p;
        p.frames = 6, p.height = 20, p.width = 30, p.dtype = DType::UInt16, p.intensity = 60000,
        p.frameTime = 0.01;
        const auto d = synthetic::generateXpcs(p);
        const std::string file = tmp.filePath("x.h5").toStdString();
        {
            H5Writer out(file);
            synthetic::writeXpcs(out, d, Compression::Gzip);
            out.commit();
        }
        H5Reader in(file);
        const Array frames = readFrames(in);
        QCOMPARE(frames.dtype(), DType::UInt16);
        QVERIFY(std::memcmp(frames.bytes(), d.frames.bytes(), frames.byteSize()) == 0);
        QCOMPARE(readLabels(in, paths::qmask, 20, 30).labels, d.labels.labels);
        QCOMPARE(*readFrameTime(in), 0.01);
        const auto values = frames.as<std::uint16_t>();
        QVERIFY(*std::max_element(values.begin(), values.end()) > 20000); // uint16 range is used
    }

    void diffractionGapsAndSpots() {
        synthetic::DiffractionParams p;
        p.gaps = true, p.frames = 2;
        const auto d = synthetic::generateDiffraction(p);
        QCOMPARE(d.frames.shape(), (Shape{2, 512, 1028}));
        const auto v = d.frames.as<std::uint16_t>();
        for (std::size_t x : {256, 257, 514, 515})
            QVERIFY(d.mask.bad[10 * 1028 + x]);
        for (std::size_t y : {256, 257})
            QVERIFY(d.mask.bad[y * 1028 + 10]);
        QVERIFY(!d.mask.bad[10 * 1028 + 10]);
        std::size_t bright = 0;
        for (std::size_t i = 0; i < d.mask.bad.size(); ++i) {
            if (d.mask.bad[i])
                QCOMPARE(v[i], std::uint16_t(65535));
            else
                QVERIFY(v[i] < 65533);
            bright += !d.mask.bad[i] && v[i] > 30;
        }
        QVERIFY(bright > 100); // spots stand out of a background of mean 1
        const std::string file = tmp.filePath("d.h5").toStdString();
        {
            H5Writer out(file);
            synthetic::writeDiffraction(out, d, Compression::Bitshuffle);
            out.commit();
        }
        H5Reader in(file);
        QCOMPARE(readPixelMask(in, paths::pixelMask, 512, 1028).bad, d.mask.bad);
        QVERIFY(std::memcmp(readFrames(in).bytes(), d.frames.bytes(), d.frames.byteSize()) == 0);
    }

    void digisPhase1() {
        const Digis d = synthetic::generateDigis({});
        QVERIFY2(d.size() > 40000 && d.size() < 60000, qPrintable(QString::number(d.size())));
        std::size_t invalid = 0, duplicates = 0;
        std::set<std::tuple<int, int, int>> seen;
        for (std::size_t i = 0; i < d.size(); ++i) {
            if (d.module[i] == Digis::invalidModule) {
                ++invalid;
                continue;
            }
            QVERIFY(d.module[i] < 1856 && d.x[i] < 160 && d.y[i] < 416);
            duplicates += !seen.insert({d.module[i], d.x[i], d.y[i]}).second;
        }
        QCOMPARE(invalid, std::size_t{10});
        QCOMPARE(duplicates, std::size_t{20});
        const std::string file = tmp.filePath("g.h5").toStdString();
        {
            H5Writer out(file);
            writeDigis(out, d);
            out.commit();
        }
        QCOMPARE(readDigis(H5Reader(file)).adc, d.adc);
    }

    void particlesOnThreePlanes() {
        synthetic::ParticlesParams p;
        p.gridPoints = 5, p.complexWeights = true;
        const Particles d = synthetic::generateParticles(p);
        QCOMPARE(d.targetCount(), std::size_t{75});
        QCOMPARE(d.weights.size(), std::size_t{100});
        // Plane xy has z = 0, xz has y = 0, yz has x = 0; grids span [0, 1].
        QCOMPARE(d.targets[3 * 24 + 0], 1.0);
        QCOMPARE(d.targets[3 * 24 + 2], 0.0);
        QCOMPARE(d.targets[3 * (25 + 7) + 1], 0.0);
        QCOMPARE(d.targets[3 * (50 + 7) + 0], 0.0);
        QCOMPARE(d.targets[3 * 1 + 1], 0.25);
        for (double s : d.sources)
            QVERIFY(s >= 0 && s < 1);
    }
};

QTEST_APPLESS_MAIN(TestSynthetic)
#include "tst_synthetic.moc"
