#include "core/azint/csr_matrix.hpp"

#include <stdexcept>

namespace clscope::azint {

CsrMatrix::CsrMatrix(const std::vector<std::int32_t>& binOfPixel, std::size_t bins)
    : rowStart_(bins + 1, 0) {
    if (binOfPixel.size() > static_cast<std::size_t>(INT32_MAX))
        throw std::length_error("azint CSR: more than 2^31 - 1 pixels");
    for (std::int32_t b : binOfPixel) // counting sort: sizes, then starts, then fill in order
        if (b >= 0) ++rowStart_[static_cast<std::size_t>(b) + 1];
    for (std::size_t b = 0; b < bins; ++b)
        rowStart_[b + 1] += rowStart_[b];
    pixels_.resize(static_cast<std::size_t>(rowStart_[bins]));
    std::vector<std::int64_t> next(rowStart_.begin(), rowStart_.end() - 1);
    for (std::size_t k = 0; k < binOfPixel.size(); ++k)
        if (binOfPixel[k] >= 0)
            pixels_[static_cast<std::size_t>(next[binOfPixel[k]]++)] = static_cast<std::int32_t>(k);
}

} // namespace clscope::azint
