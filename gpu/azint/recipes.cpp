// The azint programs as recipes: the frames' type, sentinels and kind of sums under every
// kernel, the local histograms of azint_histogram_local and azint_tiled, the tiles, the
// work-group sizes and the frames a work-group sums.
#include "gpu/azint/recipes.hpp"

#include "core/errors.hpp"
#include "core/sentinels.hpp"
#include "gpu/kernel_source.hpp"

namespace clscope::azint {

namespace {

// tiled's default tile rows and frames a work-group (AZ_TILE_H, AZ_TILE_FRAMES): on an H200
// 16 frames of 4096^2 took 0.321 ms with 64-row tiles of 8 frames, 0.279 ms so; the large case
// 0.060 -> 0.055-0.057 ms (PERFORMANCE.md, azint kernel on an H200).
constexpr int tileRows = 32, tileColumns = 64, tileFrames = 16, tileRegisters = 32;

std::vector<Tunable> inputTunables() {
    return {
        fromInput(choiceTunable("DATA_T", "ushort", {"uchar", "ushort", "uint", "int", "float"},
                                "element type of the frames")),
        fromInput(flagTunable("DATA_FLOAT", false, "float data: non-finite values are left out")),
        fromInput(
            integerTunable("VALID_LIMIT", 65534, 0, 4294967295LL,
                           "values >= it are left out (2^bits - 2 for unsigned data); 0: none")),
        fromInput(flagTunable("AZ_INT_SUM", true,
                              "signal sums in 64-bit integers (integer frames, sums < 2^53)")),
    };
}

Tunable framesTunable() {
    // 2: the H100's lab sweeps of 2026-11-27 (csr and sorted, seed and large; PERFORMANCE.md)
    return integerTunable("AZ_FRAMES", 2, 1, 64, "frames a work-group sums (tables read once)");
}

// histogram, tiled: counts started at the bins' binned pixels (the tables'), invalid values taken
// off, instead of counted by atomics beside every sum (resources/kernels/azint.cl).
Tunable staticCountsTunable() {
    return flagTunable("AZ_STATIC_COUNTS", false,
                       "counts start at each bin's pixels, invalid values taken off (no count "
                       "atomics beside the sums)");
}

// Every program ends with azint_norm: a work-item per bin and frame.
ProgramRecipe withNorm(ProgramRecipe recipe) {
    return recipe.launch("azint_norm", {{"64", "1"}, {}});
}

ProgramRecipe histogram() {
    std::vector<Tunable> tunables = inputTunables();
    tunables.push_back(fromInput(integerTunable(
        "AZ_LOCAL_BINS", 1000, 0, 1 << 20,
        "bins of the local histogram (>= the run's bins; 0: global atomics, no local form)")));
    tunables.push_back(
        fromInput(flagTunable("AZ_LOCAL_WIDE", false,
                              "64-bit local sums (a group's 32-bit integer sums could overflow)")));
    tunables.push_back(
        integerTunable("AZ_HIST_WG", 256, 1, 1024, "work-group size of the histogram kernels"));
    tunables.push_back(
        integerTunable("AZ_PER_ITEM", 32, 1, 4096, "pixels per work-item of the local form"));
    tunables.push_back(integerTunable(
        "AZ_RUN", 4, 1, 64,
        "local form: consecutive pixels a work-item sums in registers (divides AZ_PER_ITEM)"));
    tunables.push_back(staticCountsTunable());
    ProgramRecipe recipe(histogramProgram, {"common", "azint", "azint_local", "azint_histogram"},
                         std::move(tunables));
    // A work-item per pixel and frame; the local form AZ_PER_ITEM pixels a work-item.
    recipe.launch("azint_histogram", {{"AZ_HIST_WG", "1"}, {}});
    recipe.launch("azint_histogram_local", {{"AZ_HIST_WG", "1"}, {"AZ_PER_ITEM", "1"}});
    return withNorm(std::move(recipe));
}

ProgramRecipe csr() {
    std::vector<Tunable> tunables = inputTunables();
    tunables.push_back(integerTunable(
        "AZ_CSR_WG", 256, 1, 1024, // the H100's best of 64..512 (large: 0.17 against 0.25 ms)
        "work-group size of azint_csr; azint_csr_group: work-items summing one bin"));
    tunables.push_back(flagTunable(
        "AZ_CSR_GROUP", true,
        "integer sums: a work-group per bin (GPUs; the host's default: 0 on CPU devices)"));
    tunables.push_back(framesTunable());
    ProgramRecipe recipe(csrProgram, {"common", "azint", "azint_csr"}, std::move(tunables));
    recipe.launch("azint_csr", {{"AZ_CSR_WG", "1"}, {}}); // a work-item per bin and frame
    // A work-group per bin (extent bins x AZ_CSR_WG) and AZ_FRAMES frames.
    recipe.launch("azint_csr_group", {{"AZ_CSR_WG", "1"}, {"1", "AZ_FRAMES"}});
    return withNorm(std::move(recipe));
}

ProgramRecipe sorted() {
    std::vector<Tunable> tunables = inputTunables();
    tunables.push_back(integerTunable(
        "AZ_WG", 256, 2, 1024, "work-group size = sorted entries a group sums (a power of two)"));
    tunables.push_back(framesTunable());
    // 8: the H100's best of 1..8 (large: 0.45 against 0.73 ms at 4); 16 overflows its 48 KiB
    tunables.push_back(integerTunable("AZ_SORTED_RUN", 8, 1, 64,
                                      "azint_sorted_runs: consecutive entries a work-item sums"));
    ProgramRecipe recipe(sortedProgram, {"common", "azint", "azint_sorted"}, std::move(tunables));
    // A work-item per entry (integer frames: per AZ_SORTED_RUN entries), AZ_FRAMES frames.
    recipe.launch("azint_sorted", {{"AZ_WG", "1"}, {"1", "AZ_FRAMES"}});
    recipe.launch("azint_sorted_runs", {{"AZ_WG", "1"}, {"AZ_SORTED_RUN", "AZ_FRAMES"}});
    return withNorm(std::move(recipe));
}

// Defaults measured on an H200 (PERFORMANCE.md, azint kernel on an H200): tiles of 32 x 64
// pixels (rows of 128 bytes for uint16), 8 consecutive pixels a work-item (one 16-byte load), one
// run each at 256 work-items, 16 frames a group, 32 registers on NVIDIA.
ProgramRecipe tiled() {
    std::vector<Tunable> tunables = inputTunables();
    tunables.push_back(
        fromInput(flagTunable("AZ_LOCAL_WIDE", false,
                              "64-bit local sums (a tile's 32-bit integer sums could overflow)")));
    tunables.push_back(fromInput(integerTunable(
        "AZ_LOCAL_SLOTS", 3072, 1, 1 << 20,
        "bins of the local histogram (a tile's span x frames of a pass; wider tiles: global)")));
    tunables.push_back(fromInput(
        flagTunable("AZ_TILE_BYTES", false,
                    "offsets in bytes (every tile spans at most 255 bins; the tables')")));
    tunables.push_back(integerTunable("AZ_TILE_H", tileRows, 1, 4096, "rows of a tile"));
    tunables.push_back(integerTunable("AZ_TILE_W", tileColumns, 1, 4096,
                                      "columns of a tile (a multiple of AZ_TILE_RUN)"));
    tunables.push_back(choiceTunable("AZ_TILE_RUN", "8", {"1", "2", "4", "8", "16"},
                                     "consecutive pixels a work-item reads at once"));
    tunables.push_back(
        integerTunable("AZ_TILE_WG", 256, 1, 1024, "work-group size (work-items of a tile)"));
    tunables.push_back(integerTunable("AZ_TILE_FRAMES", tileFrames, 1, 64,
                                      "frames a work-group sums (offsets read once)"));
    // 32 registers (ptxas took 45): eight work-groups of 256 reside on a multiprocessor, not five;
    // 16 x 4096^2 on an H200 0.278 -> 0.240 ms (45 -> 52 % of the bandwidth; 36 or 40: 49 %). ptxas
    // ignores the cap where the kernel requires its work-group size (as launch bounds), so
    // azint_tiled requires none.
    tunables.push_back(integerTunable(
        "AZ_TILE_REGS", tileRegisters, 0, 255,
        "NVIDIA: registers a work-item may use (-cl-nv-maxrregcount; 0: the compiler's choice)"));
    // On: 0.420 -> 0.345 ms for 16 frames of 4096^2 on an H200 (PERFORMANCE.md, azint large).
    tunables.push_back(flagTunable("AZ_TILE_TWO", true,
                                   "integer sums: runs of one or two bins summed without a branch "
                                   "a pixel (0: pixel by pixel)"));
    tunables.push_back(staticCountsTunable());
    tunables.push_back(flagTunable(
        "AZ_TILE_SORTED", false,
        "azint_tiled_sorted: the tile's pixels sorted by bin, a segment a work-item, no local "
        "atomics (its frames in local memory)"));
    ProgramRecipe recipe(tiledProgram, {"common", "azint", "azint_local", "azint_tiled"},
                         std::move(tunables));
    // A work-group per tile (extent tiles x AZ_TILE_WG) and AZ_TILE_FRAMES frames.
    recipe.launch("azint_tiled", {{"AZ_TILE_WG", "1"}, {"1", "AZ_TILE_FRAMES"}});
    recipe.launch("azint_tiled_sorted", {{"AZ_TILE_WG", "1"}, {"1", "AZ_TILE_FRAMES"}});
    return withNorm(std::move(recipe));
}

// The largest |value| a valid pixel of integer frames holds (0 for float frames).
std::uint64_t largestValue(DType dtype) {
    if (dtype == DType::Int32) return std::uint64_t(1) << 31;
    const std::uint64_t limit = validLimit(dtype);
    return limit ? limit - 1 : 0;
}

long long integerValue(const TunableValues& values, const std::string& name, long long fallback) {
    const auto it = values.find(name);
    return it == values.end() ? fallback : std::stoll(it->second);
}

// 32-bit local sums of one bin hold its pixels' values without overflow: a work-group's of the
// histogram, a tile's of tiled (one value for both programs: the larger).
bool narrowLocalSums(DType dtype, const TunableValues& values) {
    const std::uint64_t group = std::uint64_t(integerValue(values, "AZ_HIST_WG", 256)) *
                                std::uint64_t(integerValue(values, "AZ_PER_ITEM", 32));
    const std::uint64_t tile = std::uint64_t(integerValue(values, "AZ_TILE_H", tileRows)) *
                               std::uint64_t(integerValue(values, "AZ_TILE_W", tileColumns));
    const std::uint64_t pixels = std::max(group, tile);
    const std::uint64_t most =
        dtype == DType::Int32 ? (std::uint64_t(1) << 31) - 1 : (std::uint64_t(1) << 32) - 1;
    return largestValue(dtype) <= most / pixels;
}

// A flag's value, "" where the program does not declare it (checkValues: a program's own values).
std::string flagValue(const TunableValues& values, const std::string& name) {
    const auto it = values.find(name);
    return it == values.end() ? "" : it->second;
}

// Bytes of a bin of tiled's local histogram: its signal sum (32 or 64 bits) and its count (none
// with static counts).
std::size_t slotBytes(const TunableValues& values) {
    const bool narrow = values.at("AZ_INT_SUM") == "1" && flagValue(values, "AZ_LOCAL_WIDE") == "0";
    const std::size_t count = flagValue(values, "AZ_STATIC_COUNTS") == "1" ? 0 : 4;
    return (narrow ? 4 : 8) + count;
}

// tiled's local histogram: half the local memory at most (as the histogram's), and no more than
// AZ_TILE_FRAMES frames of the widest tile's bins (or of all bins), rounded up to 64 so that runs
// whose tiles differ a little share a program: a small one leaves room for more work-groups.
std::string localSlots(const RunShape& shape, const DeviceInfo& device,
                       const TunableValues& values) {
    const std::size_t fit = device.localMemBytes / 2 / slotBytes(values);
    const std::size_t frames = std::size_t(integerValue(values, "AZ_TILE_FRAMES", tileFrames));
    const std::size_t span = shape.widestTile ? std::min(shape.widestTile, shape.bins) : shape.bins;
    const std::size_t most = std::max<std::size_t>(1, (span + 63) / 64 * 64 * frames);
    return std::to_string(std::clamp<std::size_t>(fit, 1, most));
}

// Offsets in bytes where every tile spans at most 255 bins: what the tables hold (device_tables).
std::string byteOffsets(const RunShape& shape) {
    return shape.widestTile > 0 && shape.widestTile <= 255 ? "1" : "0";
}

// Bytes of local memory azint_tiled_sorted takes: AZ_TILE_FRAMES frames of a tile, each padded
// by a 32-bit word, and the tile's 16-bit order (resources/kernels/azint_tiled.cl).
std::size_t sortedTileBytes(DType dtype, const TunableValues& values) {
    const std::size_t area = std::size_t(integerValue(values, "AZ_TILE_H", tileRows)) *
                             std::size_t(integerValue(values, "AZ_TILE_W", tileColumns));
    const std::size_t element = dtypeSize(dtype), pad = element < 4 ? 4 / element : 1;
    return std::size_t(integerValue(values, "AZ_TILE_FRAMES", tileFrames)) * (area + pad) *
               element +
           area * 2;
}

void checkSortedTiles(const RunShape& shape, const DeviceInfo& device,
                      const TunableValues& values) {
    if (flagValue(values, "AZ_TILE_SORTED") != "1") return;
    if (integerValue(values, "AZ_TILE_H", tileRows) *
            integerValue(values, "AZ_TILE_W", tileColumns) >
        (1 << 16))
        throw UsageError("azint: AZ_TILE_SORTED takes tiles of at most 65,536 pixels");
    const std::size_t bytes = sortedTileBytes(shape.dtype, values);
    if (device.localMemBytes && bytes > device.localMemBytes)
        throw UsageError("azint: AZ_TILE_SORTED: " + std::to_string(bytes) +
                         " bytes of local memory (AZ_TILE_FRAMES frames of a tile) do not fit "
                         "the device's; fewer frames or smaller tiles");
}

void checkTiles(const RunShape& shape, const DeviceInfo& device, const TunableValues& values) {
    checkSortedTiles(shape, device, values);
    const std::string bytes = flagValue(values, "AZ_TILE_BYTES");
    if (shape.widestTile && !bytes.empty() && bytes != byteOffsets(shape))
        throw UsageError("azint: AZ_TILE_BYTES follows the tiles' spans (" + byteOffsets(shape) +
                         " here)");
    if (integerValue(values, "AZ_TILE_W", tileColumns) % integerValue(values, "AZ_TILE_RUN", 8) !=
        0)
        throw UsageError("azint: AZ_TILE_RUN must divide AZ_TILE_W");
    const long long slots = integerValue(values, "AZ_LOCAL_SLOTS", 1);
    if (device.localMemBytes && std::size_t(slots) * slotBytes(values) > device.localMemBytes)
        throw UsageError("azint: AZ_LOCAL_SLOTS = " + std::to_string(slots) +
                         " does not fit the device's local memory");
}

void checkValues(const RunShape& shape, const DeviceInfo& device, const TunableValues& values) {
    const long long local = integerValue(values, "AZ_LOCAL_BINS", 0);
    if (local != 0 && local < static_cast<long long>(shape.bins))
        throw UsageError("azint: AZ_LOCAL_BINS = " + std::to_string(local) +
                         " holds fewer than the run's " + std::to_string(shape.bins) +
                         " bins (0: global atomics)");
    const long long perItem = integerValue(values, "AZ_PER_ITEM", 32);
    if (perItem % integerValue(values, "AZ_RUN", 4) != 0)
        throw UsageError("azint: AZ_RUN must divide AZ_PER_ITEM (" + std::to_string(perItem) + ")");
    const bool intSum = values.at("AZ_INT_SUM") == "1";
    if (intSum && !exactIntegerSums(shape.dtype, shape.longestBin))
        throw UsageError("azint: AZ_INT_SUM = 1 is for integer frames whose sums stay below 2^53 "
                         "(the reference's float64 sums exact)");
    if (intSum && flagValue(values, "AZ_LOCAL_WIDE") == "0" &&
        !narrowLocalSums(shape.dtype, values))
        throw UsageError("azint: AZ_LOCAL_WIDE = 0: a work-group's 32-bit sums could overflow");
    checkTiles(shape, device, values);
}

} // namespace

std::vector<ProgramRecipe> recipes() {
    return {histogram(), csr(), sorted(), tiled()};
}

ProgramRecipe recipeOf(const std::string& name) {
    for (ProgramRecipe& recipe : recipes())
        if (recipe.name() == name) return recipe;
    throw UsageError("azint: no program '" + name + "'");
}

TileShape tileShape(const ProgramOverrides& programs, const std::map<std::string, int>& tuning) {
    const TunableValues values = tiled().resolve(programs.over(tunableValues(tuning)));
    return {std::stoul(values.at("AZ_TILE_H")), std::stoul(values.at("AZ_TILE_W")),
            values.at("AZ_TILE_SORTED") == "1"};
}

std::size_t localHistogramBytes(std::size_t bins) {
    return bins * (8 + 4);
}

bool exactIntegerSums(DType dtype, std::size_t longestBin) {
    const std::uint64_t largest = largestValue(dtype);
    if (dtype == DType::Float32 || dtype == DType::Float64 || largest == 0) return false;
    return std::uint64_t(longestBin) <= ((std::uint64_t(1) << 53) - 1) / largest;
}

void checkProgramValues(const RunShape& shape, const DeviceInfo& device,
                        const TunableValues& values) {
    checkValues(shape, device, values);
}

TunableValues hostValues(const RunShape& shape, const DeviceInfo& device,
                         const std::map<std::string, int>& tuning) {
    // Half the local memory at most, so that a work-group still gets a compute unit's share.
    // Rounded up to 64 bins: runs whose bins differ a little share a program.
    const std::size_t localBins = (shape.bins + 63) / 64 * 64;
    const bool fits = localHistogramBytes(localBins) <= device.localMemBytes / 2;
    TunableValues values{
        {"DATA_T", clTypeName(shape.dtype)},
        {"DATA_FLOAT", shape.dtype == DType::Float32 ? "1" : "0"},
        {"VALID_LIMIT", std::to_string(validLimit(shape.dtype))},
        {"AZ_INT_SUM", exactIntegerSums(shape.dtype, shape.longestBin) ? "1" : "0"},
        {"AZ_LOCAL_BINS", fits ? std::to_string(localBins) : "0"}};
    for (const auto& [name, value] : tunableValues(tuning))
        values[name] = value;
    if (!values.count("AZ_CSR_GROUP")) // a CPU runs a work-item per bin best
        values["AZ_CSR_GROUP"] = device.type == "CPU" ? "0" : "1";
    if (!values.count("AZ_LOCAL_WIDE"))
        values["AZ_LOCAL_WIDE"] = narrowLocalSums(shape.dtype, values) ? "0" : "1";
    if (!values.count("AZ_TILE_BYTES")) values["AZ_TILE_BYTES"] = byteOffsets(shape);
    if (!values.count("AZ_LOCAL_SLOTS"))
        values["AZ_LOCAL_SLOTS"] = localSlots(shape, device, values);
    checkValues(shape, device, values);
    return values;
}

} // namespace clscope::azint
