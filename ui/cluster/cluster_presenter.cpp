#include "ui/cluster/cluster_presenter.hpp"
#include "core/cluster/digis.hpp"

#include "core/errors.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "ui/cluster/cluster_layout.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace clscope::ui {

namespace {

constexpr std::size_t pixelsPerModule = cluster::moduleSizeX * cluster::moduleSizeY;

// Whether each digi's (module, x, y) appears more than once among the valid digis.
std::vector<std::uint8_t> duplicatedDigis(const Digis& d) {
    std::vector<std::uint64_t> key(d.size());
    for (std::size_t i = 0; i < d.size(); ++i)
        key[i] = (std::uint64_t(d.module[i]) << 32) | (std::uint64_t(d.y[i]) << 16) | d.x[i];
    std::vector<std::size_t> order(d.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return key[a] < key[b]; });
    std::vector<std::uint8_t> dup(d.size(), 0);
    for (std::size_t k = 1; k < order.size(); ++k)
        if (key[order[k]] == key[order[k - 1]] && d.module[order[k]] != cluster::invalidModule)
            dup[order[k]] = dup[order[k - 1]] = 1;
    return dup;
}

ClusterHistogram makeHistogram(std::string quantity, std::string unit, double low, double width,
                               std::size_t bins) {
    ClusterHistogram h{std::move(quantity), std::move(unit), {}, std::vector<double>(bins, 0.0)};
    for (std::size_t b = 0; b <= bins; ++b)
        h.edges.push_back(low + width * static_cast<double>(b));
    return h;
}

void fill(ClusterHistogram& h, double value) {
    if (value < h.edges.front()) return;
    if (value >= h.edges.back()) {
        h.overflow += 1;
        return;
    }
    const auto it = std::upper_bound(h.edges.begin(), h.edges.end(), value);
    h.counts[static_cast<std::size_t>(it - h.edges.begin()) - 1] += 1;
}

} // namespace

void ClusterPresenter::setEvent(std::shared_ptr<const Digis> digis, cluster::Result result) {
    if (!digis) throw InputError("cluster view: no digis");
    if (result.id.size() != digis->size())
        throw InputError("cluster view: the result has " + std::to_string(result.id.size()) +
                         " cluster ids for " + std::to_string(digis->size()) + " digis");
    digis_ = std::move(digis);
    result_ = std::move(result);
    duplicate_ = duplicatedDigis(*digis_);
    countModules();
    if (selectedModule_ >= static_cast<int>(moduleCount())) selectedModule_ = -1;
    selectedCluster_.reset();
}

void ClusterPresenter::countModules() {
    std::size_t modules = clusterlayout::phase1Modules;
    for (std::uint16_t m : digis_->module)
        if (m != cluster::invalidModule) modules = std::max<std::size_t>(modules, m + 1u);
    digisPerModule_.assign(modules, 0.0);
    clustersPerModule_.assign(modules, 0.0);
    duplicatesPerModule_.assign(modules, 0.0);
    invalidDigis_ = duplicateDigis_ = 0;
    for (std::size_t i = 0; i < digis_->size(); ++i) {
        const std::uint16_t m = digis_->module[i];
        if (m == cluster::invalidModule)
            ++invalidDigis_;
        else
            digisPerModule_[m] += 1, duplicatesPerModule_[m] += duplicate_[i];
        duplicateDigis_ += duplicate_[i];
    }
    for (std::int32_t m : result_.module)
        clustersPerModule_[static_cast<std::size_t>(m)] += 1;
}

const std::vector<double>& ClusterPresenter::perModule(Measure measure) const {
    return measure == Measure::Digis ? digisPerModule_ : clustersPerModule_;
}

int ClusterPresenter::busiestModule() const {
    if (result_.count() == 0) return -1;
    const auto it = std::max_element(clustersPerModule_.begin(), clustersPerModule_.end());
    return static_cast<int>(it - clustersPerModule_.begin());
}

int ClusterPresenter::busiestModuleWithDuplicates() const {
    int chosen = -1;
    for (int m = 0; m < int(clustersPerModule_.size()); ++m)
        if (duplicatesPerModule_[m] > 0 &&
            (chosen < 0 || clustersPerModule_[m] > clustersPerModule_[chosen]))
            chosen = m;
    return chosen;
}

std::optional<std::size_t> ClusterPresenter::largestClusterOf(int module) const {
    const auto [first, last] = clustersOf(module);
    if (last <= first) return std::nullopt;
    std::size_t largest = first;
    for (std::size_t c = first; c < last; ++c)
        if (result_.size[c] > result_.size[largest]) largest = c;
    return largest;
}

void ClusterPresenter::selectModule(int module) {
    const bool inside = module >= 0 && module < static_cast<int>(moduleCount());
    const int chosen = inside ? module : -1;
    if (chosen != selectedModule_) selectedCluster_.reset();
    selectedModule_ = chosen;
}

void ClusterPresenter::selectCluster(std::size_t cluster) {
    if (cluster >= result_.count()) return;
    selectedModule_ = result_.module[cluster];
    selectedCluster_ = cluster;
}

std::pair<std::size_t, std::size_t> ClusterPresenter::clustersOf(int module) const {
    const auto& m = result_.module;
    const auto first = std::lower_bound(m.begin(), m.end(), module);
    const auto last = std::upper_bound(first, m.end(), module);
    return {static_cast<std::size_t>(first - m.begin()),
            static_cast<std::size_t>(last - m.begin())};
}

ClusterModuleMap ClusterPresenter::moduleMap(int module) const {
    ClusterModuleMap map;
    map.module = module;
    map.cluster.assign(pixelsPerModule, 0);
    map.duplicate.assign(pixelsPerModule, 0);
    map.belowCut.assign(pixelsPerModule, 0);
    map.charge.assign(pixelsPerModule, 0.0);
    if (empty()) return map;
    const Digis& d = *digis_;
    int lastValidModule = -1; // module of the last valid digi before i, in input order
    std::vector<std::pair<int, int>> pendingInvalid;
    for (std::size_t i = 0; i < d.size(); ++i) {
        const int m = d.module[i] == cluster::invalidModule ? -1 : d.module[i];
        if (m < 0) {
            if (lastValidModule == module) pendingInvalid.push_back({d.x[i], d.y[i]});
            continue;
        }
        // Invalid digis count as this module's only when its run goes on after them.
        if (m == module)
            map.invalid.insert(map.invalid.end(), pendingInvalid.begin(), pendingInvalid.end());
        pendingInvalid.clear();
        lastValidModule = m;
        if (m != module) continue;
        const std::size_t p = std::size_t(d.y[i]) * cluster::moduleSizeX + d.x[i];
        ++map.digis;
        map.charge[p] += d.adc[i];
        if (result_.id[i] >= 0)
            map.cluster[p] = result_.id[i] + 1;
        else if (duplicate_[i])
            map.duplicate[p] = 1;
        else
            map.belowCut[p] = 1;
    }
    const auto [first, last] = clustersOf(module);
    map.clusters = last - first;
    return map;
}

std::vector<ClusterHistogram> ClusterPresenter::histograms() const {
    std::vector<ClusterHistogram> h{makeHistogram("cluster size", "pixels", 0.5, 1, 30),
                                    makeHistogram("cluster size in x", "pixels", 0.5, 1, 12),
                                    makeHistogram("cluster size in y", "pixels", 0.5, 1, 24),
                                    makeHistogram("cluster charge", "e-", 0, 2000, 50)};
    for (std::size_t c = 0; c < result_.count(); ++c) {
        fill(h[0], result_.size[c]);
        fill(h[1], result_.sizeX[c]);
        fill(h[2], result_.sizeY[c]);
        fill(h[3], result_.charge[c]);
    }
    return h;
}

std::string ClusterPresenter::histogramsCsv() const {
    std::ostringstream out;
    out << "quantity,unit,bin_low,bin_high,count\n";
    for (const ClusterHistogram& h : histograms()) {
        for (std::size_t b = 0; b < h.counts.size(); ++b)
            out << h.quantity << ',' << h.unit << ',' << h.edges[b] << ',' << h.edges[b + 1] << ','
                << h.counts[b] << '\n';
        out << h.quantity << ',' << h.unit << ',' << h.edges.back() << ",inf," << h.overflow
            << '\n';
    }
    return out.str();
}

std::string ClusterPresenter::tableCsv() const {
    std::ostringstream out;
    out.precision(10);
    out << "module,cluster,size_pixels,size_x_pixels,size_y_pixels,charge_e,x_pixel,y_pixel\n";
    const cluster::Result& r = result_;
    for (std::size_t c = 0, inModule = 0; c < r.count(); ++c) {
        inModule = c > 0 && r.module[c] == r.module[c - 1] ? inModule + 1 : 0;
        out << r.module[c] << ',' << inModule << ',' << r.size[c] << ',' << r.sizeX[c] << ','
            << r.sizeY[c] << ',' << r.charge[c] << ',' << r.x[c] << ',' << r.y[c] << '\n';
    }
    return out.str();
}

std::string ClusterPresenter::idsCsv() const {
    std::ostringstream out;
    out << "digi,module,x,y,adc,cluster\n";
    for (std::size_t i = 0; !empty() && i < digis_->size(); ++i)
        out << i << ',' << digis_->module[i] << ',' << digis_->x[i] << ',' << digis_->y[i] << ','
            << digis_->adc[i] << ',' << result_.id[i] << '\n';
    return out.str();
}

void ClusterPresenter::writeHdf5(H5Writer& out, const std::string& group) const {
    if (empty()) throw UsageError("cluster: nothing to export; run the clustering first");
    cluster::ClusterResult run(result_);
    run.info = info_;
    run.write(out, group);
    std::vector<std::int32_t> digiModule(digis_->module.begin(), digis_->module.end());
    out.write(group + "/digi_module", makeArray(Shape{digiModule.size()}, digiModule));
    for (const ClusterHistogram& h : histograms()) {
        std::string name = h.quantity;
        std::replace(name.begin(), name.end(), ' ', '_');
        const std::string path = group + "/histograms/" + name;
        out.write(path + "/edges", makeArray(Shape{h.edges.size()}, h.edges));
        out.write(path + "/counts", makeArray(Shape{h.counts.size()}, h.counts));
        out.setAttribute(path, "unit", h.unit);
        out.setAttribute(path, "overflow", h.overflow);
    }
}

} // namespace clscope::ui
