// rbf variant separable (rbf_separable.cl): per plane F = A diag(c) B^T, sources in chunks
// that fit the device memory, the chunks after the first added into the output.
#include "gpu/rbf/recipes.hpp"
#include "gpu/rbf/runner.hpp"

#include <algorithm>
#include <string>

namespace clscope::rbf {

namespace {

std::size_t roundUp(std::size_t value, std::size_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

// Sources per chunk: the factor matrices (3 planes x (C + 1) x kPad x nPad floats) within
// a quarter of the device memory, the largest allocation and 256 MiB.
std::size_t sourcesPerChunk(const DeviceInfo& device, std::size_t nPad, std::size_t components,
                            std::size_t kt) {
    const std::uint64_t budget =
        std::min<std::uint64_t>({device.globalMemBytes / 4, device.maxAllocBytes, 256u << 20});
    const std::uint64_t perSource = 3 * (components + 1) * nPad * sizeof(float);
    return std::max<std::size_t>(kt, budget / perSource / kt * kt);
}

} // namespace

void runSeparable(DeviceRun& run, const Progress& progress) {
    ClSession& s = run.session;
    const Problem& p = run.problem;
    const ProgramRecipe recipe = runRecipe(run, separableProgram);
    const TunableValues values = recipe.resolve(run.values);
    const std::size_t wpt = std::stoul(values.at("SEP_WPT")), kt = std::stoul(values.at("SEP_KT"));
    const std::size_t tile = std::stoul(values.at("SEP_TS")) * wpt;
    const std::size_t components = p.complexWeights ? 2 : 1, n = p.targets.planes;
    const std::size_t nPad = roundUp(n, tile), total = p.sourceCount();
    const std::size_t chunk =
        std::min(roundUp(total, kt), sourcesPerChunk(s.info(), nPad, components, kt));
    cl::Buffer a = s.allocate(3 * components * chunk * nPad * sizeof(float), "rbf separable A");
    cl::Buffer b = s.allocate(3 * chunk * nPad * sizeof(float), "rbf separable B");
    cl::Kernel factors = s.kernel(recipe, values, "rbf_sep_factors");
    cl::Kernel gemm = s.kernel(recipe, values, "rbf_sep_gemm");
    const LaunchShape product = recipe.shape("rbf_sep_gemm", values, {nPad, nPad, 3 * components});
    for (std::size_t first = 0; first < total; first += chunk) {
        const std::size_t count = std::min(chunk, total - first), kPad = roundUp(count, kt);
        factors.setArg(0, run.sources), factors.setArg(1, run.sourcesIm);
        factors.setArg(2, static_cast<cl_uint>(first)),
            factors.setArg(3, static_cast<cl_uint>(count));
        factors.setArg(4, static_cast<cl_uint>(n)),
            factors.setArg(5, static_cast<float>(planeStep(p)));
        factors.setArg(6, static_cast<float>(gaussianScale(run.params)));
        factors.setArg(7, static_cast<cl_uint>(nPad)),
            factors.setArg(8, static_cast<cl_uint>(kPad));
        factors.setArg(9, a), factors.setArg(10, b);
        LaunchShape shape = recipe.shape("rbf_sep_factors", values, {nPad, kPad, 3});
        shape.local[0] = std::min(shape.local[0], nPad);
        s.launch(factors, "rbf separable factors", shape);
        gemm.setArg(0, a), gemm.setArg(1, b), gemm.setArg(2, static_cast<cl_uint>(n));
        gemm.setArg(3, static_cast<cl_uint>(nPad)), gemm.setArg(4, static_cast<cl_uint>(kPad));
        gemm.setArg(5, static_cast<cl_int>(first > 0)), gemm.setArg(6, run.out);
        s.launch(gemm, "rbf separable gemm", product);
        s.finish();
        progress.report(0.95 * static_cast<double>(first + count) / total);
        progress.checkCancel();
    }
}

} // namespace clscope::rbf
