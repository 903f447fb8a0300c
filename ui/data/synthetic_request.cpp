#include "ui/data/synthetic_request.hpp"

#include "core/errors.hpp"

namespace clscope::ui {

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
