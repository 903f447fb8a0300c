#include "core/synthetic/request.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/limits.hpp"

#include <cmath>
#include <cstdio>

namespace clscope::synthetic {

std::string kindName(Request::Kind kind) {
    switch (kind) {
    case Request::Kind::Xpcs:
        return "xpcs";
    case Request::Kind::Diffraction:
        return "diffraction";
    case Request::Kind::Digis:
        return "digis";
    case Request::Kind::Particles:
        break;
    }
    return "particles";
}

namespace {

void checkCount(const std::string& name, std::size_t v, std::size_t lo, std::size_t hi) {
    if (v < lo || v > hi)
        throw UsageError(name + " must be an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "], not " + std::to_string(v));
}

void checkNumber(const std::string& name, double v, double lo, double hi) {
    if (!std::isfinite(v) || v < lo || v > hi) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s must be a finite number in [%g, %g], not %g",
                      name.c_str(), lo, hi, v);
        throw UsageError(buf);
    }
}

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

void checkXpcs(const XpcsParams& p) {
    using namespace limits;
    checkCount("--frames", p.frames, 1, maxFrames);
    checkCount("--height", p.height, 1, maxSide);
    checkCount("--width", p.width, 1, maxSide);
    checkNumber("--ring-width", p.ringWidth, minRingWidth, maxRingWidth);
    checkNumber("--intensity", p.intensity, 0, maxIntensity);
    checkNumber("--frame-time", p.frameTime, 0, maxFrameTime);
    const double rmax = std::hypot(static_cast<double>(p.height), static_cast<double>(p.width));
    if (rmax / p.ringWidth >= 2147483647.0)
        throw UsageError("--ring-width " + std::to_string(p.ringWidth) +
                         " gives labels beyond int32; use a wider ring");
    // frames, radii (double) and labels (int32) at once.
    checkMemory("xpcs", {p.frames, p.height, p.width},
                static_cast<double>(dtypeSize(p.dtype)) + 12.0 / static_cast<double>(p.frames));
}

void checkDiffraction(const DiffractionParams& p) {
    using namespace limits;
    checkCount("--frames", p.frames, 1, maxFrames);
    checkCount("--height", p.height, 1, maxSide);
    checkCount("--width", p.width, 1, maxSide);
    checkCount("--spots", p.spots, 0, maxSpots);
    checkNumber("--background", p.background, 0, maxIntensity);
    checkNumber("--spot-intensity", p.spotIntensity, 1e-9, maxIntensity);
    checkMemory("diffraction", {p.frames, p.height, p.width},
                2.0 + 9.0 / static_cast<double>(p.frames));
}

void checkDigis(const DigisParams& p) {
    using namespace limits;
    checkCount("--modules", p.modules, 1, maxModules);
    checkNumber("--clusters-per-module", p.clustersPerModule, 0, maxClustersPerModule);
    checkCount("--duplicates", p.duplicates, 0, maxFaults);
    checkCount("--invalid", p.invalid, 0, maxFaults);
}

void checkParticles(const ParticlesParams& p) {
    using namespace limits;
    checkCount("--sources", p.sources, 1, maxSources);
    checkCount("--grid-points", p.gridPoints, 1, maxGridPoints);
    checkMemory("particles", {3, p.gridPoints, p.gridPoints}, 24.0);
    checkMemory("particles", {p.sources}, 40.0);
}

// Each kind generates its data first and only then creates the output (its temporary file):
// a run stopped while generating leaves nothing behind.
std::string writeXpcsKind(const Request& r, const std::string& path) {
    XpcsParams p = r.xpcs;
    p.seed = r.seed;
    const XpcsDataset d = generateXpcs(p);
    H5Writer out(path);
    writeXpcs(out, d, r.compression);
    out.commit();
    return paths::frames + " " + shapeString(d.frames.shape()) + " " + dtypeName(d.frames.dtype()) +
           ", " + paths::qmask + " with " + std::to_string(d.labels.bins().size()) + " bins";
}

std::string writeDiffractionKind(const Request& r, const std::string& path) {
    DiffractionParams p = r.diffraction;
    p.seed = r.seed;
    const DiffractionDataset d = generateDiffraction(p);
    H5Writer out(path);
    writeDiffraction(out, d, r.compression);
    out.commit();
    std::size_t bad = 0;
    for (auto b : d.mask.bad)
        bad += b;
    return paths::frames + " " + shapeString(d.frames.shape()) + " uint16, " + paths::pixelMask +
           " with " + std::to_string(bad) + " masked pixels";
}

std::string writeDigisKind(const Request& r, const std::string& path) {
    DigisParams p = r.digis;
    p.seed = r.seed;
    const Digis d = generateDigis(p);
    H5Writer out(path);
    writeDigis(out, d);
    out.commit();
    return std::to_string(d.size()) + " digis in " + std::to_string(p.modules) + " modules under " +
           paths::digis;
}

std::string writeParticlesKind(const Request& r, const std::string& path) {
    ParticlesParams p = r.particles;
    p.seed = r.seed;
    const Particles d = generateParticles(p);
    H5Writer out(path);
    writeParticles(out, d);
    out.commit();
    return std::to_string(d.sourceCount()) + " sources, " + std::to_string(d.targetCount()) +
           " targets, " + (d.complexWeights ? "complex" : "real") + " weights under " +
           paths::particles;
}

} // namespace

void checkRequest(const Request& r) {
    switch (r.kind) {
    case Request::Kind::Xpcs:
        return checkXpcs(r.xpcs);
    case Request::Kind::Diffraction:
        return checkDiffraction(r.diffraction);
    case Request::Kind::Digis:
        return checkDigis(r.digis);
    case Request::Kind::Particles:
        return checkParticles(r.particles);
    }
}

std::string writeDataset(const Request& request, const std::string& path) {
    checkRequest(request);
    switch (request.kind) {
    case Request::Kind::Xpcs:
        return writeXpcsKind(request, path);
    case Request::Kind::Diffraction:
        return writeDiffractionKind(request, path);
    case Request::Kind::Digis:
        return writeDigisKind(request, path);
    case Request::Kind::Particles:
        break;
    }
    return writeParticlesKind(request, path);
}

} // namespace clscope::synthetic
