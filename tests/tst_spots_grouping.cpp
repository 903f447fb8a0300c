// tst_spots: spots from signal masks — 4-connectivity, --3d, size and peak–centroid filters.
#include "core/array.hpp"
#include "core/spots/batch_spots.hpp"
#include "tst_spots.hpp"

#include <algorithm>
#include <cmath>
#include <random>

using namespace clscope;

// 4-connectivity, half-open boxes, value-weighted centroids, size filters, ordering.
void TestSpots::spotGrouping() {
    const std::size_t h = 6, w = 8;
    std::vector<std::uint16_t> v(h * w, 1);
    std::vector<std::uint8_t> s(h * w, 0);
    auto set = [&](int i, int j, int value) { s[j * w + i] = 1, v[j * w + i] = value; };
    set(1, 1, 10), set(2, 1, 30), set(2, 2, 20);            // spot A: 3 pixels
    set(3, 3, 5);                                           // diagonal to A: its own spot, 1 pixel
    set(6, 3, 4), set(6, 4, 4), set(7, 4, 4), set(7, 5, 4); // spot B: 4 pixels on the edge
    const Array frames = makeArray<std::uint16_t>({h, w}, v);
    spots::Params p;
    const auto found = spots::findSpots(frames, s, p);
    QCOMPARE(found.size(), std::size_t(2));
    const spots::Spot& a = found[0];
    QCOMPARE(a.npix, 3);
    QCOMPARE(a.intensity, 60.0);
    QCOMPARE(a.x0, 1);
    QCOMPARE(a.y0, 1);
    QCOMPARE(a.x1, 3);
    QCOMPARE(a.y1, 3);
    QCOMPARE(a.x, (10 * 1.5 + 30 * 2.5 + 20 * 2.5) / 60.0);
    QCOMPARE(a.y, (10 * 1.5 + 30 * 1.5 + 20 * 2.5) / 60.0);
    QCOMPARE(found[1].x1, 8);
    QCOMPARE(found[1].y1, 6);
    QCOMPARE(found[1].npix, 4);
    p.maxSpotSize = 3;
    QCOMPARE(spots::findSpots(frames, s, p).size(), std::size_t(1));
    p.minSpotSize = 1, p.maxSpotSize = 1000;
    QCOMPARE(spots::findSpots(frames, s, p).size(), std::size_t(3));
}

// --3d: 6-connected across frames; a U shape that joins in a later frame is one spot.
void TestSpots::spotGrouping3d() {
    const std::size_t t = 3, h = 4, w = 5;
    std::vector<std::uint16_t> v(t * h * w, 2);
    std::vector<std::uint8_t> s(t * h * w, 0);
    auto set = [&](int f, int i, int j) { s[(f * h + j) * w + i] = 1; };
    set(0, 0, 0), set(0, 4, 0); // two separate pixels in frame 0
    set(1, 0, 0), set(1, 4, 0); // continue in frame 1
    for (int i = 0; i < 5; ++i)
        set(2, i, 0); // joined by a row in frame 2
    set(0, 2, 3);     // a lone pixel elsewhere
    const Array frames = makeArray<std::uint16_t>({t, h, w}, v);
    spots::Params p;
    p.minSpotSize = 1, p.threeD = true, p.maxSeparation = 100; // connectivity only here
    const auto found = spots::findSpots(frames, s, p);
    QCOMPARE(found.size(), std::size_t(2));
    QCOMPARE(found[0].npix, 9);
    QCOMPARE(found[0].frame, 0);
    QCOMPARE(found[0].frameEnd, 3);
    QCOMPARE(found[0].x0, 0);
    QCOMPARE(found[0].x1, 5);
    QCOMPARE(found[1].npix, 1);
    p.threeD = false;
    QCOMPARE(spots::findSpots(frames, s, p).size(), std::size_t(6));
}

// DIALS' PeakCentroidDistanceFilter on hand-made spots; the numbers are DIALS' own
// (tests/data/check_spots_peak_filter.py): a long tail 2.154 px from its peak, and peaks among
// equal maxima (the first in scan order, also across a merge of two labelled halves).
void TestSpots::peakCentroidFilter() {
    std::vector<std::uint16_t> v(3 * 9, 0);
    std::vector<std::uint8_t> s(3 * 9, 0);
    auto set = [&](std::vector<std::uint16_t>& values, std::vector<std::uint8_t>& signal,
                   std::size_t w, int i, int j, int value) {
        values[j * w + i] = static_cast<std::uint16_t>(value), signal[j * w + i] = 1;
    };
    const int tail[] = {60, 10, 10, 10, 10, 10, 10, 10}, ties[] = {10, 40, 10, 10, 40};
    for (int i = 0; i < 8; ++i)
        set(v, s, 9, i, 0, tail[i]);
    for (int i = 0; i < 5; ++i)
        set(v, s, 9, i, 2, ties[i]);
    spots::Params p;
    p.minSpotSize = 1;
    const Array frames = makeArray<std::uint16_t>({3, 9}, v);
    auto found = spots::findSpots(frames, s, p);
    QCOMPARE(found.size(), std::size_t(1)); // the tail is dropped
    QCOMPARE(found[0].peakX, 1);
    QCOMPARE(found[0].peakY, 2);
    QCOMPARE(spots::peakSeparation(found[0]), 1.272727272727273);
    p.maxSeparation = 2.2;
    found = spots::findSpots(frames, s, p);
    QCOMPARE(found.size(), std::size_t(2));
    QCOMPARE(found[0].peakX, 0);
    QCOMPARE(spots::peakSeparation(found[0]), 2.1538461538461537);
    std::vector<std::uint16_t> u(3 * 4, 0);
    std::vector<std::uint8_t> t(3 * 4, 0);
    set(u, t, 4, 0, 0, 10), set(u, t, 4, 2, 0, 40), set(u, t, 4, 0, 1, 40);
    set(u, t, 4, 1, 1, 10), set(u, t, 4, 2, 1, 10);
    found = spots::findSpots(makeArray<std::uint16_t>({3, 4}, u), t, p);
    QCOMPARE(found.size(), std::size_t(1));
    QCOMPARE(found[0].peakX, 2);
    QCOMPARE(found[0].peakY, 0);
    QVERIFY(std::abs(spots::peakSeparation(found[0]) - 1.139087644194697) < 1e-14);
}

namespace {

// Components of a random mask by breadth-first flood fill (4- or 6-connected): pixel count
// and value sum of each, sorted — an oracle independent of the streaming grouping.
std::vector<std::pair<int, double>> floodFill(const std::vector<std::uint8_t>& s,
                                              const std::vector<std::uint16_t>& v, int t, int h,
                                              int w, bool threeD) {
    std::vector<std::uint8_t> seen(s.size(), 0);
    std::vector<std::pair<int, double>> out;
    for (std::size_t start = 0; start < s.size(); ++start) {
        if (!s[start] || seen[start]) continue;
        std::vector<std::size_t> queue{start};
        seen[start] = 1;
        std::pair<int, double> c{0, 0.0};
        for (std::size_t q = 0; q < queue.size(); ++q) {
            const std::size_t g = queue[q];
            ++c.first, c.second += v[g];
            const int f = int(g / (h * w)), j = int(g / w % h), i = int(g % w);
            const int steps[6][3] = {{0, 0, 1},  {0, 0, -1}, {0, 1, 0},
                                     {0, -1, 0}, {1, 0, 0},  {-1, 0, 0}};
            for (const auto& d : steps) {
                const int ff = f + d[0], jj = j + d[1], ii = i + d[2];
                if ((d[0] != 0 && !threeD) || ff < 0 || ff >= t || jj < 0 || jj >= h || ii < 0 ||
                    ii >= w)
                    continue;
                const std::size_t n = (std::size_t(ff) * h + jj) * w + ii;
                if (s[n] && !seen[n]) seen[n] = 1, queue.push_back(n);
            }
        }
        out.push_back(c);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

// Random masks (2D and --3d, 10–40 % signal): the list-based grouping finds exactly the flood
// fill's components (pixels and summed values), filters off.
void TestSpots::groupingMatchesFloodFill() {
    std::mt19937 rng(7);
    for (const bool threeD : {false, true})
        for (const double fraction : {0.1, 0.25, 0.4}) {
            const int t = 4, h = 23, w = 31;
            std::vector<std::uint8_t> s(std::size_t(t) * h * w);
            std::vector<std::uint16_t> v(s.size());
            std::bernoulli_distribution on(fraction);
            std::uniform_int_distribution<int> value(1, 500);
            for (std::size_t k = 0; k < s.size(); ++k)
                s[k] = on(rng) ? 1 : 0, v[k] = static_cast<std::uint16_t>(value(rng));
            spots::Params p;
            p.minSpotSize = 1, p.maxSpotSize = 1 << 30, p.maxSeparation = 1e9, p.threeD = threeD;
            const auto found = spots::findSpots(
                makeArray<std::uint16_t>({std::size_t(t), std::size_t(h), std::size_t(w)}, v), s,
                p);
            std::vector<std::pair<int, double>> got;
            for (const spots::Spot& spot : found)
                got.emplace_back(spot.npix, spot.intensity);
            std::sort(got.begin(), got.end());
            QCOMPARE(got, floodFill(s, v, t, h, w, threeD));
        }
}

// Two devices' batches of a streaming run (frames 0-4 and 10-14 on one, 5-9 and 15-19 on the
// other, one without spots) merged by first frame; within a batch the spots keep their order.
void TestSpots::batchSpotsMergedInFrameOrder() {
    auto batch = [](std::vector<int> frames) {
        std::vector<spots::Spot> out;
        for (std::size_t k = 0; k < frames.size(); ++k) {
            spots::Spot s;
            s.frame = frames[k], s.npix = int(k); // npix: the order within the batch
            out.push_back(s);
        }
        return out;
    };
    spots::BatchSpots first, second, empty;
    first.add(0, batch({0, 0, 3})), first.add(10, batch({12, 11}));
    second.add(5, batch({5, 9})), second.add(15, {}), second.add(20, batch({20}));
    first.absorb(second);
    first.absorb(empty);
    std::vector<std::pair<int, int>> got;
    for (const spots::Spot& s : first.take())
        got.emplace_back(s.frame, s.npix);
    const std::vector<std::pair<int, int>> want{{0, 0}, {0, 1},  {3, 2},  {5, 0},
                                                {9, 1}, {12, 0}, {11, 1}, {20, 0}};
    QCOMPARE(got, want);
    QVERIFY(second.take().empty());
    // absorbed the other way round, and through a third that absorbed one: the same
    spots::BatchSpots a, b, c;
    a.add(5, batch({5, 9}));
    b.add(0, batch({0, 0, 3})), b.add(10, batch({12, 11}));
    c.add(20, batch({20}));
    b.absorb(c);
    a.absorb(b);
    got.clear();
    for (const spots::Spot& s : a.take())
        got.emplace_back(s.frame, s.npix);
    QCOMPARE(got, want);
}
