// Multi-tau's fold on the device (xpcs_multitau_fold.cl): a block's per-row sums, as the rings
// leave them on the device (RowsAt: the MultitauStats layout), folded there, every level's rows
// in one launch, into statistics that stay there until the run ends, instead of coming back row
// by row to the host's fold. The same integers and the same steps of the ratios' moments: the
// same g2 and g2_err bit for bit (integer data; one device, no split).
#pragma once
#include "core/xpcs/multitau.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/multitau_merge.hpp"

#include <vector>

namespace clscope::xpcs {

class DeviceFold {
  public:
    // The bins' statistics over `channels` lags a level; kernels of `recipe` (which holds
    // xpcs_multitau_fold.cl) with `values`.
    DeviceFold(ClSession& s, const Bins& bins, int channels, const ProgramRecipe& recipe,
               const TunableValues& values);
    // Queues the fold of a block's rows (each level's next rows, in order) from `sums` and
    // `products` (their words at each RowsAt's sumsAt / prodsAt).
    void queue(const std::vector<RowsAt>& rows, const cl::Buffer& sums, const cl::Buffer& products);
    // Every level's statistics into `merge` (waits for the device).
    void into(MultitauMerge& merge);

  private:
    void hold(std::size_t levels); // state and rings for at least this many levels
    struct Table {                 // a block's entries (8 words each) and their upload
        std::vector<cl_long> words;
        cl::Buffer buffer;
        cl::Event written;
    };

    ClSession& s_;
    std::size_t bins_;
    int c_;
    cl::Buffer pixels_, state_, rings_; // every level's, levels_ of them
    std::size_t levels_ = 0;
    std::vector<std::size_t> rows_; // rows folded so far, per level
    std::vector<int> parity_;       // the ring a level's next rows read
    Table tables_[2];
    std::size_t blocks_ = 0;
    cl::Kernel fold_;
};

} // namespace clscope::xpcs
