// Digi events for tst_cluster: CMSSW's gpuClustering_t cases and random, physics-free events.
#pragma once
#include "core/cluster/digis.hpp"
#include "core/data.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>

namespace clscope::test {

inline void addDigi(Digis& d, int module, int x, int y, int adc) {
    d.module.push_back(static_cast<std::uint16_t>(module));
    d.x.push_back(static_cast<std::uint16_t>(x));
    d.y.push_back(static_cast<std::uint16_t>(y));
    d.adc.push_back(static_cast<std::uint16_t>(adc));
}
inline void addInvalid(Digis& d) {
    addDigi(d, Digis::invalidModule, 0, 0, 0);
}

// Module 42 of gpuClustering_t: isolated pixels in the first and last columns, diagonals in
// both directions, the out-of-order "messy" diagonal, the column with holes (9 clusters).
inline void cmsswModule42(Digis& d, int config) {
    const int id = 42, x = 10;
    addDigi(d, id, x, x, config == 0 ? 100 : 5000); // isolated
    addDigi(d, id, x, 0, 5000);                     // first column
    addDigi(d, id, x + 80, 2, 5000), addDigi(d, id, x + 80, 1, 5000);
    addDigi(d, id, x, 415, 5000); // last column
    addDigi(d, id, x + 80, 415, 2500), addDigi(d, id, x + 80, 414, 2500);
    for (int k = 20; k < 25; ++k)
        addDigi(d, id, k, k, 1000); // diagonal
    for (int k = 45; k > 40; --k)
        addDigi(d, id, k, k, 1000); // reversed
    addInvalid(d);
    const int xx[5] = {21, 25, 23, 24, 22};
    for (int k : xx)
        addDigi(d, id, k, 20 + k, 1000); // messy
    for (int k : xx) {                   // holes
        addDigi(d, id, k, 100, config == 2 ? 10 : 1000);
        if (k % 2 == 0) addDigi(d, id, k, 101, 1000);
    }
}

// The 895 odd modules 11..1799, ten clusters each over two columns in scrambled row order;
// an invalid digi in front of every module with (id / 20) odd.
inline void cmsswOddModules(Digis& d, int config) {
    const int y[10] = {5, 7, 9, 1, 3, 0, 4, 8, 2, 6};
    for (int id = 11; id <= 1800; id += 2) {
        if ((id / 20) % 2) addInvalid(d);
        for (int x = 0; x < 40; x += 4) {
            for (int k = 0; k < 10; ++k) {
                if ((id / 10) % 2) {
                    addDigi(d, id, x, x + y[k], 100);
                    addDigi(d, id, x + 1, x + y[k] + 2, 1000);
                    continue;
                }
                addDigi(d, id, x, x + y[9 - k], config == 2 ? 10 : 1000);
                if (y[k] == 3) continue; // hole
                if (id == 51) addInvalid(d), addInvalid(d);
                addDigi(d, id, x + 1, x + y[k] + 2, 1000);
            }
        }
    }
}

// One of the five configurations of gpuClustering_t (odd ones with the noise module 666:
// 1000 isolated pixels of adc 1000, every one below the Phase-1 cut).
inline Digis cmsswEvent(int config) {
    Digis d;
    if (config % 2 == 1) {
        int made = 0;
        for (int x = 0; x < 140 && made < 1000; x += 3)
            for (int y = 0; y < 400 && made < 1000; y += 3, ++made)
                addDigi(d, 666, x, y, 1000);
    }
    cmsswModule42(d, config);
    addDigi(d, 0, 10, 10, 5000); // module 0
    cmsswOddModules(d, config);
    return d;
}

// Random event: `modules` modules with about occupancy * 160 * 416 digis each, a few exact
// duplicates (2 and 3 copies) and invalid digis, in random order.
inline Digis randomEvent(std::size_t modules, double occupancy, unsigned seed) {
    std::mt19937 rng(seed);
    Digis d;
    std::uniform_int_distribution<int> ux(0, 159), uy(0, 415), adc(0, 3000),
        mod(0, int(modules) - 1);
    const std::size_t n = std::size_t(occupancy * 160 * 416 * double(modules));
    for (std::size_t i = 0; i < n; ++i)
        addDigi(d, mod(rng), ux(rng), uy(rng), adc(rng));
    for (std::size_t i = 0; i < n / 50 + 2; ++i) {
        const std::size_t src = rng() % d.size();
        const int copies = 1 + int(i % 2);
        for (int c = 0; c < copies; ++c)
            addDigi(d, d.module[src], d.x[src], d.y[src], adc(rng));
        addInvalid(d);
    }
    std::vector<std::size_t> order(d.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    Digis out;
    for (std::size_t i : order)
        addDigi(out, d.module[i], d.x[i], d.y[i], d.adc[i]);
    return out;
}

// A serpentine cluster in `module`: rows y = 0, 2, 4, ... full width, joined at alternating
// ends by one pixel on the odd rows; `rows` full rows; digis in random order.
inline void addSnake(Digis& d, int module, int rows, unsigned seed) {
    Digis s;
    for (int r = 0; r < rows; ++r) {
        for (int x = 0; x < 160; ++x)
            addDigi(s, module, x, 2 * r, 50 + (x + r) % 200);
        if (r + 1 < rows) addDigi(s, module, r % 2 ? 0 : 159, 2 * r + 1, 77);
    }
    std::vector<std::size_t> order(s.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    for (std::size_t i : order)
        addDigi(d, module, s.x[i], s.y[i], s.adc[i]);
}

// A diagonal zigzag over the whole module: one pixel per row y, x bouncing between the edges,
// so every pixel touches the next one only at a corner (416 digis, one cluster).
inline void addZigzag(Digis& d, int module, unsigned seed) {
    Digis s;
    for (int y = 0; y < 416; ++y) {
        const int phase = y % 318; // 0..159 up, then back down
        addDigi(s, module, phase < 160 ? phase : 318 - phase, y, 30 + y % 7);
    }
    std::vector<std::size_t> order(s.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    for (std::size_t i : order)
        addDigi(d, module, s.x[i], s.y[i], s.adc[i]);
}

} // namespace clscope::test
