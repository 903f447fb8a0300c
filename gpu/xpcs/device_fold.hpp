// Multi-tau's fold on the device (xpcs_multitau_fold.cl): a block's per-row sums, as the rings
// leave them on the device (RowsAt: the MultitauStats layout), folded there into statistics
// that stay there until the run ends, instead of coming back row by row to the host's fold.
// The same integers and the same steps of the ratios' moments: the same g2 and g2_err bit for
// bit (integer data; one device, no split).
#pragma once
#include "core/xpcs/multitau.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/multitau_merge.hpp"

#include <deque>
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
    struct Level {
        cl::Buffer state, ring[2];
        int parity = 0;        // the ring the next rows read
        std::size_t rows = 0;  // rows folded so far
    };
    Level& level(std::size_t k);

    ClSession& s_;
    std::size_t bins_;
    int c_;
    cl::Buffer pixels_;
    cl::Kernel fold_;
    std::deque<Level> levels_;
};

} // namespace clscope::xpcs
