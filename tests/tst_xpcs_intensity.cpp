// Mean intensity per q bin per frame (core/xpcs/intensity.hpp) against a hand computation on
// a 3-frame stack, the block-by-block path against a direct loop over a stack read in several
// blocks, I(q) and its spread over the frames, and the refusal of frames of another size.
#include "core/errors.hpp"
#include "core/xpcs/intensity.hpp"

#include <QtTest>
#include <cmath>

using namespace clscope;

class TestXpcsIntensity : public QObject {
    Q_OBJECT
  private slots:
    void meanPerBinPerFrameByHand();
    void blocksMatchADirectLoop();
    void framesOfAnotherSizeAreRefused();
};

// 3 frames of 2x3 pixels; label 1 = pixels 0, 1; label 2 = pixels 3, 4, 5; pixel 2 unlabelled.
void TestXpcsIntensity::meanPerBinPerFrameByHand() {
    const Array frames = makeArray<std::uint16_t>(
        {3, 2, 3}, {1, 3, 100, 2, 4, 6, /**/ 5, 7, 100, 0, 0, 3, /**/ 0, 0, 100, 9, 9, 9});
    const LabelMask mask{2, 3, {1, 1, 0, 2, 2, 2}};
    const xpcs::BinIntensity in = xpcs::binIntensity(frames, mask);
    QCOMPARE(in.labels, (std::vector<std::int32_t>{1, 2}));
    QCOMPARE(in.pixels, (std::vector<std::int64_t>{2, 3}));
    QCOMPARE(in.frames, std::size_t(3));
    QCOMPARE(in.mean, (std::vector<double>{2, 6, 0, /**/ 4, 1, 9}));
    QCOMPARE(in.timeMean(), (std::vector<double>{8.0 / 3, 14.0 / 3}));
    // Sample standard deviation of {2, 6, 0} and of {4, 1, 9}.
    const auto spread = in.timeSpread();
    QVERIFY(std::abs(spread[0] - std::sqrt(((2 - 8.0 / 3) * (2 - 8.0 / 3) +
                                            (6 - 8.0 / 3) * (6 - 8.0 / 3) + (8.0 / 3) * (8.0 / 3)) /
                                           2)) < 1e-12);
    QVERIFY(std::abs(spread[1] -
                     std::sqrt(((4 - 14.0 / 3) * (4 - 14.0 / 3) + (1 - 14.0 / 3) * (1 - 14.0 / 3) +
                                (9 - 14.0 / 3) * (9 - 14.0 / 3)) /
                               2)) < 1e-12);
}

// 512x512 uint8 frames are read 4 per block: 10 frames take three blocks.
void TestXpcsIntensity::blocksMatchADirectLoop() {
    const std::size_t frames = 10, side = 512, pixels = side * side;
    std::vector<std::uint8_t> values(frames * pixels);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 24);
    LabelMask mask{side, side, std::vector<std::int32_t>(pixels)};
    for (std::size_t p = 0; p < pixels; ++p)
        mask.labels[p] = static_cast<std::int32_t>(p % 7); // labels 1..6, 0 not counted
    const xpcs::BinIntensity in =
        xpcs::binIntensity(makeArray<std::uint8_t>({frames, side, side}, values), mask);
    QCOMPARE(in.binCount(), std::size_t(6));
    for (std::size_t b = 0; b < 6; ++b)
        for (std::size_t t = 0; t < frames; ++t) {
            double sum = 0;
            std::int64_t n = 0;
            for (std::size_t p = 0; p < pixels; ++p)
                if (mask.labels[p] == static_cast<std::int32_t>(b + 1))
                    sum += values[t * pixels + p], ++n;
            QCOMPARE(in.pixels[b], n);
            QCOMPARE(in.at(b, t), sum / static_cast<double>(n));
        }
}

void TestXpcsIntensity::framesOfAnotherSizeAreRefused() {
    const Array frames = makeArray<std::uint8_t>({2, 2, 2}, std::vector<std::uint8_t>(8, 1));
    QVERIFY_THROWS_EXCEPTION(InputError,
                             xpcs::binIntensity(frames, LabelMask{2, 3, {1, 1, 1, 1, 1, 1}}));
}

QTEST_GUILESS_MAIN(TestXpcsIntensity)
#include "tst_xpcs_intensity.moc"
