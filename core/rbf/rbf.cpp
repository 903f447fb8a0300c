// rbf parameters, targets, problems and the comparison of two results.
#include "core/rbf/rbf.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

namespace clscope::rbf {

std::string kernelName(Kernel kernel) {
    switch (kernel) {
    case Kernel::Laplace:
        return "laplace";
    case Kernel::Helmholtz:
        return "helmholtz";
    default:
        return "gaussian";
    }
}

Kernel parseKernel(const std::string& name) {
    for (Kernel k : {Kernel::Gaussian, Kernel::Laplace, Kernel::Helmholtz})
        if (kernelName(k) == name) return k;
    throw UsageError("rbf: unknown kernel '" + name + "' (gaussian, laplace or helmholtz)");
}

void Params::check() const {
    if (!(sigma > 0) || !std::isfinite(sigma))
        throw UsageError("rbf: sigma must be positive and finite, got " + std::to_string(sigma));
    if (!std::isfinite(wavenumber)) throw UsageError("rbf: the wavenumber must be finite");
    if (planes > 20000) // 1.2e9 targets: beyond any device's memory for the output
        throw UsageError("rbf: --planes " + std::to_string(planes) +
                         " is too large (at most 20000)");
}

double planeCoordinate(std::size_t a, std::size_t n) {
    const double step = n > 1 ? 1.0 / static_cast<double>(n - 1) : 0.0;
    return static_cast<double>(a) * step;
}

std::array<double, 3> Targets::at(std::size_t i) const {
    if (!planes) return {points[3 * i], points[3 * i + 1], points[3 * i + 2]};
    const std::size_t area = planes * planes, plane = i / area, rest = i % area;
    const double a = planeCoordinate(rest / planes, planes);
    const double b = planeCoordinate(rest % planes, planes);
    if (plane == 0) return {a, b, 0.0};
    if (plane == 1) return {a, 0.0, b};
    return {0.0, a, b};
}

namespace {

bool allFinite(const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

} // namespace

void Problem::check() const {
    if (sources.size() % 3 || targets.points.size() % 3)
        throw InputError("rbf: sources and targets must be (N, 3) and (M, 3) positions");
    const std::size_t n = sourceCount(), per = complexWeights ? 2 : 1;
    if (weights.size() != n * per)
        throw InputError("rbf: " + std::to_string(n) + " sources but " +
                         std::to_string(weights.size() / per) + " weights");
    if (!allFinite(sources) || !allFinite(weights) || !allFinite(targets.points))
        throw InputError("rbf: sources, targets and weights must be finite numbers");
}

Problem makeProblem(Particles particles, std::size_t planes) {
    Problem p;
    p.sources = std::move(particles.sources);
    p.weights = std::move(particles.weights);
    p.complexWeights = particles.complexWeights;
    p.targets.planes = planes;
    if (!planes) p.targets.points = std::move(particles.targets);
    return p;
}

Problem subsetTargets(const Problem& problem, const std::vector<std::size_t>& indices) {
    Problem p;
    p.sources = problem.sources;
    p.weights = problem.weights;
    p.complexWeights = problem.complexWeights;
    p.targets.points.reserve(3 * indices.size());
    for (std::size_t i : indices) {
        const auto x = problem.targets.at(i);
        p.targets.points.insert(p.targets.points.end(), x.begin(), x.end());
    }
    return p;
}

std::vector<std::size_t> sampleIndices(std::size_t targetCount, std::size_t count) {
    std::vector<std::size_t> out;
    if (targetCount <= count) {
        for (std::size_t i = 0; i < targetCount; ++i)
            out.push_back(i);
        return out;
    }
    for (std::size_t k = 0; k < count; ++k) // evenly spread, the last target included
        out.push_back(static_cast<std::size_t>((static_cast<long double>(k) * (targetCount - 1)) /
                                               (count - 1 ? count - 1 : 1)));
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool complexOutput(const Problem& problem, const Params& params) {
    return params.kernel == Kernel::Helmholtz || problem.complexWeights;
}

namespace {

std::complex<double> valueAt(const Result& r, std::size_t k) {
    if (r.complex) return {r.potential[2 * k], r.potential[2 * k + 1]};
    return {r.potential[k], 0.0};
}

// Position of original target index `target` in r (which covers r.targetIndex or all).
long long positionOf(const Result& r, std::size_t target) {
    if (r.targetIndex.empty()) return target < r.count() ? static_cast<long long>(target) : -1;
    const auto it = std::lower_bound(r.targetIndex.begin(), r.targetIndex.end(), target);
    if (it == r.targetIndex.end() || *it != target) return -1;
    return it - r.targetIndex.begin();
}

} // namespace

// Error and reference modulus at reference position k (error NaN-safe: NaN counts as inf).
Comparison compareResults(const Result& result, const Result& reference, double tolerance) {
    Comparison c;
    const std::size_t n = reference.count();
    std::vector<std::pair<double, std::size_t>> errors; // (error, target)
    errors.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t target = reference.targetIndex.empty() ? k : reference.targetIndex[k];
        const long long at = positionOf(result, target);
        if (at < 0 || result.complex != reference.complex) {
            c.valid = false;
            break;
        }
        double err = std::abs(valueAt(result, at) - valueAt(reference, k));
        if (std::isnan(err)) err = std::numeric_limits<double>::infinity();
        c.maxReference = std::max(c.maxReference, std::abs(valueAt(reference, k)));
        if (err > c.maxAbsError || c.worstIndex < 0) c.maxAbsError = err, c.worstIndex = target;
        errors.emplace_back(err, target);
    }
    c.compared = errors.size();
    if (!c.valid) {
        c.relative = std::numeric_limits<double>::infinity();
        return c;
    }
    if (c.maxAbsError == 0)
        c.relative = 0;
    else
        c.relative = c.maxReference > 0 ? c.maxAbsError / c.maxReference
                                        : std::numeric_limits<double>::infinity();
    const double limit = tolerance * c.maxReference;
    for (const auto& [err, target] : errors)
        if (err > limit) {
            if (c.beyond++ == 0) c.firstBeyond = static_cast<long long>(target);
        }
    return c;
}

} // namespace clscope::rbf
