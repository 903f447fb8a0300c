// The CPU reference of rbf (variant `cpu`): every pair in double. Sources are held as
// structure-of-arrays so the per-target source loops are branch-free and vectorise; blocks of
// targets are spread over std::threads.
#include "core/rbf/rbf.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

namespace clscope::rbf {

namespace {

constexpr double fourPi = 4.0 * 3.14159265358979323846;
constexpr std::size_t blockTargets = 256; // targets per task

struct SourceArrays {
    std::vector<double> x, y, z, wr, wi; // wi: zeros for real weights
};

SourceArrays sourceArrays(const Problem& p) {
    const std::size_t n = p.sourceCount();
    SourceArrays s{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n),
                   std::vector<double>(n), std::vector<double>(n, 0.0)};
    for (std::size_t j = 0; j < n; ++j) {
        s.x[j] = p.sources[3 * j], s.y[j] = p.sources[3 * j + 1], s.z[j] = p.sources[3 * j + 2];
        s.wr[j] = p.complexWeights ? p.weights[2 * j] : p.weights[j];
        if (p.complexWeights) s.wi[j] = p.weights[2 * j + 1];
    }
    return s;
}

// Squared distance of target t to source j.
inline double distance2(const std::array<double, 3>& t, const SourceArrays& s, std::size_t j) {
    const double dx = t[0] - s.x[j], dy = t[1] - s.y[j], dz = t[2] - s.z[j];
    return dx * dx + dy * dy + dz * dz;
}

// f at one target as [re, im] (im only for complex weights or Helmholtz).
std::array<double, 2> sumAt(const std::array<double, 3>& t, const SourceArrays& s,
                            const Params& params) {
    const std::size_t n = s.x.size();
    double re = 0, im = 0;
    if (params.kernel == Kernel::Gaussian) {
        const double scale = 1.0 / (2.0 * params.sigma * params.sigma);
#pragma omp simd reduction(+ : re, im)
        for (std::size_t j = 0; j < n; ++j) {
            const double g = std::exp(-distance2(t, s, j) * scale);
            re += g * s.wr[j], im += g * s.wi[j];
        }
        return {re, im};
    }
    if (params.kernel == Kernel::Laplace) {
#pragma omp simd reduction(+ : re, im)
        for (std::size_t j = 0; j < n; ++j) {
            const double r2 = distance2(t, s, j);
            const double g = r2 > 0 ? 1.0 / std::sqrt(r2) : 0.0; // r = 0: nothing
            re += g * s.wr[j], im += g * s.wi[j];
        }
        return {re / fourPi, im / fourPi};
    }
    const double k = params.wavenumber;
#pragma omp simd reduction(+ : re, im)
    for (std::size_t j = 0; j < n; ++j) {
        const double r = std::sqrt(distance2(t, s, j));
        const double g = r > 0 ? 1.0 / r : 0.0;
        const double c = std::cos(k * r) * g, sn = std::sin(k * r) * g;
        re += c * s.wr[j] - sn * s.wi[j];
        im += sn * s.wr[j] + c * s.wi[j];
    }
    return {re / fourPi, im / fourPi};
}

// fn(block) for every block over a pool of threads, reporting progress, stopping on cancel.
template <class Fn>
void parallelBlocks(std::size_t blocks, unsigned threads, const Progress& progress, Fn&& fn) {
    std::atomic<std::size_t> next{0}, done{0};
    auto worker = [&](bool reporter) {
        for (std::size_t b; (b = next++) < blocks;) {
            if (progress.cancelled()) return;
            fn(b);
            const std::size_t finished = ++done;
            if (reporter) progress.report(static_cast<double>(finished) / blocks);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < std::min<std::size_t>(threads, blocks); ++w)
        pool.emplace_back(worker, false);
    worker(true);
    for (auto& th : pool)
        th.join();
    progress.checkCancel();
}

} // namespace

Result evaluateCpu(const Problem& problem, const Params& params, const Progress& progress) {
    params.check();
    problem.check();
    const auto start = std::chrono::steady_clock::now();
    Result result;
    result.complex = complexOutput(problem, params);
    result.kernel = params.kernel;
    result.device = "cpu";
    result.variant = "cpu";
    const std::size_t m = problem.targetCount(), per = result.complex ? 2 : 1;
    result.potential.assign(m * per, 0.0);
    const SourceArrays sources = sourceArrays(problem);
    const unsigned threads =
        params.threads ? params.threads : std::max(1u, std::thread::hardware_concurrency());
    // Blocks of up to blockTargets targets, smaller where there are few (a device run's sample
    // of 64 targets against 10^5 sources was one block, on one core); each target's sum
    // is its own, so the blocks do not change the values.
    const std::size_t perBlock =
        std::clamp<std::size_t>(m / (4 * std::size_t(threads)), 1, blockTargets);
    parallelBlocks((m + perBlock - 1) / perBlock, threads, progress, [&](std::size_t b) {
        const std::size_t end = std::min(m, (b + 1) * perBlock);
        for (std::size_t i = b * perBlock; i < end; ++i) {
            const auto f = sumAt(problem.targets.at(i), sources, params);
            result.potential[i * per] = f[0];
            if (per == 2) result.potential[2 * i + 1] = f[1];
        }
    });
    result.kernelMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.timings.add("rbf cpu", result.kernelMs, true); // the host's compute time
    return result;
}

} // namespace clscope::rbf
