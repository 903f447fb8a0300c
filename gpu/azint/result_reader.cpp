// azint's result reader facet: /azint read back into the AzintResult a run returns (the bin
// centres, the per-frame sums, counts and intensities of (F,N) or (F,M,N), the unit).
#include "gpu/facets/result_reader.hpp"
#include "core/errors.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/azint/facets.hpp"

namespace clscope::azint {

namespace {

// A (F,N) or (F,M,N) dataset of the result's shape, flattened.
template <class T>
std::vector<T> binValues(const H5Reader& file, const std::string& path, const Result& r) {
    const Array a = file.read(path, dtypeOf<T>());
    const Shape want = r.cake ? Shape{r.frames, r.azimuthBins, r.bins} : Shape{r.frames, r.bins};
    expectShape(file, path, a, a.shape() == want, shapeString(want));
    return std::vector<T>(a.as<T>().begin(), a.as<T>().end());
}

class ResultReader final : public TypedResultReader<Algorithm> {
  protected:
    std::string markDataset() const override { return "intensity"; }
    std::shared_ptr<AzintResult> readWith(const H5Reader& file, const std::string& group,
                                          const ParamSet& params, const RunInfo&) const override {
        Result r;
        r.unit = unitFromName(params.text("unit"));
        r.radial = storedColumn<double>(file, group + "/radial");
        r.bins = r.radial.size();
        r.cake = file.hasDataset(group + "/azimuthal");
        if (r.cake) r.azimuthal = storedColumn<double>(file, group + "/azimuthal");
        r.azimuthBins = r.cake ? r.azimuthal.size() : 1;
        const Shape stored = file.info(group + "/intensity").shape;
        r.frames = stored.empty() ? 0 : stored.front();
        r.intensity = binValues<double>(file, group + "/intensity", r);
        r.error = binValues<double>(file, group + "/error", r);
        r.sumSignal = binValues<double>(file, group + "/sum_signal", r);
        r.sumNormalization = binValues<double>(file, group + "/sum_normalization", r);
        r.count = binValues<std::int64_t>(file, group + "/count_per_frame", r);
        auto out = std::make_shared<AzintResult>();
        out->result = std::move(r);
        return out;
    }
};

} // namespace

std::shared_ptr<const Facet> resultReaderFacet() {
    return std::make_shared<ResultReader>();
}

} // namespace clscope::azint
