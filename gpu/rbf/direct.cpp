// rbf direct variants: tiled / tiled-fast / fp64 (rbf_tiled.cl) and seed (rbf_seed.cl).
#include "core/errors.hpp"
#include "gpu/rbf/recipes.hpp"
#include "gpu/rbf/runner.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace clscope::rbf {

namespace {

constexpr double twoPi = 6.283185307179586;

// Interactions per launch: a fraction of a second on the device, so progress and cancel
// are seen; one launch for the large case on a GPU.
std::size_t interactionsPerLaunch(const DeviceInfo& device) {
    return device.type == "GPU" ? std::size_t(1) << 40 : std::size_t(1) << 30;
}

// Position scale, Gaussian exponent scale and wavenumber argument of the pair function.
struct PairScales {
    double coord = 1, scale = 1, k = 0;
};

PairScales pairScales(const Params& params, bool fast) {
    PairScales s;
    if (params.kernel == Kernel::Gaussian) {
        if (fast)
            s.coord = std::sqrt(std::log2(std::exp(1.0)) * gaussianScale(params));
        else
            s.scale = gaussianScale(params);
    }
    s.k = fast ? params.wavenumber / twoPi : params.wavenumber;
    return s;
}

} // namespace

void runTiled(DeviceRun& run, bool fast, std::size_t sourcePad, const Progress& progress) {
    const ProgramRecipe recipe = runRecipe(run, fast ? tiledFastProgram : tiledProgram);
    const TunableValues values = recipe.resolve(run.values);
    const std::size_t wg = std::stoul(values.at("RBF_WG"));
    const std::size_t perGroup = wg * std::stoul(values.at("RBF_TPW"));
    const std::size_t m = run.problem.targetCount(), groups = (m + perGroup - 1) / perGroup;
    const std::size_t step = std::max<std::size_t>(1, interactionsPerLaunch(run.session.info()) /
                                                          (perGroup * sourcePad));
    const PairScales s = pairScales(run.params, fast);
    cl::Kernel k = run.session.kernel(recipe, values, "rbf_tiled");
    k.setArg(0, run.sources), k.setArg(1, run.sourcesIm);
    k.setArg(2, static_cast<cl_uint>(run.problem.sourceCount()));
    k.setArg(3, run.targets), k.setArg(4, static_cast<cl_uint>(m));
    k.setArg(5, static_cast<cl_uint>(run.problem.targets.planes));
    setReal(k, 6, planeStep(run.problem), run.useDouble);
    setReal(k, 7, s.coord, run.useDouble), setReal(k, 8, s.scale, run.useDouble);
    setReal(k, 9, s.k, run.useDouble);
    k.setArg(10, run.out);
    setReal4(k, 12, run.origin, run.useDouble);
    for (std::size_t first = 0; first < groups; first += step) {
        const std::size_t count = std::min(step, groups - first);
        k.setArg(11, static_cast<cl_uint>(first));
        run.session.launch(k, "rbf tiled", recipe.shape("rbf_tiled", values, {count * perGroup}));
        if (groups > step) { // several launches: report between them
            run.session.finish();
            progress.report(0.95 * static_cast<double>(first + count) / groups);
            progress.checkCancel();
        }
    }
}

// The seed kernel's group is SEED_SX x N; when the compiled kernel allows fewer work-items than
// that (registers: NVIDIA reports 256 for it), fewer targets per group: SEED_SX halves until
// SEED_SX x N fits. Same sums, one pair per work-item still.
cl::Kernel seedKernel(DeviceRun& run, const ProgramRecipe& recipe, TunableValues& values,
                      std::size_t n) {
    for (;;) {
        cl::Kernel k = run.session.kernel(recipe, values, "rbf_seed");
        const std::size_t sx = std::stoul(values.at("SEED_SX"));
        const std::size_t limit =
            k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(run.session.device().device());
        if (sx * n <= limit || sx == 1) return k;
        values["SEED_SX"] = std::to_string(sx / 2);
    }
}

void runSeed(DeviceRun& run) {
    const ProgramRecipe recipe = runRecipe(run, seedProgram);
    TunableValues values = recipe.resolve(run.values);
    const std::size_t n = run.problem.sourceCount();
    const PairScales s = pairScales(run.params, false);
    cl::Kernel k = seedKernel(run, recipe, values, n);
    k.setArg(0, run.sources), k.setArg(1, run.sourcesIm), k.setArg(2, run.targets);
    k.setArg(3, static_cast<cl_uint>(run.problem.targetCount()));
    k.setArg(4, static_cast<cl_uint>(run.problem.targets.planes));
    setReal(k, 5, planeStep(run.problem), run.useDouble);
    setReal(k, 6, s.scale, run.useDouble), setReal(k, 7, s.k, run.useDouble);
    k.setArg(8, run.out);
    setReal4(k, 9, run.origin, run.useDouble);
    run.session.launch(k, "rbf seed",
                       recipe.shape("rbf_seed", values, {run.problem.targetCount(), n}));
}

} // namespace clscope::rbf
