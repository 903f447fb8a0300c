// The bin -> pixel sparse matrix of a binning (pyFAI's CSR method without pixel splitting, so
// every coefficient is 1): row b lists the pixels of bin b, ascending. What the OpenCL CSR
// variant uploads once per geometry; its product with a frame is the histogram.
#pragma once
#include <cstdint>
#include <vector>

namespace clscope::azint {

class CsrMatrix {
  public:
    // binOfPixel[k]: the bin of pixel k, or -1 for none; bins: the number of rows.
    CsrMatrix(const std::vector<std::int32_t>& binOfPixel, std::size_t bins);

    std::size_t rows() const { return rowStart_.size() - 1; }
    std::size_t nonZeros() const { return pixels_.size(); }
    // Row b holds pixels()[rowStart()[b] .. rowStart()[b + 1]).
    const std::vector<std::int64_t>& rowStart() const { return rowStart_; }
    const std::vector<std::int32_t>& pixels() const { return pixels_; }

  private:
    std::vector<std::int64_t> rowStart_;
    std::vector<std::int32_t> pixels_;
};

} // namespace clscope::azint
