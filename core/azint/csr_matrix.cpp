#include "core/azint/csr_matrix.hpp"

#include "core/range_pool.hpp"

#include <algorithm>

#include <stdexcept>

namespace clscope::azint {

CsrMatrix::CsrMatrix(const std::vector<std::int32_t>& binOfPixel, std::size_t bins)
    : rowStart_(bins + 1, 0) {
    if (binOfPixel.size() > static_cast<std::size_t>(INT32_MAX))
        throw std::length_error("azint CSR: more than 2^31 - 1 pixels");
    // Counting sort in pieces of pixels over the cores: each piece's sizes per bin, then each
    // piece's start in each row (pieces in order within a row), then each piece fills its own
    // slots in order: the same matrix as one pass. Pieces only where their counts stay small.
    const std::size_t n = binOfPixel.size();
    const std::size_t parts =
        std::clamp<std::size_t>(std::min(n / 65536, n / std::max<std::size_t>(1, 4 * bins)), 1, 64);
    std::vector<std::int64_t> next(parts * bins, 0); // piece q's counts, then its next slots
    const auto piece = [&](std::size_t q, auto&& f) {
        for (std::size_t k = n * q / parts; k < n * (q + 1) / parts; ++k)
            if (binOfPixel[k] >= 0) f(k, q * bins + static_cast<std::size_t>(binOfPixel[k]));
    };
    parallelRanges(parts, parts, [&](std::size_t q0, std::size_t q1) {
        for (std::size_t q = q0; q < q1; ++q)
            piece(q, [&](std::size_t, std::size_t at) { ++next[at]; });
    });
    std::int64_t start = 0;
    for (std::size_t b = 0; b < bins; ++b) {
        rowStart_[b] = start;
        for (std::size_t q = 0; q < parts; ++q) {
            const std::int64_t size = next[q * bins + b];
            next[q * bins + b] = start;
            start += size;
        }
    }
    rowStart_[bins] = start;
    pixels_.resize(static_cast<std::size_t>(start));
    parallelRanges(parts, parts, [&](std::size_t q0, std::size_t q1) {
        for (std::size_t q = q0; q < q1; ++q)
            piece(q, [&](std::size_t k, std::size_t at) {
                pixels_[static_cast<std::size_t>(next[at]++)] = static_cast<std::int32_t>(k);
            });
    });
}

} // namespace clscope::azint
