// cluster through the one algorithm interface: input role digis, parameter --charge-cut,
// variants cmssw, unionfind and cpu, the /clusters output, the exact partition comparison
// (the bench events: bench.cpp).
#include "gpu/cluster/algorithm.hpp"
#include "gpu/cluster/facets.hpp"

#include "core/errors.hpp"
#include "core/input/provenance.hpp"
#include "gpu/cluster/cluster_gpu.hpp"
#include "gpu/cluster/recipes.hpp"

namespace clscope::cluster {

std::string ClusterInput::describe() const {
    std::size_t invalid = 0;
    for (std::uint16_t m : digis.module)
        invalid += m == invalidModule;
    return std::to_string(digis.size()) + " digis (" + std::to_string(invalid) + " invalid)";
}

void ClusterResult::write(H5Writer& out, const std::string& group) const {
    const Result& r = clusters;
    const Shape n{r.count()};
    out.write(group + "/id", makeArray(Shape{r.id.size()}, r.id));
    out.write(group + "/module", makeArray(n, r.module));
    out.write(group + "/size", makeArray(n, r.size));
    out.write(group + "/size_x", makeArray(n, r.sizeX));
    out.write(group + "/size_y", makeArray(n, r.sizeY));
    out.write(group + "/charge", makeArray(n, r.charge));
    out.write(group + "/x", makeArray(n, r.x));
    out.write(group + "/y", makeArray(n, r.y));
    writeProvenance(
        out, group,
        {info.deviceName.empty() ? info.device : info.device + " (" + info.deviceName + ")",
         info.variant, info.parametersJson, info.kernelMs});
}

std::string ClusterResult::summary() const {
    return std::to_string(clusters.count()) + " clusters from " +
           std::to_string(clusters.id.size()) + " digis";
}

namespace {

// Clusters of the two results that differ in any quantity (ids equal assumed).
std::size_t clusterMismatches(const Result& a, const Result& b) {
    if (a.count() != b.count()) return std::max(a.count(), b.count());
    std::size_t bad = 0;
    for (std::size_t c = 0; c < a.count(); ++c)
        bad += a.module[c] != b.module[c] || a.size[c] != b.size[c] || a.sizeX[c] != b.sizeX[c] ||
               a.sizeY[c] != b.sizeY[c] || a.charge[c] != b.charge[c] || a.x[c] != b.x[c] ||
               a.y[c] != b.y[c];
    return bad;
}

} // namespace

Algorithm::Algorithm()
    : TypedAlgorithm({"cluster",
                      "Pixel clusters: CMSSW-style 8-connected clustering of digis per module", "",
                      "/clusters"}) {
    for (auto facet : {splitFacet(), passesFacet(), syntheticFacet(), benchFacet(), labFacet(),
                       resultReaderFacet()})
        add(std::move(facet));
}

std::vector<InputRole> Algorithm::inputRoles() const {
    InputRole digis = makeRole("digis", "--digis", "/digis",
                               "Group of the digis: module, x, y, adc (N,) uint16 each");
    digis.layout = InputRole::Layout::Group, digis.members = {"module", "x", "y", "adc"};
    digis.hints = {"digis"};
    return {digis};
}

std::vector<ParamSpec> Algorithm::parameterSpecs() const {
    ParamSpec cut = makeParam("charge_cut", ParamSpec::Type::Text, "none",
                              "Drop clusters whose total adc is below: none, phase1 (2000 for "
                              "modules < 96, else 4000) or a value",
                              "adc");
    cut.label = "Charge cut", cut.flag = "--charge-cut";
    return {cut};
}

ChargeCut chargeCutOf(const ParamSet& params) {
    const nlohmann::json& v = params.get("charge_cut");
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0))
        return ChargeCut{ChargeCut::Kind::Value, v.get<std::uint64_t>()};
    return ChargeCut::parse(v.is_string() ? v.get<std::string>() : v.dump());
}

std::vector<VariantEntry> Algorithm::variants() const {
    return variantSet().entries();
}

std::vector<ProgramRecipe> Algorithm::recipes() const {
    return cluster::recipes();
}

std::shared_ptr<const AlgorithmInput> Algorithm::read(const InputSources& sources,
                                                      const ParamSet& params) const {
    chargeCutOf(params); // a bad cut is a usage error before reading
    const InputRole digis = role("digis");
    const DataLocation where = sources.locate(digis);
    const H5Reader file(where.file);
    // readDigis: InputError naming the file and the first digi outside its module
    auto input = std::make_shared<ClusterInput>(readDigis(file, where.path));
    input->provenance = inputProvenance(sources, {digis});
    return input;
}

Params Algorithm::parameters(const ParamSet& params) const {
    Params p;
    p.chargeCut = chargeCutOf(params);
    return p;
}

std::shared_ptr<ClusterResult> Algorithm::runWith(const RunRequest& request, const ClusterInput& in,
                                                  Params params, const Progress& progress) const {
    params.tuning = request.tuning;
    Result r = variantSet()
                   .find(request.variant)
                   .run({request.device, in.digis, params, progress, request.programs});
    auto result = std::make_shared<ClusterResult>(std::move(r));
    result->info.timings = result->clusters.timings;
    result->origin = in.origin, result->totalDigis = in.totalDigis;
    return result;
}

RunWork runWork(const ClusterInput& input) {
    RunWork w;
    w.bytes = double(input.digis.size()) * (4 * sizeof(std::uint16_t) + sizeof(std::int32_t));
    return w;
}

Deviation Algorithm::compareWith(const ClusterResult& result,
                                 const ClusterResult& reference) const {
    const Result& got = result.clusters;
    const Result& want = reference.clusters;
    Deviation d;
    d.metric = "digis whose cluster differs (exact)";
    d.tolerance = 0;
    d.compared = want.id.size();
    d.beyond = idMismatches(got, want, &d.firstIndex);
    d.maxDeviation = static_cast<double>(d.beyond);
    if (d.firstIndex >= 0) {
        const std::size_t i = static_cast<std::size_t>(d.firstIndex);
        d.firstWhere = "digi " + std::to_string(i) + ": cluster " +
                       (i < got.id.size() ? std::to_string(got.id[i]) : "none") + " vs " +
                       (i < want.id.size() ? std::to_string(want.id[i]) : "none");
    }
    const std::size_t clusters = d.beyond ? 0 : clusterMismatches(got, want);
    if (clusters)
        d.note = std::to_string(clusters) + " clusters differ in size, charge or centroid";
    d.pass = d.beyond == 0 && clusters == 0 && got.id.size() == want.id.size();
    return d;
}

} // namespace clscope::cluster
