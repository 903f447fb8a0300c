// rbf's result reader facet: /rbf/potential read back (core/rbf/rbf_io.hpp) into the RbfResult
// a run returns, with the kernel of its parameters and the run's sample check.
#include "gpu/facets/result_reader.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/rbf/facets.hpp"

#include "core/rbf/rbf_io.hpp"

#include <cstdlib>

namespace clscope::rbf {

namespace {

class ResultReader final : public TypedResultReader<Algorithm> {
  protected:
    std::string markDataset() const override { return "potential"; }
    std::shared_ptr<RbfResult> readWith(const H5Reader& file, const std::string& group,
                                        const ParamSet& params,
                                        const RunInfo& info) const override {
        auto out = std::make_shared<RbfResult>();
        Result& r = out->result;
        r = readPotential(file, group);
        r.kernel = parseKernel(params.text("kernel"));
        r.kernelMs = info.kernelMs;
        if (const auto deviation = file.stringAttribute(group, "sample_deviation"))
            r.sampleDeviation = std::atof(deviation->c_str());
        if (const auto count = file.stringAttribute(group, "sample_targets"))
            r.sampleCount = static_cast<std::size_t>(std::atof(count->c_str()));
        return out;
    }
};

} // namespace

std::shared_ptr<const Facet> resultReaderFacet() {
    return std::make_shared<ResultReader>();
}

} // namespace clscope::rbf
