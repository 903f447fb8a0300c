// tst_spots' test images and checks, shared by its source files: synthetic diffraction-like
// frames, exact mask comparison, parameters of a method and kernel size.
#pragma once
#include "core/spots/spots.hpp"
#include "gpu/runtime/devices.hpp"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace clscope::spots_test {

// Poisson-like background with bright blobs (some on the edges and beside the masked block),
// a masked block and EIGER sentinels; values of type T.
template <class T>
inline spots::Input makeImages(std::size_t t, std::size_t h, std::size_t w, unsigned seed,
                               bool mask = true, double scale = 1.0) {
    std::mt19937 rng(seed);
    std::poisson_distribution<int> background(3.0);
    std::vector<T> v(t * h * w);
    for (std::size_t f = 0; f < t; ++f) {
        std::vector<double> img(h * w);
        for (double& x : img)
            x = background(rng);
        const std::size_t blobs = 2 + h * w / 150;
        for (std::size_t b = 0; b < blobs; ++b) {
            const double cx = b == 0 ? 0.0 : b == 1 ? double(w - 1) : double(rng() % w);
            const double cy = b == 0   ? double(rng() % h)
                              : b == 1 ? double(h - 1)
                                       : double(rng() % h);
            const double peak = 20 + rng() % 300, sigma = 0.6 + (rng() % 10) / 10.0;
            for (std::size_t j = 0; j < h; ++j)
                for (std::size_t i = 0; i < w; ++i) {
                    const double r2 = (i - cx) * (i - cx) + (j - cy) * (j - cy);
                    if (r2 < 25)
                        img[j * w + i] += std::floor(peak * std::exp(-r2 / (2 * sigma * sigma)));
                }
        }
        // Saturated at T's largest value (8-bit blobs would wrap: UB of the cast, UBSan).
        const double top = std::is_integral_v<T> ? double(std::numeric_limits<T>::max()) : HUGE_VAL;
        for (std::size_t k = 0; k < h * w; ++k)
            v[f * h * w + k] = static_cast<T>(std::min(img[k] * scale, top));
        if constexpr (std::is_same_v<T, std::uint16_t>)
            if (h * w > 20)
                v[f * h * w + 7] = 65535, v[f * h * w + h * w / 2] = 65534,
                              v[f * h * w + 11] = 65533;
    }
    spots::Input in;
    in.frames = t == 1 ? makeArray<T>({h, w}, v) : makeArray<T>({t, h, w}, v);
    if (mask) {
        in.mask = PixelMask{h, w, std::vector<std::uint8_t>(h * w, 0)};
        for (std::size_t j = h / 3; j < std::min(h, h / 3 + 3); ++j)
            for (std::size_t i = w / 4; i < std::min(w, w / 4 + 5); ++i)
                in.mask.bad[j * w + i] = 1;
    }
    return in;
}

inline const DeviceInfo* firstOpenCl() {
    const auto& devices = openclDevices();
    return devices.empty() ? nullptr : &devices.front();
}

// Masks must agree exactly; on failure: how many differ and the first flat index.
inline void compareMasks(const std::vector<std::uint8_t>& got,
                         const std::vector<std::uint8_t>& want, const std::string& what) {
    QCOMPARE(got.size(), want.size());
    std::size_t differ = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && differ++ == 0) first = i;
    if (differ)
        QFAIL((what + ": " + std::to_string(differ) + " of " + std::to_string(got.size()) +
               " pixels differ, first at flat index " + std::to_string(first))
                  .c_str());
}

inline spots::Params params(spots::Method method, int kx = 3, int ky = 3) {
    spots::Params p;
    p.method = method;
    p.kernelX = kx, p.kernelY = ky;
    return p;
}

// A case of variantsMatchCpu: T frames of H x W of a type, the parameters.
struct MaskCase {
    const char* name;
    DType dtype;
    int t, h, w;
    spots::Params p;
};
// The cases of spots_local's strip forms (tst_spots_forms.cpp).
std::vector<MaskCase> stripFormCases();

inline std::size_t count(const std::vector<std::uint8_t>& mask) {
    return static_cast<std::size_t>(std::count(mask.begin(), mask.end(), 1));
}

} // namespace clscope::spots_test
