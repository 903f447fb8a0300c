// Milliseconds of wall time since a steady_clock time point: the unit of every timing record.
#pragma once

#include <chrono>

namespace clscope {

inline double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace clscope
