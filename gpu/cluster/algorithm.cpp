// cluster through the one algorithm interface: input role digis, parameter --charge-cut,
// variants cmssw, unionfind and cpu, the /clusters output, the exact partition comparison
// and the seed / large bench events.
#include "gpu/cluster/algorithm.hpp"

#include "core/cluster/synthetic.hpp"
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

std::vector<InputRole> ClusterAlgorithm::inputRoles() const {
    InputRole digis = makeRole("digis", "--digis", "/digis",
                               "Group of the digis: module, x, y, adc (N,) uint16 each");
    digis.layout = InputRole::Layout::Group, digis.members = {"module", "x", "y", "adc"};
    digis.hints = {"digis"};
    return {digis};
}

std::vector<ParamSpec> ClusterAlgorithm::parameterSpecs() const {
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

std::vector<VariantEntry> ClusterAlgorithm::variants() const {
    return variantSet().entries();
}

std::vector<ProgramRecipe> ClusterAlgorithm::recipes() const {
    return cluster::recipes();
}

std::shared_ptr<const AlgorithmInput> ClusterAlgorithm::read(const InputSources& sources,
                                                             const ParamSet& params) const {
    chargeCutOf(params); // a bad cut is a usage error before reading
    const DataLocation where = sources.locate(inputRoles().front());
    const H5Reader file(where.file);
    // readDigis: InputError naming the file and the first digi outside its module
    auto input = std::make_shared<ClusterInput>(readDigis(file, where.path));
    input->provenance = inputProvenance(sources, {inputRoles().front()});
    return input;
}

Params ClusterAlgorithm::parameters(const ParamSet& params) const {
    Params p;
    p.chargeCut = chargeCutOf(params);
    return p;
}

std::shared_ptr<ClusterResult> ClusterAlgorithm::runWith(const RunRequest& request,
                                                         const ClusterInput& in, Params params,
                                                         const Progress& progress) const {
    params.tuning = request.tuning;
    Result r = variantSet()
                   .find(request.variant)
                   .run({request.device, in.digis, params, progress, request.programs});
    auto result = std::make_shared<ClusterResult>(std::move(r));
    result->info.timings = result->clusters.timings;
    result->origin = in.origin, result->totalDigis = in.totalDigis;
    return result;
}

TunableValues ClusterAlgorithm::hostTunablesWith(const std::string&, const DeviceInfo& device,
                                                 const ClusterInput&, const Params& params) const {
    std::map<std::string, int> tuning = defaultTuning(device);
    for (const auto& [name, value] : params.tuning)
        tuning[name] = value;
    return hostValues(tuning);
}

RunWork ClusterAlgorithm::workWith(const ClusterInput& input, const Params&) const {
    RunWork w;
    w.bytes = double(input.digis.size()) * (4 * sizeof(std::uint16_t) + sizeof(std::int32_t));
    return w;
}

Deviation ClusterAlgorithm::compareWith(const ClusterResult& result,
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

namespace {

// events: 35 seed-size events (seeds 1..35) in one input, event e's modules renumbered
// e*1856 + m (35 * 1856 = 64960 ids below the invalid 65534): modules are clustered
// independently, so this is 35 events' clustering in one launch sequence (charge cut none).
std::shared_ptr<ClusterInput> batchedEvents(std::size_t events) {
    Digis all;
    for (std::size_t e = 0; e < events; ++e) {
        synthetic::DigisParams p;
        p.seed = e + 1;
        const Digis one = synthetic::generateDigis(p);
        for (std::size_t i = 0; i < one.size(); ++i) {
            const bool invalid = one.module[i] == Digis::invalidModule;
            all.module.push_back(invalid
                                     ? one.module[i]
                                     : static_cast<std::uint16_t>(e * p.modules + one.module[i]));
            all.x.push_back(one.x[i]), all.y.push_back(one.y[i]), all.adc.push_back(one.adc[i]);
        }
    }
    return std::make_shared<ClusterInput>(std::move(all));
}

} // namespace

std::vector<std::string> ClusterAlgorithm::benchSizes() const {
    return {"seed", "large", "events"};
}

BenchCase ClusterAlgorithm::benchCase(const std::string& size) const {
    if (size == "events") {
        constexpr std::size_t events = 35;
        BenchCase c;
        c.input = batchedEvents(events);
        c.work = static_cast<double>(events);
        c.description = std::to_string(events) +
                        " Phase-1 events (PU ~50) batched as module-id "
                        "ranges: " +
                        c.input->describe();
        c.params = defaultParams();
        c.unit = "events/s";
        return c;
    }
    synthetic::DigisParams p;
    if (size == "large")
        p.clustersPerModule *= 10;
    else if (size != "seed")
        throw UsageError("cluster: no bench size '" + size + "' (seed, large, events)");
    auto input = std::make_shared<ClusterInput>(synthetic::generateDigis(p));
    BenchCase c;
    c.work = static_cast<double>(input->digis.size());
    c.description = "Phase-1 event" +
                    std::string(size == "large" ? " at 10x occupancy" : " (PU ~50)") + ": " +
                    input->describe() + " in 1856 modules";
    c.input = input;
    c.params = defaultParams();
    c.unit = "Mdigis/s";
    c.unitScale = 1e6;
    return c;
}

} // namespace clscope::cluster
