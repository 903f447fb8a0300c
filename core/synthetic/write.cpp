#include "core/synthetic/write.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/limits.hpp"

#include <cmath>

namespace clscope::synthetic {

namespace {

// Bytes of a shape product, refused when it overflows or exceeds the free memory.
void checkMemory(const std::string& kind, const Shape& shape, double bytesPerElement) {
    const auto elements = checkedBytes(shape, 1);
    const double bytes = elements ? static_cast<double>(*elements) * bytesPerElement : INFINITY;
    const std::uint64_t available = availableHostMemory();
    if (!elements || (available > 0 && bytes > static_cast<double>(available)))
        throw UsageError(kind + ": " + shapeString(shape) + " needs " +
                         (elements ? byteText(static_cast<std::uint64_t>(bytes))
                                   : std::string("more than 2^64 bytes")) +
                         " in host memory, " + byteText(available) + " available");
}

// Beyond the ranges the kinds declare (ParamSet checks those): what a combination of options
// would need.
void checkXpcs(const XpcsParams& p) {
    const double rmax = std::hypot(static_cast<double>(p.height), static_cast<double>(p.width));
    if (rmax / p.ringWidth >= 2147483647.0)
        throw UsageError("--ring-width " + std::to_string(p.ringWidth) +
                         " gives labels beyond int32; use a wider ring");
    // frames, radii (double) and labels (int32) at once.
    checkMemory("xpcs", {p.frames, p.height, p.width},
                static_cast<double>(dtypeSize(p.dtype)) + 12.0 / static_cast<double>(p.frames));
}

void checkParticles(const ParticlesParams& p) {
    checkMemory("particles", {3, p.gridPoints, p.gridPoints}, 24.0);
    checkMemory("particles", {p.sources}, 40.0);
}

} // namespace

std::string writeXpcsDataset(const XpcsParams& p, Compression c, const std::string& path) {
    checkXpcs(p);
    const XpcsDataset d = generateXpcs(p);
    H5Writer out(path);
    writeXpcs(out, d, c);
    out.commit();
    return paths::frames + " " + shapeString(d.frames.shape()) + " " + dtypeName(d.frames.dtype()) +
           ", " + paths::qmask + " with " + std::to_string(d.labels.bins().size()) + " bins";
}

std::string writeDiffractionDataset(const DiffractionParams& p, Compression c,
                                    const std::string& path) {
    checkMemory("diffraction", {p.frames, p.height, p.width},
                2.0 + 9.0 / static_cast<double>(p.frames));
    const DiffractionDataset d = generateDiffraction(p);
    H5Writer out(path);
    writeDiffraction(out, d, c);
    out.commit();
    std::size_t bad = 0;
    for (auto b : d.mask.bad)
        bad += b;
    return paths::frames + " " + shapeString(d.frames.shape()) + " uint16, " + paths::pixelMask +
           " with " + std::to_string(bad) + " masked pixels";
}

std::string writeDigisDataset(const DigisParams& p, const std::string& path) {
    const Digis d = generateDigis(p);
    H5Writer out(path);
    writeDigis(out, d);
    out.commit();
    return std::to_string(d.size()) + " digis in " + std::to_string(p.modules) + " modules under " +
           paths::digis;
}

std::string writeParticlesDataset(const ParticlesParams& p, const std::string& path) {
    checkParticles(p);
    const Particles d = generateParticles(p);
    H5Writer out(path);
    writeParticles(out, d);
    out.commit();
    return std::to_string(d.sourceCount()) + " sources, " + std::to_string(d.targetCount()) +
           " targets, " + (d.complexWeights ? "complex" : "real") + " weights under " +
           paths::particles;
}

} // namespace clscope::synthetic
