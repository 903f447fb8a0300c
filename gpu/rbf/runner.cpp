// rbf device buffers and programs shared by the OpenCL variants.
#include "gpu/rbf/runner.hpp"

#include "gpu/rbf/rbf_gpu.hpp"
#include "gpu/rbf/recipes.hpp"

#include <algorithm>

namespace clscope::rbf {

// The centre of the bounding box of sources and targets (plane targets: the unit cube).
std::array<double, 3> centreOf(const Problem& p) {
    std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    const auto extend = [&](const std::vector<double>& xyz) {
        for (std::size_t i = 0; i + 2 < xyz.size(); i += 3)
            for (int a = 0; a < 3; ++a)
                lo[a] = std::min(lo[a], xyz[i + a]), hi[a] = std::max(hi[a], xyz[i + a]);
    };
    extend(p.sources);
    extend(p.targets.planes ? std::vector<double>{0, 0, 0, 1, 1, 1} : p.targets.points);
    std::array<double, 3> c{0, 0, 0};
    for (int a = 0; a < 3; ++a)
        if (lo[a] <= hi[a]) c[a] = 0.5 * (lo[a] + hi[a]);
    return c;
}

namespace {

// Host values as the device's real type.
template <class Real> std::vector<Real> asReal(const std::vector<double>& values) {
    return std::vector<Real>(values.begin(), values.end());
}

// Positions (N,3) minus origin, as the device's real type (the difference in double, then
// rounded: what shifting a copy and converting it gave, without the copy).
template <class Real>
std::vector<Real> shifted(const std::vector<double>& xyz, const std::array<double, 3>& origin) {
    std::vector<Real> out(xyz.size());
    for (std::size_t i = 0; i + 2 < xyz.size(); i += 3)
        for (std::size_t a = 0; a < 3; ++a)
            out[i + a] = static_cast<Real>(xyz[i + a] - origin[a]);
    return out;
}

// (x, y, z, re c) per source (relative to origin), zero past the last, and im c; as doubles.
void packSources(const Problem& p, const std::array<double, 3>& origin, std::size_t padded,
                 std::vector<double>& xyzw, std::vector<double>& im) {
    xyzw.assign(4 * padded, 0.0);
    im.assign(p.complexWeights ? padded : 1, 0.0);
    for (std::size_t j = 0; j < p.sourceCount(); ++j) {
        for (int a = 0; a < 3; ++a)
            xyzw[4 * j + a] = p.sources[3 * j + a] - origin[a];
        xyzw[4 * j + 3] = p.complexWeights ? p.weights[2 * j] : p.weights[j];
        if (p.complexWeights) im[j] = p.weights[2 * j + 1];
    }
}

// Values of the device's type uploaded (the host data lives on the caller's stack).
template <class Real>
cl::Buffer upload(DeviceRun& run, const std::vector<Real>& values, const std::string& what) {
    ClSession& s = run.session;
    const std::size_t bytes = values.size() * sizeof(Real);
    cl::Buffer buffer = s.allocate(bytes, "rbf " + what, CL_MEM_READ_ONLY);
    s.upload(buffer, values.data(), bytes, "copy H->D " + what);
    s.finish();
    return buffer;
}

cl::Buffer uploadReals(DeviceRun& run, const std::vector<double>& values, const std::string& what) {
    return run.useDouble ? upload(run, values, what) : upload(run, asReal<float>(values), what);
}

// Target positions relative to the origin (plane targets: a placeholder), uploaded.
cl::Buffer uploadTargets(DeviceRun& run, const std::vector<double>& points) {
    return run.useDouble ? upload(run, shifted<double>(points, run.origin), "targets")
                         : upload(run, shifted<float>(points, run.origin), "targets");
}

} // namespace

ProgramRecipe runRecipe(const DeviceRun& run, const std::string& program) {
    return run.programs.apply(recipeOf(program));
}

std::size_t prepareBuffers(DeviceRun& run, std::size_t multiple) {
    const Problem& p = run.problem;
    const std::size_t n = p.sourceCount();
    const std::size_t padded = (n + multiple - 1) / multiple * multiple;
    if (run.centred) run.origin = run.params.origin ? *run.params.origin : centreOf(p);
    std::vector<double> xyzw, im;
    packSources(p, run.origin, padded, xyzw, im);
    run.sources = uploadReals(run, xyzw, "sources");
    run.sourcesIm = uploadReals(run, im, "source weights im");
    run.targets =
        uploadTargets(run, p.targets.planes ? std::vector<double>(3, 0.0) : p.targets.points);
    run.complexOut = complexOutput(p, run.params);
    const std::size_t values = p.targetCount() * (run.complexOut ? 2 : 1);
    run.out =
        run.session.allocate(std::max<std::size_t>(1, values) * run.realBytes(), "rbf potential");
    return padded;
}

void downloadResult(DeviceRun& run, Result& result) {
    const std::size_t values = run.problem.targetCount() * (run.complexOut ? 2 : 1);
    result.complex = run.complexOut;
    result.potential.assign(values, 0.0);
    if (!values) return;
    if (run.useDouble) {
        run.session.download(run.out, result.potential.data(), values * 8, "copy D->H potential");
        return;
    }
    std::vector<float> f(values);
    run.session.download(run.out, f.data(), values * 4, "copy D->H potential");
    run.session.finish();
    std::copy(f.begin(), f.end(), result.potential.begin());
}

void setReal(cl::Kernel& kernel, cl_uint index, double value, bool useDouble) {
    if (useDouble)
        kernel.setArg(index, value);
    else
        kernel.setArg(index, static_cast<float>(value));
}

void setReal4(cl::Kernel& kernel, cl_uint index, const std::array<double, 3>& v, bool useDouble) {
    if (useDouble)
        kernel.setArg(index, cl_double4{{v[0], v[1], v[2], 0.0}});
    else
        kernel.setArg(index, cl_float4{{float(v[0]), float(v[1]), float(v[2]), 0.0f}});
}

double gaussianScale(const Params& params) {
    return 1.0 / (2.0 * params.sigma * params.sigma);
}

double planeStep(const Problem& problem) {
    const std::size_t n = problem.targets.planes;
    return n > 1 ? 1.0 / static_cast<double>(n - 1) : 0.0;
}

} // namespace clscope::rbf
