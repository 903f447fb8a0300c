#include "core/synthetic/request.hpp"

#include "core/io.hpp"

namespace clscope::synthetic {

std::string kindName(Request::Kind kind) {
    switch (kind) {
    case Request::Kind::Xpcs: return "xpcs";
    case Request::Kind::Diffraction: return "diffraction";
    case Request::Kind::Digis: return "digis";
    case Request::Kind::Particles: break;
    }
    return "particles";
}

namespace {

std::string writeXpcsKind(const Request& r, H5Writer& out) {
    XpcsParams p = r.xpcs;
    p.seed = r.seed;
    const XpcsDataset d = generateXpcs(p);
    writeXpcs(out, d, r.compression);
    return paths::frames + " " + shapeString(d.frames.shape()) + " " + dtypeName(d.frames.dtype()) + ", " +
           paths::qmask + " with " + std::to_string(d.labels.bins().size()) + " bins";
}

std::string writeDiffractionKind(const Request& r, H5Writer& out) {
    DiffractionParams p = r.diffraction;
    p.seed = r.seed;
    const DiffractionDataset d = generateDiffraction(p);
    writeDiffraction(out, d, r.compression);
    std::size_t bad = 0;
    for (auto b : d.mask.bad) bad += b;
    return paths::frames + " " + shapeString(d.frames.shape()) + " uint16, " + paths::pixelMask + " with " +
           std::to_string(bad) + " masked pixels";
}

std::string writeDigisKind(const Request& r, H5Writer& out) {
    DigisParams p = r.digis;
    p.seed = r.seed;
    const Digis d = generateDigis(p);
    writeDigis(out, d);
    return std::to_string(d.size()) + " digis in " + std::to_string(p.modules) + " modules under " + paths::digis;
}

std::string writeParticlesKind(const Request& r, H5Writer& out) {
    ParticlesParams p = r.particles;
    p.seed = r.seed;
    const Particles d = generateParticles(p);
    writeParticles(out, d);
    return std::to_string(d.sourceCount()) + " sources, " + std::to_string(d.targetCount()) + " targets, " +
           (d.complexWeights ? "complex" : "real") + " weights under " + paths::particles;
}

} // namespace

std::string writeDataset(const Request& request, const std::string& path) {
    H5Writer out(path);
    std::string summary;
    switch (request.kind) {
    case Request::Kind::Xpcs: summary = writeXpcsKind(request, out); break;
    case Request::Kind::Diffraction: summary = writeDiffractionKind(request, out); break;
    case Request::Kind::Digis: summary = writeDigisKind(request, out); break;
    case Request::Kind::Particles: summary = writeParticlesKind(request, out); break;
    }
    out.commit();
    return summary;
}

} // namespace clscope::synthetic
