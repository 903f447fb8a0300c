// The device side shared by the rbf OpenCL variants (internal to gpu/rbf): sources, targets
// and output buffers in float or double, the run's programs (gpu/rbf/recipes.hpp), and the
// launches of each variant.
#pragma once
#include "core/rbf/rbf.hpp"
#include "gpu/runtime/session.hpp"

#include <array>
#include <map>
#include <string>

namespace clscope::rbf {

using Tuning = std::map<std::string, int>;

// One run's device state.
struct DeviceRun {
    DeviceRun(ClSession& s, const Problem& p, const Params& pa, bool dbl)
        : session(s), problem(p), params(pa), useDouble(dbl) {}
    ClSession& session;
    const Problem& problem;
    const Params& params;
    bool useDouble = false; // real = double (fp64), else float
    bool complexOut = false;
    Tuning tuning;
    ProgramOverrides programs; // the run's (RunRequest::programs)
    TunableValues values;      // of the run's programs: host values, tuning, then overrides
    cl::Buffer sources;        // (x, y, z, re c) per source, padded with zero weights
    cl::Buffer sourcesIm;      // im c per source (a one-element dummy for real weights)
    cl::Buffer targets;        // (M,3) for explicit targets (a dummy for planes)
    cl::Buffer out;            // M or 2M reals
    // Direct variants: positions on the device are relative to this centre of the data.
    bool centred = false;
    std::array<double, 3> origin{0, 0, 0};
    std::size_t realBytes() const { return useDouble ? 8 : 4; }
};

// The recipe of a program (gpu/rbf/recipes.hpp) as this run builds it (its overrides applied).
ProgramRecipe runRecipe(const DeviceRun& run, const std::string& program);

// Upload sources padded to a multiple of `multiple` (zero weights) and the targets; allocate
// the output. Returns the padded source count.
std::size_t prepareBuffers(DeviceRun& run, std::size_t multiple);
// Download the output as doubles.
void downloadResult(DeviceRun& run, Result& result);

// Set a real scalar argument as float or double; a real4 (x, y, z, 0) likewise.
void setReal(cl::Kernel& kernel, cl_uint index, double value, bool useDouble);
void setReal4(cl::Kernel& kernel, cl_uint index, const std::array<double, 3>& v, bool useDouble);

// The launches of each variant (after prepareBuffers).
void runTiled(DeviceRun& run, bool fast, std::size_t sourcePad, const Progress& progress);
void runSeed(DeviceRun& run);
void runSeparable(DeviceRun& run, const Progress& progress);

// Gaussian 1/(2 sigma^2) and the plane grid step 1/(n-1) of a run.
double gaussianScale(const Params& params);
double planeStep(const Problem& problem);

} // namespace clscope::rbf
