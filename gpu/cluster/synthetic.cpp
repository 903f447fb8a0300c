// cluster's synthetic dataset (clscope-cli generate digis, the GUI's Generate dialog).
#include "core/cluster/synthetic.hpp"
#include "core/io.hpp"
#include "core/synthetic/limits.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "gpu/cluster/facets.hpp"
#include "gpu/facets/synthetic_facet.hpp"

namespace clscope::cluster {

namespace {

std::vector<ParamSpec> specs() {
    using T = ParamSpec::Type;
    namespace lim = synthetic::limits;
    const synthetic::DigisParams d;
    return {
        syntheticOption("modules", T::Int, d.modules, "Number of modules", 1, lim::maxModules),
        syntheticOption("clusters_per_module", T::Double, d.clustersPerModule,
                        "Mean clusters per module", 0, lim::maxClustersPerModule),
        syntheticOption("duplicates", T::Int, d.duplicates, "Duplicated digis", 0, lim::maxFaults),
        syntheticOption("invalid", T::Int, d.invalid, "Invalid digis (module 65534)", 0,
                        lim::maxFaults),
    };
}

std::string write(const ParamSet& o, std::uint64_t seed, Compression, const std::string& path) {
    synthetic::DigisParams p;
    p.seed = seed;
    p.modules = static_cast<std::size_t>(o.integer("modules"));
    p.clustersPerModule = o.number("clusters_per_module");
    p.duplicates = static_cast<std::size_t>(o.integer("duplicates"));
    p.invalid = static_cast<std::size_t>(o.integer("invalid"));
    const Digis d = synthetic::generateDigis(p);
    H5Writer out(path); // only now: a run stopped while generating leaves nothing behind
    writeDigis(out, d);
    out.commit();
    return std::to_string(d.size()) + " digis in " + std::to_string(p.modules) + " modules under " +
           paths::digis;
}

class DigisSynthetic : public SyntheticFacet {
  public:
    std::vector<SyntheticKind> kinds() const override {
        return {
            {"digis", "Pixel digis of Phase-1 modules (seed 001)", specs(), write, paths::digis}};
    }
};

} // namespace

std::shared_ptr<const Facet> syntheticFacet() {
    return std::make_shared<DigisSynthetic>();
}

} // namespace clscope::cluster
