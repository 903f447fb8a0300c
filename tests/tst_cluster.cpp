// cluster: the CPU reference against hand-derived expectations and CMSSW's gpuClustering_t
// cases, every OpenCL variant against the reference on PoCL (exact), forced global-memory
// paths, odd work-group sizes, invariants (shuffled input gives the same partition).
#include "tst_cluster.hpp"
#include "cluster_cases.hpp"
#include "cluster_checks.hpp"
#include "core/cluster/cluster.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "gpu/cluster/cluster_gpu.hpp"
#include "gpu/runtime/devices.hpp"
#include "test_util.hpp"
#include "typed_runs.hpp"

#include <QProcess>
#include <QtTest>
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

using namespace clscope;
using namespace clscope::test;

namespace {

DeviceInfo pocl() {
    const auto& devices = openclDevices();
    if (devices.empty()) throw std::runtime_error("no OpenCL device: install pocl-opencl-icd");
    return devices.front();
}

// Every OpenCL variant, with the default tuning and with the given overrides.
void expectVariantsMatch(const Digis& d, const cluster::Params& params, const QString& what,
                         const std::vector<std::map<std::string, int>>& tunings = {{}}) {
    const cluster::Result want = cluster::clusterReference(d, params);
    for (const char* variant : {"cmssw", "unionfind"})
        for (const auto& tuning : tunings) {
            cluster::Params p = params;
            p.tuning = tuning;
            const cluster::Result got = test::runCluster(pocl(), variant, d, p);
            QString label = what + " " + variant;
            for (const auto& [name, value] : tuning)
                label += QString(" %1=%2").arg(name.c_str()).arg(value);
            expectSame(got, want, label);
            if (QTest::currentTestFailed()) return;
        }
}

// Each set forces paths of its own; set together where they are independent, as every set
// that changes a tunable of cluster_common.cl builds every program again (CI's cold PoCL cache).
const std::vector<std::map<std::string, int>> allPaths{
    {}, // default
    // every module through global memory; 64-bit sums as two 32-bit words; the GPU's work-groups
    // by the input's size (2,048 or more, most of them with no module)
    {{"CMSSW_LOCAL_CAP", 1}, {"SORT_LOCAL_CAP", 1}, {"CLUSTER_ATOM64", 0}, {"CLUSTER_GROUPS", 0}},
    // cmssw: 17..42 digis mixed, more global; odd work-group sizes and grid strides
    {{"CMSSW_LOCAL_CAP", 16},
     {"SORT_LOCAL_CAP", 64},
     {"CLUSTER_WG", 48},
     {"DIGI_WG", 40},
     {"SCAN_WG", 100},
     {"CLUSTER_GROUPS", 3},
     {"CLUSTER_RUN", 5},
     {"RENUMBER_ROWS", 5}}};

} // namespace

void TestCluster::chargeCutParsing() {
    QCOMPARE(cluster::ChargeCut::parse("none").threshold(5), std::uint64_t(0));
    QCOMPARE(cluster::ChargeCut::parse("phase1").threshold(95), std::uint64_t(2000));
    QCOMPARE(cluster::ChargeCut::parse("phase1").threshold(96), std::uint64_t(4000));
    QCOMPARE(cluster::ChargeCut::parse("3000").threshold(0), std::uint64_t(3000));
    QCOMPARE(cluster::ChargeCut::parse("3000").text(), std::string("3000"));
    EXPECT_ERROR(UsageError, cluster::ChargeCut::parse("-1"), "--charge-cut", "'-1'");
    EXPECT_ERROR(UsageError, cluster::ChargeCut::parse("phase2"), "none, phase1");
}

// The per-module kernels' work-groups: as tuned, else by the input's size (a GPU's default).
void TestCluster::moduleGroupsBySize() {
    QCOMPARE(cluster::moduleGroups(3, 2'000'000), std::size_t(3));
    QCOMPARE(cluster::moduleGroups(0, 0), std::size_t(2048));
    QCOMPARE(cluster::moduleGroups(0, 59'000), std::size_t(2048)); // the seed event
    QCOMPARE(cluster::moduleGroups(0, 200'000), std::size_t(6250));
    QCOMPARE(cluster::moduleGroups(0, 2'070'000), std::size_t(16384)); // 35 events
    QCOMPARE(cluster::defaultTuning(pocl()).at("CLUSTER_GROUPS") > 0, pocl().type == "CPU");
}

// Expectations written by hand: numbering by lowest digi, 8-connectivity, centroids.
void TestCluster::handMadeCases() {
    Digis d;
    addDigi(d, 7, 50, 50, 10);  // 0: module 7 cluster 0
    addDigi(d, 3, 10, 10, 100); // 1: module 3 cluster 0
    addDigi(d, 7, 10, 10, 30);  // 2: module 7 cluster 1
    addDigi(d, 7, 51, 51, 30);  // 3: diagonal neighbour of digi 0
    addDigi(d, 3, 12, 10, 100); // 4: module 3, two columns away: cluster 1
    addDigi(d, 3, 11, 11, 300); // 5: joins 1 and 4 (diagonals) into cluster 0
    addInvalid(d);              // 6
    addDigi(d, 7, 9, 11, 20);   // 7: diagonal of digi 2
    const cluster::Result r = cluster::clusterReference(d);
    QCOMPARE(r.id, (std::vector<std::int32_t>{0, 0, 1, 0, 0, 0, -1, 1}));
    QCOMPARE(r.module, (std::vector<std::int32_t>{3, 7, 7}));
    QCOMPARE(r.size, (std::vector<std::int32_t>{3, 2, 2}));
    QCOMPARE(r.sizeX, (std::vector<std::int32_t>{3, 2, 2}));
    QCOMPARE(r.sizeY, (std::vector<std::int32_t>{2, 2, 2}));
    QCOMPARE(r.charge, (std::vector<double>{500, 40, 50}));
    QCOMPARE(r.x[0], (100 * 10.5 + 100 * 12.5 + 300 * 11.5) / 500);
    QCOMPARE(r.y[1], (10 * 50.5 + 30 * 51.5) / 40);
    QCOMPARE(r.x[2], (30 * 10.5 + 20 * 9.5) / 50);
    expectCanonical(d, r);
    expectVariantsMatch(d, {}, "hand-made");
    // A single digi; an empty event; a zero-charge cluster takes the plain centroid.
    Digis one;
    addDigi(one, 1855, 159, 415, 0);
    const cluster::Result single = cluster::clusterReference(one);
    QCOMPARE(single.id, std::vector<std::int32_t>{0});
    QCOMPARE(single.x[0], 159.5);
    QCOMPARE(single.y[0], 415.5);
    expectVariantsMatch(one, {}, "single");
    QCOMPARE(cluster::clusterReference(Digis{}).count(), std::size_t(0));
    Digis invalidOnly;
    addInvalid(invalidOnly), addInvalid(invalidOnly);
    QCOMPARE(test::runCluster(pocl(), "unionfind", invalidOnly).id,
             (std::vector<std::int32_t>{-1, -1}));
    expectVariantsMatch(invalidOnly, {}, "invalid only");
    QCOMPARE(test::runCluster(pocl(), "cmssw", Digis{}).count(), std::size_t(0));
}

// Every copy of a duplicated pixel is dropped and bridges nothing.
void TestCluster::duplicates() {
    Digis d;
    addDigi(d, 5, 5, 5, 100); // 0 cluster 0
    addDigi(d, 5, 6, 6, 100); // 1 duplicate (3 copies)
    addDigi(d, 5, 7, 7, 100); // 2 cluster 1: (6,6) does not join it to digi 0
    addDigi(d, 5, 6, 6, 200); // 3 duplicate
    addDigi(d, 9, 6, 6, 100); // 4 module 9: not a copy
    addInvalid(d);            // 5
    addDigi(d, 5, 20, 20, 1); // 6 duplicate (2 copies)
    addDigi(d, 5, 6, 6, 300); // 7 duplicate
    addDigi(d, 5, 20, 20, 1); // 8 duplicate, the module's last digi
    const cluster::Result r = cluster::clusterReference(d);
    QCOMPARE(r.id, (std::vector<std::int32_t>{0, -1, 1, -1, 0, -1, -1, -1, -1}));
    QCOMPARE(r.count(), std::size_t(3));
    expectVariantsMatch(d, {}, "duplicates", allPaths);
}

// The cut at its exact thresholds: >= passes, survivors renumbered without holes.
void TestCluster::chargeCutThresholds() {
    Digis d;
    addDigi(d, 95, 0, 0, 1999);                                   // 0 dropped
    addDigi(d, 95, 5, 5, 1000);                                   // 1 cluster 0 (2000)
    addDigi(d, 95, 6, 5, 1000);                                   // 2
    addDigi(d, 96, 0, 0, 3999);                                   // 3 dropped
    addDigi(d, 96, 9, 9, 4000);                                   // 4 cluster 0
    addDigi(d, 96, 0, 1, 0);                                      // 5 joins digi 3: still 3999
    addDigi(d, 1000, 3, 3, 65535), addDigi(d, 1000, 3, 4, 65535); // 131070
    const cluster::Result phase1 = cluster::clusterReference(d, cut("phase1"));
    QCOMPARE(phase1.id, (std::vector<std::int32_t>{-1, 0, 0, -1, 0, -1, 0, 0}));
    QCOMPARE(phase1.charge, (std::vector<double>{2000, 4000, 131070}));
    const cluster::Result value = cluster::clusterReference(d, cut("3999"));
    QCOMPARE(value.id, (std::vector<std::int32_t>{-1, -1, -1, 0, 1, 0, 0, 0}));
    const cluster::Result none = cluster::clusterReference(d);
    QCOMPARE(none.id, (std::vector<std::int32_t>{0, 1, 1, 0, 1, 0, 0, 0}));
    for (const char* c : {"none", "phase1", "3999", "2000", "131071"})
        expectVariantsMatch(d, cut(c), QString("cut ") + c);
}

void TestCluster::badInput() {
    Digis d;
    addDigi(d, 1, 159, 415, 1);
    addDigi(d, Digis::invalidModule, 60000, 60000, 1); // invalid digis are not checked
    addDigi(d, 2, 3, 416, 1);
    addDigi(d, 2, 160, 0, 1);
    EXPECT_ERROR(InputError, cluster::clusterReference(d), "digi 2", "module 2", "y 416",
                 "160x416");
    EXPECT_ERROR(InputError, test::runCluster(pocl(), "unionfind", d), "digi 2");
    d.adc.pop_back();
    EXPECT_ERROR(InputError, cluster::clusterReference(d), "same length");
    EXPECT_ERROR(UsageError, test::runCluster(pocl(), "nope", Digis{}), "no variant 'nope'");
    EXPECT_ERROR(UsageError, test::runCluster(hostDevice(), "cmssw", Digis{}), "cannot run");
}

void TestCluster::cmsswCases_data() {
    QTest::addColumn<int>("config");
    QTest::addColumn<QString>("chargeCut");
    QTest::addColumn<int>("expected");
    // Totals from the loop bounds: module 42 has 9 clusters, module 0 one, the 895 odd modules
    // ten each (8960); the noise module adds 1000 single pixels of adc 1000 in configs 1 and 3.
    // Phase-1 cut: the noise (1000 < 4000) and config 0's isolated 100-adc pixel go; the holes
    // cluster of config 2 keeps 5*10 + 2*1000 = 2050 >= 2000.
    const int withoutCut[5] = {8960, 9960, 8960, 9960, 8960},
              withCut[5] = {8959, 8960, 8960, 8960, 8960};
    for (int config = 0; config < 5; ++config) {
        QTest::addRow("config %d, no cut", config) << config << "none" << withoutCut[config];
        QTest::addRow("config %d, phase1", config) << config << "phase1" << withCut[config];
    }
}

void TestCluster::cmsswCases() {
    QFETCH(int, config);
    QFETCH(QString, chargeCut);
    QFETCH(int, expected);
    const Digis d = cmsswEvent(config);
    const cluster::Result r = cluster::clusterReference(d, cut(chargeCut.toStdString()));
    QCOMPARE(int(r.count()), expected);
    expectCanonical(d, r);
    std::set<int> modules(r.module.begin(), r.module.end());
    QCOMPARE(int(modules.size()), chargeCut == "none" && config % 2 ? 898 : 897);
    for (std::size_t c = 0; c < r.count(); ++c)
        if (r.module[c] % 2 == 1 && r.module[c] != 666)
            QCOMPARE(r.size[c], r.module[c] / 10 % 2 ? 20 : 19);
    expectVariantsMatch(d, cut(chargeCut.toStdString()), "gpuClustering_t");
}

void TestCluster::variantsOnEdgeCases_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("20k-digi noisy module") << 0;
    QTest::newRow("snake over 6 rows (local path)") << 1;
    QTest::newRow("snake over 40 rows (global path)") << 2;
    QTest::newRow("diagonal zigzags, module split in runs") << 3;
    QTest::newRow("whole module at adc 65535: sums past 2^32") << 4;
}

void TestCluster::variantsOnEdgeCases() {
    QFETCH(int, kind);
    Digis d;
    std::mt19937 rng(11);
    if (kind == 0) {
        for (int i = 0; i < 20000; ++i)
            addDigi(d, 300, rng() % 160, rng() % 416, rng() % 500);
        addDigi(d, 2, 1, 1, 9);
    } else if (kind == 1 || kind == 2) {
        addSnake(d, 4, kind == 1 ? 6 : 40, 5);
    } else if (kind == 3) {
        addZigzag(d, 12, 1);
        addInvalid(d);
        addDigi(d, 13, 0, 0, 5);
        addZigzag(d, 12, 2); // every pixel again: all duplicates
        addZigzag(d, 14, 3);
    } else if (kind == 4) { // 66560 x 65535 = 4 362 009 600: the low word of the charge wraps
        for (int y = 0; y < 416; ++y)
            for (int x = 0; x < 160; ++x)
                addDigi(d, 7, (x * 37 + y) % 160, y, 65535);
    }
    const cluster::Result r = cluster::clusterReference(d);
    if (kind == 1 || kind == 2 || kind == 4) QCOMPARE(r.count(), std::size_t(1));
    if (kind == 4) QCOMPARE(r.charge[0], 66560.0 * 65535.0);
    if (kind == 3) {
        QCOMPARE(r.count(), std::size_t(2));
        QCOMPARE(r.size[1], 416);
    }
    expectCanonical(d, r);
    expectVariantsMatch(d, {}, QTest::currentDataTag(),
                        kind == 0 ? allPaths
                        : kind == 4
                            ? std::vector<std::map<std::string, int>>{{}, {{"CLUSTER_ATOM64", 0}}}
                            : std::vector<std::map<std::string, int>>{{}});
}

void TestCluster::randomEvents_data() {
    QTest::addColumn<double>("occupancy");
    QTest::addColumn<int>("modules");
    QTest::addColumn<QString>("chargeCut");
    QTest::newRow("0.05 %, 1856 modules") << 0.0005 << 1856 << "none";
    QTest::newRow("1 %, 60 modules, phase1") << 0.01 << 60 << "phase1";
    QTest::newRow("1 %, 200 modules, cut 1500") << 0.01 << 200 << "1500";
}

void TestCluster::randomEvents() {
    QFETCH(double, occupancy);
    QFETCH(int, modules);
    QFETCH(QString, chargeCut);
    const Digis d = randomEvent(std::size_t(modules), occupancy, 42);
    const cluster::Params p = cut(chargeCut.toStdString());
    expectCanonical(d, cluster::clusterReference(d, p));
    cluster::Params oneThread = p;
    oneThread.threads = 1;
    expectSame(cluster::clusterReference(d, oneThread), cluster::clusterReference(d, p), "threads");
    expectVariantsMatch(d, p, QTest::currentDataTag(), allPaths);
}

// A permutation of the input gives the same clusters (as sets of pixels, with the same sums).
void TestCluster::shuffledInputSamePartition() {
    const Digis d = randomEvent(40, 0.01, 7);
    std::vector<std::size_t> order(d.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(3));
    Digis s;
    for (std::size_t i : order)
        addDigi(s, d.module[i], d.x[i], d.y[i], d.adc[i]);
    const cluster::Result a = cluster::clusterReference(d),
                          b = test::runCluster(pocl(), "cmssw", s);
    // The same pair of digis share a cluster in both, and every cluster keeps its sums.
    std::map<std::pair<int, int>, int> bOfA;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t i = order[k];
        QCOMPARE(a.id[i] < 0, b.id[k] < 0);
        if (a.id[i] < 0) continue;
        const auto [it, fresh] = bOfA.emplace(std::make_pair(int(d.module[i]), a.id[i]), b.id[k]);
        QCOMPARE(it->second, b.id[k]);
    }
    QCOMPARE(bOfA.size(), a.count());
    std::multiset<std::tuple<int, int, double, double, double>> sa, sb;
    for (std::size_t c = 0; c < a.count(); ++c)
        sa.insert({a.module[c], a.size[c], a.charge[c], a.x[c], a.y[c]});
    for (std::size_t c = 0; c < b.count(); ++c)
        sb.insert({b.module[c], b.size[c], b.charge[c], b.x[c], b.y[c]});
    QVERIFY(sa == sb);
}

QTEST_GUILESS_MAIN(TestCluster)
