// What the synthetic generators (core/A/synthetic.hpp) accept: the ranges each
// algorithm's synthetic kind declares in its specs (gpu/A/synthetic.cpp), and the host memory
// a dataset would need.
#pragma once
#include "core/array.hpp"

#include <string>

namespace clscope::synthetic {

namespace limits {
inline constexpr std::size_t maxFrames = 1'000'000'000, maxSide = 1 << 20, maxSpots = 1'000'000,
                             maxModules = 65533, maxFaults = 10'000, maxSources = 100'000'000,
                             maxGridPoints = 100'000;
inline constexpr double maxIntensity = 1e9, minRingWidth = 1e-3, maxRingWidth = 1e9,
                        maxClustersPerModule = 1000, maxFrameTime = 1e6;
} // namespace limits

// UsageError "<kind>: <shape> needs N in host memory, M available" when the elements of shape
// times bytesPerElement overflow or exceed the free host memory. Called before generating.
void checkGeneratedMemory(const std::string& kind, const Shape& shape, double bytesPerElement);

} // namespace clscope::synthetic
