// rbf: particle sums f(x_i) = sum_j g(x_i, y_j) c_j (DESIGN.md §5) for the Gaussian
// exp(-r^2 / (2 sigma^2)), Laplace 1 / (4 pi r) and Helmholtz e^{ikr} / (4 pi r) kernels.
// Pairs at r = 0 contribute nothing for Laplace and Helmholtz. Targets come from the file or
// are the seed's three n x n planes (xy, xz, yz of the unit cube). Qt-free: parameters, the
// problem, the result and the CPU reference (variant `cpu`).
#pragma once
#include "core/data.hpp"
#include "core/progress.hpp"
#include "core/rbf/particles.hpp"
#include "core/timing.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clscope::rbf {

enum class Kernel { Gaussian = 0, Laplace = 1, Helmholtz = 2 };
std::string kernelName(Kernel kernel);       // "gaussian", "laplace", "helmholtz"
Kernel parseKernel(const std::string& name); // UsageError naming the choices

struct Params {
    Kernel kernel = Kernel::Gaussian;
    double sigma = 0.1;       // Gaussian width (the seed's value)
    double wavenumber = 10.0; // Helmholtz k (1/length)
    std::size_t planes = 0;   // n > 0: targets are the seed's three n x n planes, else the file's
    // Kernel tuning values passed as -D NAME=VALUE (RBF_WG, RBF_TPW, ...).
    std::map<std::string, int> tuning;
    // OpenCL variants compute with positions relative to this point (default: the centre of the
    // problem's bounding box). A run cut into parts gives every part the whole problem's, so
    // each target's fp32 sum is the one the whole run computes.
    std::optional<std::array<double, 3>> origin;
    unsigned threads = 0; // cpu variant: worker threads (0: all cores)
    // OpenCL variants: targets re-evaluated in double on the host after the run, whose
    // deviation the result reports (sampleDeviation); 0: none.
    std::size_t sampleTargets = 64;
    // UsageError when sigma <= 0, k is not finite or planes is too large.
    void check() const;
};

// Targets: an explicit (M,3) list, or the seed's planes: index p*n*n + a*n + b holds
// (a, b) * step on plane p (0: (a, b, 0), 1: (a, 0, b), 2: (0, a, b)), step = 1 / (n - 1)
// (np.mgrid[0:1:n*1j, 0:1:n*1j] raveled, as in the seed).
struct Targets {
    std::vector<double> points; // M*3 when planes == 0
    std::size_t planes = 0;     // n
    std::size_t count() const { return planes ? 3 * planes * planes : points.size() / 3; }
    std::array<double, 3> at(std::size_t i) const;
};
// Coordinate of grid index a on an n-point side of the unit interval.
double planeCoordinate(std::size_t a, std::size_t n);

// One evaluation: sources with real or complex weights, and targets.
struct Problem {
    std::vector<double> sources; // N*3
    std::vector<double> weights; // N, or N*2 as [re, im] when complexWeights
    bool complexWeights = false;
    Targets targets;
    std::size_t sourceCount() const { return sources.size() / 3; }
    std::size_t targetCount() const { return targets.count(); }
    // InputError when sizes do not fit together or a value is not finite.
    void check() const;
};
// From particles read from a file (targets replaced by planes when params.planes > 0).
Problem makeProblem(Particles particles, std::size_t planes);
// The same problem on a subset of its targets (explicit points), e.g. for a reference on a
// sample of a large case; `indices` are the original target indices.
Problem subsetTargets(const Problem& problem, const std::vector<std::size_t>& indices);
// About `count` target indices spread evenly over [0, M) (all when M <= count), ascending.
std::vector<std::size_t> sampleIndices(std::size_t targetCount, std::size_t count);

// Whether the potential is complex: Helmholtz, or complex weights.
bool complexOutput(const Problem& problem, const Params& params);

struct Result {
    std::vector<double> potential; // M, or M*2 as [re, im] when complex
    bool complex = false;
    Kernel kernel = Kernel::Gaussian; // the kernel it was computed with
    // Original target index of each value when the run covered a subset; empty: all targets.
    std::vector<std::size_t> targetIndex;
    std::string device, variant;
    double kernelMs = 0.0; // summed kernel time (cpu: compute wall time)
    TimingStats timings;
    // max|f - f_ref| / max|f_ref| on `sampleCount` targets against the double reference
    // (OpenCL variants, Params::sampleTargets); NaN when not checked.
    double sampleDeviation = std::numeric_limits<double>::quiet_NaN();
    std::size_t sampleCount = 0;
    std::size_t count() const { return potential.size() / (complex ? 2 : 1); }
};

// The CPU reference: double throughout, targets spread over std::threads, sources in
// structure-of-arrays blocks so the inner loops vectorise.
Result evaluateCpu(const Problem& problem, const Params& params, const Progress& progress = {});

// max_i |f_i - f_ref,i| / max_i |f_ref,i| (complex: moduli), over the targets the reference
// covers (its targetIndex) or all of them. `beyond` counts the targets whose error exceeds
// tolerance * max|f_ref| (the first of them in firstBeyond).
struct Comparison {
    double maxAbsError = 0, maxReference = 0, relative = 0;
    std::size_t compared = 0, beyond = 0;
    long long worstIndex = -1;  // target index of the largest error
    long long firstBeyond = -1; // target index of the first error beyond the tolerance
    bool valid = true;          // false when the shapes do not fit (then relative = inf)
};
Comparison compareResults(const Result& result, const Result& reference, double tolerance = 0);

// Written tolerances on relative (above): fp32 variants, tiled-fast on Helmholtz, fp64.
constexpr double toleranceFp32 = 1e-5;
constexpr double toleranceFast = 1e-3;
constexpr double toleranceFp64 = 1e-12;

} // namespace clscope::rbf
