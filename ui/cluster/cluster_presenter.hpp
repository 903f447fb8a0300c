// The cluster results presenter (Qt-free, tested without widgets): one event's digis and
// clusters turned into what the cluster views draw — digis or clusters per module for the
// detector overview, one module's 160 x 416 map (cluster of each pixel, duplicate, invalid and
// charge-cut digis), size and charge histograms, the cluster table, the module and cluster
// selected — and the exports (cluster ids per digi, the table, the histograms).
#pragma once
#include "core/cluster/cluster.hpp"
#include "core/data.hpp"
#include "core/hdf5.hpp"
#include "gpu/algorithm.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

// A histogram of bins [edges[i], edges[i+1]); entries at or above the last edge in overflow.
struct ClusterHistogram {
    std::string quantity, unit; // "cluster size", "pixels"
    std::vector<double> edges;  // bins + 1
    std::vector<double> counts; // bins
    double overflow = 0;
};

// What one module's map shows, each (160 x 416, row-major y * 160 + x, 0 = nothing there).
struct ClusterModuleMap {
    int module = -1;
    std::vector<std::int32_t> cluster;   // cluster number within the module + 1
    std::vector<std::int32_t> duplicate; // 1 where a duplicated digi was dropped
    std::vector<std::int32_t> belowCut;  // 1 where a digi was dropped by the charge cut
    std::vector<double> charge;          // adc (e-) of the pixel's digi; 0 where none
    // Invalid digis (module 65534) found inside this module's run in input order: (x, y).
    std::vector<std::pair<int, int>> invalid;
    std::size_t clusters = 0, digis = 0;
};

class ClusterPresenter {
  public:
    enum class Measure { Digis, Clusters };

    // The event: its digis and the clusters a variant found (ids per digi, per-cluster table).
    // InputError when the result does not belong to the digis.
    void setEvent(std::shared_ptr<const Digis> digis, cluster::Result result);
    // Device, variant, parameters and kernel time written with the HDF5 export.
    void setRunInfo(RunInfo info) { info_ = std::move(info); }
    const RunInfo& runInfo() const { return info_; }
    bool empty() const { return !digis_; }
    const Digis& digis() const { return *digis_; }
    std::shared_ptr<const Digis> sharedDigis() const { return digis_; }
    const cluster::Result& result() const { return result_; }

    // Digis (valid ones, duplicates included) or clusters of each module 0..moduleCount()-1.
    const std::vector<double>& perModule(Measure measure) const;
    std::size_t moduleCount() const { return digisPerModule_.size(); }
    std::size_t invalidDigis() const { return invalidDigis_; }
    std::size_t duplicateDigis() const { return duplicateDigis_; }
    // Duplicated digis (every copy) per module.
    const std::vector<double>& duplicatesPerModule() const { return duplicatesPerModule_; }
    // The module with the most clusters (-1 without clusters).
    int busiestModule() const;
    // The same among the modules with a duplicated digi (-1: none has one).
    int busiestModuleWithDuplicates() const;
    // The table row of the largest cluster (pixels) of `module`; none when it has none.
    std::optional<std::size_t> largestClusterOf(int module) const;

    // Selection: a module (-1: none); a cluster (index into the table) selects its module.
    void selectModule(int module);
    int selectedModule() const { return selectedModule_; }
    void selectCluster(std::size_t cluster);
    std::optional<std::size_t> selectedCluster() const { return selectedCluster_; }
    // Table rows of one module's clusters: [first, last).
    std::pair<std::size_t, std::size_t> clustersOf(int module) const;
    ClusterModuleMap moduleMap(int module) const;

    // Cluster size (pixels), size in x and y (pixels), charge (e-, 1000 e- bins).
    std::vector<ClusterHistogram> histograms() const;

    // Exports: `bin_low,bin_high,count` blocks per histogram; one row per cluster; per digi.
    std::string histogramsCsv() const;
    std::string tableCsv() const;
    std::string idsCsv() const;
    // /clusters as clscope-cli cluster writes it (id per digi and the cluster table) plus
    // /clusters/digi_module (module of each digi) and the histograms under /clusters/histograms.
    void writeHdf5(H5Writer& out, const std::string& group = "/clusters") const;

  private:
    void countModules();
    std::shared_ptr<const Digis> digis_;
    cluster::Result result_;
    RunInfo info_;
    std::vector<double> digisPerModule_, clustersPerModule_, duplicatesPerModule_;
    std::vector<std::uint8_t> duplicate_; // per digi
    std::size_t invalidDigis_ = 0, duplicateDigis_ = 0;
    int selectedModule_ = -1;
    std::optional<std::size_t> selectedCluster_;
};

// How two runs on the same digis partition them differently: a digi differs when the set of
// digis in its cluster is not the same in both (dropped in one run only counts; renumbering
// alone does not).
struct PartitionDifference {
    std::vector<std::size_t> digis; // indices of the differing digis, ascending
    std::vector<double> perModule;  // differing digis per module (size: max module + 1)
    std::size_t modulesWithDifferences = 0;
};
// InputError when a result does not have one id per digi.
PartitionDifference partitionDifference(const Digis& digis, const cluster::Result& a,
                                        const cluster::Result& b);

} // namespace clscope::ui
