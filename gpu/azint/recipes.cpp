// The azint programs as recipes: the frames' type and sentinels under every kernel, the local
// histogram of azint_histogram_local, and the work-group sizes.
#include "gpu/azint/recipes.hpp"

#include "core/errors.hpp"
#include "core/sentinels.hpp"
#include "gpu/kernel_source.hpp"

namespace clscope::azint {

namespace {

std::vector<Tunable> inputTunables() {
    return {
        fromInput(choiceTunable("DATA_T", "ushort", {"uchar", "ushort", "uint", "int", "float"},
                                "element type of the frames")),
        fromInput(flagTunable("DATA_FLOAT", false, "float data: non-finite values are left out")),
        fromInput(
            integerTunable("VALID_LIMIT", 65534, 0, 4294967295LL,
                           "values >= it are left out (2^bits - 2 for unsigned data); 0: none")),
    };
}

ProgramRecipe histogram() {
    std::vector<Tunable> tunables = inputTunables();
    tunables.push_back(fromInput(integerTunable(
        "AZ_LOCAL_BINS", 1000, 0, 1 << 20,
        "bins of the local histogram (>= the run's bins; 0: global atomics, no local form)")));
    tunables.push_back(
        integerTunable("AZ_HIST_WG", 256, 1, 1024, "work-group size of the histogram kernels"));
    tunables.push_back(
        integerTunable("AZ_PER_ITEM", 32, 1, 4096, "pixels per work-item of the local form"));
    ProgramRecipe recipe(histogramProgram, {"common", "azint"}, std::move(tunables));
    // A work-item per pixel and frame; the local form AZ_PER_ITEM pixels a work-item.
    recipe.launch("azint_histogram", {{"AZ_HIST_WG", "1"}, {}});
    return recipe.launch("azint_histogram_local", {{"AZ_HIST_WG", "1"}, {"AZ_PER_ITEM", "1"}});
}

ProgramRecipe csr() {
    std::vector<Tunable> tunables = inputTunables();
    tunables.push_back(integerTunable("AZ_CSR_WG", 64, 1, 1024, "work-group size of azint_csr"));
    ProgramRecipe recipe(csrProgram, {"common", "azint"}, std::move(tunables));
    return recipe.launch("azint_csr", {{"AZ_CSR_WG", "1"}, {}}); // a work-item per bin and frame
}

ProgramRecipe sorted() {
    std::vector<Tunable> tunables = inputTunables();
    tunables.push_back(integerTunable(
        "AZ_WG", 256, 2, 1024, "work-group size = sorted entries a group sums (a power of two)"));
    ProgramRecipe recipe(sortedProgram, {"common", "azint", "azint_sorted"}, std::move(tunables));
    return recipe.launch("azint_sorted", {{"AZ_WG", "1"}, {}}); // a work-item per entry, frame
}

} // namespace

std::vector<ProgramRecipe> recipes() {
    return {histogram(), csr(), sorted()};
}

ProgramRecipe recipeOf(const std::string& name) {
    for (ProgramRecipe& recipe : recipes())
        if (recipe.name() == name) return recipe;
    throw UsageError("azint: no program '" + name + "'");
}

std::size_t localHistogramBytes(std::size_t bins) {
    return bins * (8 + 8 + 4);
}

TunableValues hostValues(DType dtype, std::size_t bins, const DeviceInfo& device,
                         const std::map<std::string, int>& tuning) {
    // Half the local memory at most, so that a work-group still gets a compute unit's share.
    const bool fits = localHistogramBytes(bins) <= device.localMemBytes / 2;
    TunableValues values{{"DATA_T", clTypeName(dtype)},
                         {"DATA_FLOAT", dtype == DType::Float32 ? "1" : "0"},
                         {"VALID_LIMIT", std::to_string(validLimit(dtype))},
                         {"AZ_LOCAL_BINS", fits ? std::to_string(bins) : "0"}};
    for (const auto& [name, value] : tunableValues(tuning))
        values[name] = value;
    const long long local = std::stoll(values.at("AZ_LOCAL_BINS"));
    if (local != 0 && local < static_cast<long long>(bins))
        throw UsageError("azint: AZ_LOCAL_BINS = " + std::to_string(local) +
                         " holds fewer than the run's " + std::to_string(bins) +
                         " bins (0: global atomics)");
    return values;
}

} // namespace clscope::azint
