// cluster's result reader facet: /clusters read back into the ClusterResult a run returns
// (id per digi, the per-cluster columns of one length).
#include "gpu/facets/result_reader.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "gpu/cluster/facets.hpp"

namespace clscope::cluster {

namespace {

class ResultReader final : public TypedResultReader<Algorithm> {
  protected:
    std::string markDataset() const override { return "id"; }
    std::shared_ptr<ClusterResult> readWith(const H5Reader& file, const std::string& group,
                                            const ParamSet&, const RunInfo& info) const override {
        Result r;
        r.id = storedColumn<std::int32_t>(file, group + "/id");
        r.module = storedColumn<std::int32_t>(file, group + "/module");
        const std::size_t n = r.module.size();
        r.size = storedColumn<std::int32_t>(file, group + "/size", n);
        r.sizeX = storedColumn<std::int32_t>(file, group + "/size_x", n);
        r.sizeY = storedColumn<std::int32_t>(file, group + "/size_y", n);
        r.charge = storedColumn<double>(file, group + "/charge", n);
        r.x = storedColumn<double>(file, group + "/x", n);
        r.y = storedColumn<double>(file, group + "/y", n);
        r.device = info.device, r.variant = info.variant;
        auto out = std::make_shared<ClusterResult>(std::move(r));
        out->totalDigis = out->clusters.id.size();
        return out;
    }
};

} // namespace

std::shared_ptr<const Facet> resultReaderFacet() {
    return std::make_shared<ResultReader>();
}

} // namespace clscope::cluster
