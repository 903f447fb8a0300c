// The device side of the OpenCL variant `sparse` (xpcs_sparse.cl): multi-tau on the frames'
// entries. Each level keeps a ring of R_k rows (a value per labelled pixel, zero but where
// the row lists a position) and each row's list of its non-zero positions; a block's entries
// go up as stored (frame_ptr, pixel, count: a few bytes a photon, not a frame's pixels), are
// scattered into level 0, pairs merge into the next level by their lists, and each new row's
// frame sums and lag products per bin come from its list. The sums come back per row, as the
// dense rings' do, into a MultitauMerge: the same fold, so the same g2 bit for bit.
#pragma once
#include "core/sparse/sparse_block.hpp"
#include "core/xpcs/multitau.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/multitau_merge.hpp"

#include <deque>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace clscope::xpcs {

class SparseRings {
  public:
    // Frames of frameSize pixels (counts of `dtype`), blocks of up to `block` frames.
    SparseRings(ClSession& s, const Bins& bins, const Params& params, DType dtype,
                std::size_t frameSize, std::size_t block, const ProgramOverrides& overrides);
    // The next block's frames through every level, their sums folded (blocking). UsageError
    // where a binned frame's counts could take a 64-bit product out of range; InputError where
    // a pixel's counts in one frame sum beyond the dtype.
    void add(const SparseBlock& block);
    Result finish(std::size_t frames, const Params& params);

    // Frames per block for frames of `positions` labelled pixels: the rings within a memory
    // budget (MT_FRAMES: given).
    static std::size_t blockFor(std::size_t positions, const DeviceInfo& device,
                                const std::map<std::string, int>& tuning);

  private:
    struct Level {
        cl::Buffer ring, list, length;
        int rows = 0;
        std::size_t count = 0, cleared = 0; // rows so far; rows cleared (below count - C)
        bool values = false; // rows held by their values alone (no lists): binned, summed so
    };
    Level& level(std::size_t k);
    cl::Kernel& lagsKernel(std::size_t k, bool dense);
    bool crowded(std::size_t k) const; // level k's rows beyond the share (SP_DENSE)
    void upload(const SparseBlock& block);
    void checkTotals(const SparseBlock& block);
    void lags(BlockSums& sums, std::size_t k, std::size_t first, std::size_t count);
    void launch(cl::Kernel& kernel, const std::string& label, std::size_t groups);
    void readBack(BlockSums& sums, const SparseBlock& block);

    ClSession& s_;
    const Bins& bins_;
    std::shared_ptr<MultitauMerge> merge_;
    DType dtype_;
    int c_, wg_;
    std::size_t block_, positions_, capacity_, entries_ = 0, blocks_ = 0;
    ProgramRecipe recipe_;
    ProgramOverrides programs_;
    cl::Buffer position_, binOf_, offsets_, ptr_, pixel_, count_, sums_, prods_, beyond_;
    cl::Kernel scatter_, bin_, binValues_, clear_;
    std::map<std::size_t, cl::Kernel> lags_; // by level's lag set (0: level 0, 1: above)
    std::deque<Level> levels_;
    struct LevelBound {       // the host's bounds on a level's rows, as they are binned
        bool waiting = false; // the first row of a pair came: its counts and entries
        std::uint64_t total = 0, entries = 0;
        std::uint64_t most = 0; // the most entries (at most the positions) of any row so far
    };
    std::vector<LevelBound> pending_;
    int localBins_ = 0; // SP_LOCAL_BINS
    int denseShare_ = 8;
    int chunk_ = 512; // SP_CHUNK: list entries a work-group of sp_lags // SP_DENSE: levels of rows
                      // above positions / this take the values
    std::vector<std::int64_t> hostSums_;
};

} // namespace clscope::xpcs
