#include "gpu/spots/recipes.hpp"

#include "gpu/kernel_source.hpp"

namespace clscope::spots {

namespace {

// spots_local's strip form: 8/16-bit data (count and sum packed in one uint) and windows of at
// most 64 pixels (their sums stay below 2^22).
bool stripLocal(DType dtype, const Params& p) {
    return (dtype == DType::UInt8 || dtype == DType::UInt16) &&
           (2 * p.kernelX + 1) * (2 * p.kernelY + 1) <= 64;
}

// The default run of the tile form's rows' sums fitted to the block's columns where it does not
// divide them (the largest power of two at most it that does), so a narrower STRIP_X still
// builds; a run that was asked for is taken as it is (and checked by the kernel).
int fittedRun(const TunableValues& values) {
    const int columns = std::stoi(values.at("STRIP_X"));
    int run = std::stoi(values.at("STRIP_RUN"));
    while (run > 1 && columns % run)
        run /= 2;
    return run;
}

const char* flag(bool on) {
    return on ? "1" : "0";
}

std::vector<Tunable> inputTunables() {
    return {
        fromInput(choiceTunable("DATA_T", "ushort", {"uchar", "ushort", "uint", "int", "float"},
                                "element type of the frames")),
        fromInput(flagTunable("DATA_FLOAT", false, "float data: sums in real_t, not exact")),
        fromInput(
            integerTunable("VALID_LIMIT", 65534, 0, 4294967295LL,
                           "values >= it are invalid (2^bits - 2 for unsigned data); 0: none")),
        fromInput(integerTunable("KX", 3, 1, 64, "window half-width (columns)")),
        fromInput(integerTunable("KY", 3, 1, 64, "window half-height (rows)")),
        fromInput(flagTunable("USE_GAIN", false, "DIALS' tests with the gain (gain != 1)")),
        fromInput(integerTunable("EROSION", 3, 1, 64,
                                 "erosion distance of dispersion_extended, min(KX, KY)")),
        fromInput(flagTunable("MASKED_DISPERSIVE", true,
                              "masked pixels count as dispersive (DIALS >= 2025); 0: older DIALS")),
        fromInput(flagTunable("SPOTS_STRIP", true,
                              "spots_local is the strip kernel (uchar/ushort, window <= 64 px)")),
    };
}

std::vector<Tunable> tuningTunables() {
    return {
        integerTunable("TILE_X", 16, 1, 1024, "work-group columns of the per-pixel kernels"),
        integerTunable("TILE_Y", 16, 1, 1024, "work-group rows of the per-pixel kernels"),
        integerTunable("STRIP_X", 32, 1, 1024, "work-group columns of spots_local's strip form"),
        integerTunable("STRIP_Y", 8, 1, 1024, "work-group rows of spots_local's strip form"),
        integerTunable("STRIP_ROWS", 8, 1, 32, "rows per work-item of spots_local's strip form"),
        // 4: H100, lab spots --size large, dispersion: 0.130 ms against 0.150 (2), 0.149 (1),
        // 0.133 (8) (2026-11-28, docs/performance-checks.md)
        integerTunable("STRIP_VEC", 4, 1, 8,
                       "pixels a work-item of the strip form loads at once: 1, 2, 4, 8 | STRIP_X"),
        flagTunable("STRIP_WALK", false,
                    "strip form: each work-item walks its columns' sums down in registers "
                    "(spots_walk.cl); 0: the local-memory tile"),
        integerTunable("WALK_COLS", 8, 1, 32, "columns per work-item of the walk form"),
        integerTunable("WALK_ROWS", 32, 1, 4096, "rows per work-item of the walk form"),
        integerTunable("WALK_STAGE", 1024, 1, 8192,
                       "signal pixels a work-group of the walk form stages in local memory"),
        // 16: H200, lab spots --size large, dispersion: 0.1170 ms against 0.1320 (0), 0.1192 (4),
        // 0.1201 (8), 0.1228 (32) (2026-11-29, docs/performance-checks.md)
        integerTunable("STRIP_RUN", 16, 0, 64,
                       "tile form: rows' sums slid along runs of this many columns a work-item "
                       "(divides STRIP_X); 0: each column's window summed"),
        // 1: H200, lab spots --size large: 0.1121 ms against 0.1165 (seed 0.1034 against 0.1078;
        // stream kernels 11.32 against 11.91 ms) (2026-11-29, docs/performance-checks.md)
        flagTunable("STRIP_QSPLIT", true,
                    "tile form: rows' sums of squares kept as 32 bits and a byte (less local "
                    "memory a work-group); 0: 64 bits"),
        flagTunable("STRIP_SHARED_ROWS", true,
                    "strip form: rows' sums shared in local memory; 0: summed per work-item"),
        integerTunable("STRIP_FRAMES", 4, 1, 64,
                       "frames of a chunk per work-group of the strip form (bad flags read once)"),
        flagTunable("SIGNAL_MASK_ALWAYS", false,
                    "every launch writes the dense signal mask; 0: only a relaunch on overflow"),
    };
}

ProgramRecipe makeRecipe() {
    std::vector<Tunable> tunables = inputTunables();
    for (Tunable& t : tuningTunables())
        tunables.push_back(std::move(t));
    ProgramRecipe recipe(
        "spots", {"common", "spots", "spots_strip", "spots_walk", "spots_extended", "spots_sat"},
        std::move(tunables));
    const LaunchRule tile{{"TILE_X", "TILE_Y", "1"}, {}};
    for (const char* kernel : {"spots_local", "spots_direct", "spots_sat_threshold",
                               "spots_ext_dispersive", "spots_ext_erode", "spots_ext_final"})
        recipe.launch(kernel, tile);
    recipe.launch("spots_local/strip",
                  {{"STRIP_X", "STRIP_Y", "1"}, {"1", "STRIP_ROWS", "STRIP_FRAMES"}});
    recipe.launch("spots_local/walk",
                  {{"STRIP_X", "STRIP_Y", "1"}, {"WALK_COLS", "WALK_ROWS", "STRIP_FRAMES"}});
    // One work-item per row (rows) or column (cols) of every frame.
    recipe.launch("spots_sat_rows", {{"64", "1"}, {}});
    recipe.launch("spots_sat_cols", {{"64", "1"}, {}});
    return recipe;
}

} // namespace

const ProgramRecipe& spotsRecipe() {
    static const ProgramRecipe recipe = makeRecipe();
    return recipe;
}

TunableValues inputValues(DType dtype, const Params& p) {
    return {{"DATA_T", clTypeName(dtype)},
            {"DATA_FLOAT", flag(dtype == DType::Float32)},
            {"VALID_LIMIT", std::to_string(validLimit(dtype))},
            {"KX", std::to_string(p.kernelX)},
            {"KY", std::to_string(p.kernelY)},
            {"USE_GAIN", flag(p.gain != 1.0)},
            {"EROSION", std::to_string(erosionDistance(p))},
            {"MASKED_DISPERSIVE", flag(!p.legacyMaskedBackground)},
            {"SPOTS_STRIP", flag(stripLocal(dtype, p))}};
}

TunableValues programValues(const ProgramRecipe& recipe, DType dtype, const Params& p,
                            const ProgramOverrides& programs, const DeviceInfo& device) {
    TunableValues values = inputValues(dtype, p);
    // The walk form on a CPU, the tile form on a GPU: lab spots --size large, one 4148 x 4362
    // frame: PoCL (2 cores) 0.173-0.192 s against 0.285-0.301; an H200 0.19-0.23 ms against the
    // tile form's 0.112 (2026-11-29, docs/performance-checks.md).
    values["STRIP_WALK"] = device.type == "CPU" ? "1" : "0";
    for (const auto& [name, value] : tunableValues(p.tuning))
        values[name] = value;
    TunableValues resolved = recipe.resolve(programs.over(std::move(values)));
    if (!p.tuning.count("STRIP_RUN") && !programs.values.count("STRIP_RUN"))
        resolved["STRIP_RUN"] = std::to_string(fittedRun(resolved));
    return resolved;
}

const ProgramRecipe& gatherRecipe() {
    static const ProgramRecipe recipe = [] {
        ProgramRecipe r(
            "gather", {"common", "gather"},
            {fromInput(choiceTunable("ELEM", "ushort", {"uchar", "ushort", "uint", "ulong"},
                                     "an unsigned type of the elements' size"))});
        r.launch("gather_elements", {{"64"}, {}});
        return r;
    }();
    return recipe;
}

TunableValues gatherValues(DType dtype) {
    switch (dtypeSize(dtype)) {
    case 1:
        return {{"ELEM", "uchar"}};
    case 2:
        return {{"ELEM", "ushort"}};
    case 4:
        return {{"ELEM", "uint"}};
    default:
        return {{"ELEM", "ulong"}};
    }
}

int tunableInt(const TunableValues& values, const std::string& name) {
    return std::stoi(values.at(name));
}

std::string localLaunch(const TunableValues& values) {
    if (values.at("SPOTS_STRIP") != "1") return "spots_local";
    return values.at("STRIP_WALK") == "1" ? "spots_local/walk" : "spots_local/strip";
}

} // namespace clscope::spots
