// f(begin, end) over [0, n) split across the hardware threads (serially below serialBelow items).
#pragma once
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace clscope::spots {

template <class F> void parallelRanges(std::size_t n, std::size_t serialBelow, F&& f) {
    const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
    if (n < serialBelow || n < 2 || threads == 1) return f(std::size_t(0), n);
    const std::size_t chunk = (n + threads - 1) / threads;
    std::vector<std::thread> pool;
    for (std::size_t b = 0; b < n; b += chunk)
        pool.emplace_back(f, b, std::min(n, b + chunk));
    for (auto& t : pool)
        t.join();
}

} // namespace clscope::spots
