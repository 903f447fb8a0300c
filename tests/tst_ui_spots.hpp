// Data and comparisons of tst_ui_spots: a small diffraction stack with EIGER chip gaps, one
// frame of it as a live input, slices of whole-stack results, spot lists compared field by field.
#pragma once
#include "core/spots/spots.hpp"
#include "core/spots/synthetic.hpp"
#include "ui/spots/spots_frame.hpp"

#include <QtTest>
#include <algorithm>
#include <memory>

namespace clscope::test {

// 3 frames of 300x280 uint16 with EIGER chip gaps (rows and columns 256-257) at 65535, masked.
inline synthetic::DiffractionDataset smallDiffraction() {
    synthetic::DiffractionParams g;
    g.frames = 3, g.height = 300, g.width = 280, g.spots = 40, g.gaps = true, g.seed = 3;
    return synthetic::generateDiffraction(g);
}

// Frame t of a stack as its own (1,H,W) input.
inline std::shared_ptr<ui::SpotsFrameInput> frameOf(const synthetic::DiffractionDataset& d,
                                                    std::size_t t) {
    auto in = std::make_shared<ui::SpotsFrameInput>();
    const std::size_t plane = d.frames.frameSize();
    in->index = t;
    in->frame = Array(DType::UInt16, {1, d.frames.height(), d.frames.width()});
    const auto all = d.frames.as<std::uint16_t>();
    std::copy(all.begin() + t * plane, all.begin() + (t + 1) * plane,
              in->frame.as<std::uint16_t>().begin());
    in->mask = d.mask;
    return in;
}

template <class T>
inline std::vector<T> slice(const std::vector<T>& all, std::size_t t, std::size_t plane) {
    return {all.begin() + t * plane, all.begin() + (t + 1) * plane};
}

inline std::size_t countOnes(const std::vector<std::uint8_t>& v) {
    return std::size_t(std::count(v.begin(), v.end(), std::uint8_t(1)));
}

// The spots of one frame of a core result.
inline std::vector<spots::Spot> spotsOfFrame(const spots::Result& r, int frame) {
    std::vector<spots::Spot> out;
    for (const spots::Spot& s : r.spots)
        if (s.frame == frame) out.push_back(s);
    return out;
}

inline void compareSpots(const std::vector<spots::Spot>& got,
                         const std::vector<spots::Spot>& want) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        QCOMPARE(got[i].frame, want[i].frame);
        QCOMPARE(got[i].x, want[i].x);
        QCOMPARE(got[i].y, want[i].y);
        QCOMPARE(got[i].intensity, want[i].intensity);
        QCOMPARE(got[i].npix, want[i].npix);
        QCOMPARE((std::vector<int>{got[i].x0, got[i].y0, got[i].x1, got[i].y1}),
                 (std::vector<int>{want[i].x0, want[i].y0, want[i].x1, want[i].y1}));
    }
}

} // namespace clscope::test
