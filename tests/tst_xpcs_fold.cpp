// The multi-tau fold's 64-bit fast path (MultitauStats, ExactSum, narrowToDouble): terms that
// fit 64 bits are multiplied, summed and converted in 64 bits, the rest in 128; the results must
// be bit for bit those of the 128-bit definition, just below and just above the 64-bit bounds.
#include "core/xpcs/exact_sum.hpp"
#include "core/xpcs/multitau.hpp"

#include <QtTest>
#include <cmath>
#include <cstring>
#include <limits>

using namespace clscope;
using namespace clscope::xpcs;

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
// floor(sqrt(2^63 - 1)): kRoot^2 fits 64 bits, (kRoot + 1)^2 does not.
constexpr std::int64_t kRoot = 3037000499;

bool sameDouble(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// g2 and g2_err of level 0 from the definition: 128-bit terms, WideSum sums, every ratio
// wideToDouble(n N) / wideToDouble(S S') (0 where N = 0) into RatioMoments over t in order,
// one at a time.
// Rows as addRows takes them.
struct Expected {
    std::vector<double> g2, err;
};
Expected levelZero(const std::vector<std::int64_t>& pixels, int channels,
                   const std::vector<Int128>& sums, const std::vector<Int128>& products) {
    const std::size_t bins = pixels.size(), lags = std::size_t(channels);
    const std::size_t rows = sums.size() / bins, out = std::min(lags, rows);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Expected e{std::vector<double>(bins * out, nan), std::vector<double>(bins * out, nan)};
    for (std::size_t b = 0; b < bins; ++b)
        for (std::size_t j = 0; j < out; ++j) {
            WideSum num, den;
            RatioMoments ratios;
            for (std::size_t t = j; t < rows; ++t) {
                const Int128 m = Int128(pixels[b]) * products[(t * bins + b) * lags + j];
                const Int128 d = sums[t * bins + b] * sums[(t - j) * bins + b];
                num.add(m), den.add(d);
                if (d != 0) ratios.add(m == 0 ? 0.0 : wideToDouble(m) / wideToDouble(d));
            }
            const double count = double(ratios.count());
            if (!den.zero()) e.g2[b * out + j] = num.toDouble() / den.toDouble();
            if (!den.zero() && count > 0)
                e.err[b * out + j] = std::sqrt(ratios.deviations() / count) / std::sqrt(count);
        }
    return e;
}

// The fold of the rows (level 0, in calls of `step` rows) against the definition, bit for bit.
template <class V>
void checkFold(const std::vector<std::int64_t>& pixels, int channels,
               const std::vector<Int128>& sums, const std::vector<Int128>& products,
               std::size_t step) {
    Bins bins;
    for (std::size_t b = 0; b < pixels.size(); ++b)
        bins.labels.push_back(std::int32_t(b + 1));
    bins.pixelCounts = pixels;
    const std::vector<V> s(sums.begin(), sums.end()), p(products.begin(), products.end());
    const std::size_t rows = sums.size() / pixels.size(), perRow = pixels.size() * channels;
    MultitauStats stats(bins, channels, true);
    for (std::size_t first = 0; first < rows; first += step)
        stats.addRows<V>(0, first, std::min(step, rows - first), s.data() + first * pixels.size(),
                         p.data() + first * perRow);
    const Result got = stats.finish(bins, rows, Params{});
    const Expected want = levelZero(pixels, channels, sums, products);
    QCOMPARE(got.g2.size(), want.g2.size());
    for (std::size_t i = 0; i < want.g2.size(); ++i) {
        QVERIFY2(sameDouble(got.g2[i], want.g2[i]), qPrintable(QString("g2[%1]").arg(i)));
        QVERIFY2(sameDouble(got.g2Err[i], want.err[i]),
                 qPrintable(QString("g2_err[%1], calls of %2 rows: %3, not %4")
                                .arg(i)
                                .arg(step)
                                .arg(got.g2Err[i], 0, 'g', 17)
                                .arg(want.err[i], 0, 'g', 17)));
    }
}

// Rows of two bins (n = 2^31 and 3) whose terms lie on both sides of the 64-bit bounds: frame
// sums around +-kRoot (S S' just below, at and beyond +-2^63), uint32-sized lag products near
// 2^32 (2^31 N just below and at 2^63), zeros, and (wide) products beyond 64 bits.
struct Rows {
    std::vector<Int128> sums, products;
};
Rows nearTheBound(int channels, std::size_t rows, bool wide) {
    const Int128 sumValues[] = {kRoot, kRoot + 1, -kRoot - 1, kRoot, 0, -kRoot, 7, kRoot + 1};
    const Int128 gramValues[] = {(Int128(1) << 32) - 1, Int128(1) << 32,       0,
                                 -(Int128(1) << 32),    (Int128(1) << 32) + 1, 5};
    Rows r;
    for (std::size_t t = 0; t < rows; ++t)
        for (std::size_t b = 0; b < 2; ++b) {
            r.sums.push_back(sumValues[(t + 3 * b) % std::size(sumValues)]);
            for (int j = 0; j < channels; ++j) {
                const Int128 g = gramValues[(t + std::size_t(j) + b) % std::size(gramValues)];
                r.products.push_back(wide && j == 1 ? g + (Int128(1) << 64) : g);
            }
        }
    return r;
}

} // namespace

class TstXpcsFold : public QObject {
    Q_OBJECT
  private slots:
    // narrowToDouble(v) is wideToDouble(v) for every 64-bit v, negatives included (where it is
    // not double(v)).
    void narrowDoubleIsWide() {
        bool differsFromPlain = false;
        for (std::int64_t v : {std::int64_t(0), std::int64_t(1), std::int64_t(-1), kMax, kMin,
                               kMin + 1, (std::int64_t(1) << 53) + 1, -(std::int64_t(1) << 53) - 1,
                               -kRoot * kRoot, -kRoot * (kRoot + 1), std::int64_t(-1000)}) {
            QVERIFY2(sameDouble(narrowToDouble(v), wideToDouble(v)),
                     qPrintable(QString::number(v)));
            differsFromPlain |= !sameDouble(wideToDouble(v), double(v));
        }
        QVERIFY(differsFromPlain); // the values tell a plain conversion from the wide one
    }
    // 64-bit terms that overflow the partial sum many times over, mixed with wide terms, give
    // the WideSum of the same terms.
    void exactSumIsWideSum() {
        ExactSum fast;
        WideSum wide;
        const Int128 terms[] = {kMax, kMax, kMax, kMin, 1,    Int128(1) << 100,
                                kMin, kMin, kMin, -1,   kMax, -(Int128(1) << 90),
                                kMax, 0,    kMin, kMax};
        for (int round = 0; round < 5; ++round)
            for (Int128 v : terms) {
                if (v == Int128(std::int64_t(v)))
                    fast.add(std::int64_t(v));
                else
                    fast.add(v);
                wide.add(v);
                QVERIFY(sameDouble(fast.toDouble(), wide.toDouble()));
                QCOMPARE(fast.zero(), wide.zero());
            }
        ExactSum cancel;
        cancel.add(kMax), cancel.add(kMax), cancel.add(-kMax), cancel.add(-kMax);
        QVERIFY(cancel.zero());
    }
    // The fold (64-bit rows, 128-bit rows, one call or several) is the 128-bit definition.
    void foldNearTheBound() {
        const std::vector<std::int64_t> pixels{std::int64_t(1) << 31, 3};
        for (int channels : {4, 8})
            for (std::size_t step : {std::size_t(1), std::size_t(5), std::size_t(40)}) {
                const Rows narrow = nearTheBound(channels, 40, false);
                checkFold<std::int64_t>(pixels, channels, narrow.sums, narrow.products, step);
                checkFold<Int128>(pixels, channels, narrow.sums, narrow.products, step);
                const Rows wide = nearTheBound(channels, 40, true);
                checkFold<Int128>(pixels, channels, wide.sums, wide.products, step);
            }
    }
    // Small sums take the fold's dot products and non-zero products (foldDots, foldNonZero):
    // photon-like rows (sums 0..12, products mostly zero) of three bins, one with a negative sum
    // (its rows folded one by one beside the others), in calls of 1, 7 and 64 rows, so the
    // sums carried over from the calls before are the ring's. Bit for bit the definition.
    void foldOfSmallSums() {
        const std::vector<std::int64_t> pixels{900, 3, 40};
        for (int channels : {4, 8}) {
            const std::size_t rows = 150, bins = pixels.size(), lags = std::size_t(channels);
            std::vector<Int128> sums(rows * bins), products(rows * bins * lags);
            std::uint64_t x = 12345;
            auto next = [&] {
                return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33;
            };
            for (std::size_t t = 0; t < rows; ++t)
                for (std::size_t b = 0; b < bins; ++b) {
                    sums[t * bins + b] = Int128(next() % 13);
                    if (b == 2 && t == 77) sums[t * bins + b] = -5;
                    for (std::size_t j = 0; j < lags; ++j)
                        products[(t * bins + b) * lags + j] =
                            next() % 10 < 8 ? 0 : Int128(next() % 5);
                }
            for (std::size_t step : {std::size_t(1), std::size_t(7), std::size_t(64)}) {
                checkFold<std::int64_t>(pixels, channels, sums, products, step);
                checkFold<Int128>(pixels, channels, sums, products, step);
            }
        }
    }
    // The ratios' squared deviations (Welford over the non-zero ones, the zeros joined by
    // Chan's formula) against the two-pass definition: many zeros, and ratios of a large mean
    // and a small spread (where a sum of squares would cancel).
    void ratioDeviations() {
        const std::vector<std::vector<double>> cases{
            {0, 0, 3.5, 0, 0, 0, 1.25, 0, 0, 0, 0, 7},
            {1e6 + 0.001, 1e6 - 0.002, 1e6 + 0.003, 1e6, 1e6 - 0.001},
            {0, 1e6 + 0.001, 0, 1e6 - 0.002, 1e6},
            {0, 0, 0},
            {2.5}};
        for (const std::vector<double>& r : cases) {
            RatioMoments m;
            double mean = 0;
            for (double v : r)
                m.add(v), mean += v / double(r.size());
            double want = 0;
            for (double v : r)
                want += (v - mean) * (v - mean);
            QCOMPARE(m.count(), r.size());
            QVERIFY2(
                std::abs(m.deviations() - want) <= 1e-9 * std::max(want, 1e-300) + 1e-300,
                qPrintable(
                    QString("%1 vs %2").arg(m.deviations(), 0, 'g', 17).arg(want, 0, 'g', 17)));
        }
    }
};

QTEST_GUILESS_MAIN(TstXpcsFold)
#include "tst_xpcs_fold.moc"
