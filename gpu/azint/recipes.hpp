// The azint kernel programs declared as recipes (gpu/recipe.hpp): azint_histogram (variant
// histogram: its local-memory form and the global-atomics one), azint_csr, azint_sorted and
// azint_tiled,
// each with azint_norm (the normalisation sums under corrections), with every macro their .cl
// files read, the launch rule of each kernel, and the host's values for a run.
#pragma once
#include "core/data.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope::azint {

// Program names (ProgramRecipe::name, VariantInfo::programs).
inline const std::string histogramProgram = "azint_histogram";
inline const std::string csrProgram = "azint_csr";
inline const std::string sortedProgram = "azint_sorted";
inline const std::string tiledProgram = "azint_tiled";

// Every program of the azint variants, in the order above.
std::vector<ProgramRecipe> recipes();
// The recipe of that name (one of the above).
ProgramRecipe recipeOf(const std::string& name);

// The tiles of azint_tiled (AZ_TILE_H x AZ_TILE_W) a run's programs and tuning give, and
// whether its sorted form runs (AZ_TILE_SORTED: its own tables): its tables' layout, made before
// the run's other values (which depend on the tables).
struct TileShape {
    std::size_t rows = 0, columns = 0;
    bool sorted = false;
    bool operator==(const TileShape&) const = default;
};
TileShape tileShape(const ProgramOverrides& programs, const std::map<std::string, int>& tuning);

// Bytes of local memory a local histogram of `bins` bins takes (a 64-bit sum and a count each).
std::size_t localHistogramBytes(std::size_t bins);

// What the host's values depend on: the frames' type, the bins, the most pixels a bin holds and
// the most bins a tile of tiled spans (0: not known, the bins).
struct RunShape {
    DType dtype = DType::UInt16;
    std::size_t bins = 0;
    std::size_t longestBin = 0;
    std::size_t widestTile = 0;
};

// Whether 64-bit integer signal sums equal the reference's float64 sums bit for bit: integer
// frames whose every partial sum stays below 2^53 (the longest bin times the largest |value|),
// so the reference's sums are exact too.
bool exactIntegerSums(DType dtype, std::size_t longestBin);

// The host's values for a run's programs: the frames' type and sentinel limit, integer sums
// where exact (AZ_INT_SUM), the local histogram's bins (the bins rounded up to 64 where they fit
// the device's local memory, else 0: global atomics) and the width of its sums, tiled's local
// histogram (AZ_LOCAL_SLOTS: half the local memory, at most AZ_TILE_FRAMES x its widest tile)
// and its offsets' width (AZ_TILE_BYTES: every tile within 255 bins, as the tables make them),
// csr's work-group per bin (AZ_CSR_GROUP: 1 but on CPU devices), then the tuning over them.
// UsageError for a tuning that would give other sums (AZ_INT_SUM on float frames or past the bound,
// a narrow local sum that could overflow, a local histogram smaller than the bins, offsets unlike
// the tables') or not run (tiles AZ_TILE_RUN does not divide, AZ_LOCAL_SLOTS past the local
// memory).
TunableValues hostValues(const RunShape& shape, const DeviceInfo& device,
                         const std::map<std::string, int>& tuning);
// The same checks on a program's resolved values (its own tunables, the run's program overrides
// over the host's: the lab's --set and --sweep), so that no override gives other sums or a
// layout unlike its tables'.
void checkProgramValues(const RunShape& shape, const DeviceInfo& device,
                        const TunableValues& values);

} // namespace clscope::azint
