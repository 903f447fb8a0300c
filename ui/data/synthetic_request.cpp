#include "ui/data/synthetic_request.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"

namespace clscope::ui {

std::string kindName(SyntheticRequest::Kind kind) {
    switch (kind) {
    case SyntheticRequest::Kind::Xpcs: return "xpcs";
    case SyntheticRequest::Kind::Diffraction: return "diffraction";
    case SyntheticRequest::Kind::Digis: return "digis";
    case SyntheticRequest::Kind::Particles: break;
    }
    return "particles";
}

std::string writeSynthetic(const SyntheticRequest& r, const std::string& path) {
    H5Writer out(path);
    std::string summary;
    switch (r.kind) {
    case SyntheticRequest::Kind::Xpcs: {
        auto p = r.xpcs;
        p.seed = r.seed;
        const auto d = synthetic::generateXpcs(p);
        synthetic::writeXpcs(out, d, r.compression);
        summary = "xpcs frames " + shapeString(d.frames.shape()) + ", " + std::to_string(d.labels.bins().size()) +
                  " q bins";
        break;
    }
    case SyntheticRequest::Kind::Diffraction: {
        auto p = r.diffraction;
        p.seed = r.seed;
        const auto d = synthetic::generateDiffraction(p);
        synthetic::writeDiffraction(out, d, r.compression);
        summary = "diffraction frames " + shapeString(d.frames.shape());
        break;
    }
    case SyntheticRequest::Kind::Digis: {
        auto p = r.digis;
        p.seed = r.seed;
        const Digis d = synthetic::generateDigis(p);
        writeDigis(out, d);
        summary = std::to_string(d.size()) + " digis";
        break;
    }
    case SyntheticRequest::Kind::Particles: {
        auto p = r.particles;
        p.seed = r.seed;
        const Particles d = synthetic::generateParticles(p);
        writeParticles(out, d);
        summary = std::to_string(d.sourceCount()) + " sources, " + std::to_string(d.targetCount()) + " targets";
        break;
    }
    }
    out.commit();
    return summary;
}

SyntheticRequest demoRequest(const std::string& algorithm) {
    SyntheticRequest r;
    if (algorithm == "xpcs") r.kind = SyntheticRequest::Kind::Xpcs;
    else if (algorithm == "spots") r.kind = SyntheticRequest::Kind::Diffraction;
    else if (algorithm == "cluster") r.kind = SyntheticRequest::Kind::Digis;
    else if (algorithm == "rbf") r.kind = SyntheticRequest::Kind::Particles;
    else throw UsageError("unknown algorithm '" + algorithm + "'; expected xpcs, spots, cluster or rbf");
    r.diffraction.gaps = true;
    r.particles.gridPoints = 100;
    return r;
}

} // namespace clscope::ui
