// xpcs's lab facet: the tunable values the host passes (the tuning table for the variant on the
// device with the frames' type, then the run's tuning, gpu/xpcs/tuning.hpp) and the work of a
// run (runWork).
#include "gpu/facets/lab_facet.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/facets.hpp"
#include "gpu/xpcs/multitau_rings.hpp"
#include "gpu/xpcs/tuning.hpp"

namespace clscope::xpcs {

namespace {

class XpcsLab : public TypedLab<Algorithm> {
  protected:
    TunableValues hostTunablesWith(const Run& run) const override;
    RunWork workWith(const Run& run) const override { return runWork(run.input(), run.params()); }
};

TunableValues XpcsLab::hostTunablesWith(const Run& run) const {
    const XpcsInput& input = run.input();
    const std::string& variant = run.request().variant;
    const DType dtype = input.frames   ? input.frames->dtype()
                        : input.blocks ? input.blocks->dtype()
                                       : DType::UInt16;
    TunableValues values = tuningTable(variant, run.request().device, dtype);
    if (variant == "multitau") {
        const std::size_t frames = input.frames   ? input.frames->frameCount()
                                   : input.blocks ? input.blocks->frameCount()
                                                  : 0;
        for (auto& [name, value] : multitauHostValues(dtype, frames, run.params()))
            values[name] = value;
    }
    for (const auto& [name, value] : tunableValues(run.params().tuning))
        values[name] = value;
    return values;
}

} // namespace

std::shared_ptr<const Facet> labFacet() {
    return std::make_shared<XpcsLab>();
}

} // namespace clscope::xpcs
