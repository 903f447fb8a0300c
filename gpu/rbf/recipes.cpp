// The rbf programs as recipes: rbf_pairs.cl's pair function under every direct kernel, the
// tiling knobs of rbf_tiled.cl, the seed's work-group of rbf_seed.cl and the matrix-product
// tiles of rbf_separable.cl.
#include "gpu/rbf/recipes.hpp"

#include "core/errors.hpp"

namespace clscope::rbf {

namespace {

Tunable complexWeights() {
    return fromInput(flagTunable("RBF_COMPLEX_W", false,
                                 "1: complex weights (a second array of imaginary parts)"));
}

// What rbf_pairs.cl reads: the pair function, the weights, the real type, fast maths (fixed
// by the program: rbf_tiled_fast builds with native functions and denormals flushed).
std::vector<Tunable> pairTunables(bool fast) {
    const std::string value = fast ? "1" : "0";
    return {fromInput(choiceTunable("RBF_KERNEL", "0", {"0", "1", "2"},
                                    "pair function (--kernel): 0 Gaussian exp(-r^2/2 sigma^2), "
                                    "1 Laplace 1/(4 pi r), 2 Helmholtz e^{ikr}/(4 pi r)")),
            complexWeights(),
            fromInput(flagTunable("RBF_DOUBLE", false,
                                  "1: double throughout (variant fp64, needs cl_khr_fp64)")),
            fromInput(choiceTunable("RBF_FAST", value, {value},
                                    "1: native exp2/rsqrt/sin/cos, Gaussian coordinates "
                                    "pre-scaled to a base-2 exponent (variant tiled-fast)"))};
}

ProgramRecipe tiled(const std::string& name, bool fast) {
    std::vector<Tunable> tunables = pairTunables(fast);
    tunables.push_back(integerTunable("RBF_WG", 128, 1, 1024,
                                      "work-group size = sources staged per local-memory tile"));
    tunables.push_back(
        integerTunable("RBF_TPW", 4, 1, 32, "targets per work-item, held in registers"));
    tunables.push_back(
        integerTunable("RBF_UNROLL", 4, 1, 64, "sources per unrolled step of the tile loop"));
    ProgramRecipe recipe(name, {"common", "rbf_pairs", "rbf_tiled"}, std::move(tunables));
    if (fast) // flush-to-zero native functions (no denormal fixup)
        recipe.baseOptions(recipe.baseOptions() + " -cl-denorms-are-zero");
    // A work-item per RBF_TPW targets, RBF_WG to a group (one launch may cover a range).
    return recipe.launch("rbf_tiled", {{"RBF_WG"}, {"RBF_TPW"}});
}

ProgramRecipe seed() {
    std::vector<Tunable> tunables = pairTunables(false);
    tunables.push_back(integerTunable(
        "SEED_SX", 16, 1, 1024,
        "targets per work-group (the host halves it until SEED_SX x SEED_N fits the kernel)"));
    tunables.push_back(fromInput(
        integerTunable("SEED_N", 50, 1, 65536, "the source count: the work-group's second side")));
    ProgramRecipe recipe(seedProgram, {"common", "rbf_pairs", "rbf_seed"}, std::move(tunables));
    // One work-item per (target, source) pair: over (targets, sources).
    return recipe.launch("rbf_seed", {{"SEED_SX", "SEED_N"}, {}});
}

ProgramRecipe separable() {
    ProgramRecipe recipe(
        separableProgram, {"common", "rbf_separable"},
        {complexWeights(),
         integerTunable("SEP_TS", 16, 1, 64, "work-group side of the matrix product"),
         integerTunable("SEP_WPT", 4, 1, 16, "outputs per work-item side"),
         integerTunable("SEP_KT", 16, 1, 256, "sources per local-memory tile")});
    // Factors over (padded grid side, padded sources, 3 planes), 64 to a group (fewer when the
    // padded side is smaller); the product over (side, side, planes x weight components).
    recipe.launch("rbf_sep_factors", {{"64", "1", "1"}, {}});
    return recipe.launch("rbf_sep_gemm", {{"SEP_TS", "SEP_TS", "1"}, {"SEP_WPT", "SEP_WPT", "1"}});
}

} // namespace

std::vector<ProgramRecipe> recipes() {
    return {tiled(tiledProgram, false), tiled(tiledFastProgram, true), seed(), separable()};
}

ProgramRecipe recipeOf(const std::string& name) {
    for (ProgramRecipe& recipe : recipes())
        if (recipe.name() == name) return recipe;
    throw UsageError("rbf: no program '" + name + "'");
}

TunableValues hostValues(const Problem& problem, const Params& params, bool useDouble,
                         const std::map<std::string, int>& tuning) {
    TunableValues values{{"RBF_KERNEL", std::to_string(static_cast<int>(params.kernel))},
                         {"RBF_COMPLEX_W", problem.complexWeights ? "1" : "0"},
                         {"RBF_DOUBLE", useDouble ? "1" : "0"}};
    for (const auto& [name, value] : tunableValues(tuning))
        values[name] = value;
    return values;
}

} // namespace clscope::rbf
