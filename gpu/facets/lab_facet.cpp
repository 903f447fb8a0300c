// Algorithm's entry points of the lab facet, and what an algorithm without one gives.
#include "gpu/facets/lab_facet.hpp"

namespace clscope {

TunableValues Algorithm::hostTunables(const std::string& variant, const DeviceInfo& device,
                                      const AlgorithmInput& input, const ParamSet& params) const {
    const auto* f = facet<LabFacet>();
    if (!f) return {};
    return f->hostTunables(*parseBorrowed(&input, params, device, variant));
}

RunWork Algorithm::work(const AlgorithmInput& input, const ParamSet& params) const {
    const auto* f = facet<LabFacet>();
    if (!f) return {};
    return f->work(*parseBorrowed(&input, params));
}

} // namespace clscope
