// tst_cluster, command line: `clscope-cli cluster` (the generic command of the algorithm
// interface) writes the DESIGN.md §3 layout with provenance, --params reproduces a run, exit
// codes 2/3/4 leave no output; `generate digis` -> `cluster` round trip.
#include "cluster_cases.hpp"
#include "cluster_checks.hpp"
#include "core/cluster/cluster.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "tst_cluster.hpp"

#include <QFile>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

using namespace clscope;
using namespace clscope::test;

void TestCluster::commandLine_data() {
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("chargeCut");
    QTest::newRow("ocl:0 default variant") << "ocl:0"
                                           << "none";
    QTest::newRow("ocl:0 phase1") << "ocl:0"
                                  << "phase1";
    QTest::newRow("cpu 3000") << "cpu"
                              << "3000";
}

// `clscope-cli cluster` writes the DESIGN.md layout, equal to the reference, with provenance.
void TestCluster::commandLine() {
    QFETCH(QString, device);
    QFETCH(QString, chargeCut);
    Digis d = randomEvent(30, 0.003, 5);
    addSnake(d, 3, 3, 1);
    const std::string in = writeDigisFile(tmp, "in.h5", d);
    const QString out = tmp.filePath("out.h5");
    const CliRun r = cli({"cluster", QString::fromStdString(in), "--device", device, "--charge-cut",
                          chargeCut, "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("clusters from"), qPrintable(r.out));
    const H5Reader file(out.toStdString());
    const cluster::Result want = cluster::clusterReference(d, cut(chargeCut.toStdString()));
    QVERIFY(want.count() > 10);
    QCOMPARE(readColumn<std::int32_t>(file, "/clusters/id"), want.id);
    QCOMPARE(readColumn<std::int32_t>(file, "/clusters/module"), want.module);
    QCOMPARE(readColumn<std::int32_t>(file, "/clusters/size"), want.size);
    QCOMPARE(readColumn<std::int32_t>(file, "/clusters/size_x"), want.sizeX);
    QCOMPARE(readColumn<std::int32_t>(file, "/clusters/size_y"), want.sizeY);
    QCOMPARE(readColumn<double>(file, "/clusters/charge"), want.charge);
    QCOMPARE(readColumn<double>(file, "/clusters/x"), want.x);
    QCOMPARE(readColumn<double>(file, "/clusters/y"), want.y);
    for (const char* name : {"id", "module", "size", "size_x", "size_y"})
        QCOMPARE(file.info(std::string("/clusters/") + name).dtype,
                 std::optional<DType>(DType::Int32));
    for (const char* name : {"charge", "x", "y"})
        QCOMPARE(file.info(std::string("/clusters/") + name).dtype,
                 std::optional<DType>(DType::Float64));
    const auto parameters = file.stringAttribute("/clusters", "parameters");
    QVERIFY(parameters);
    const auto json = nlohmann::json::parse(*parameters);
    QCOMPARE(json.at("charge_cut").get<std::string>(), chargeCut.toStdString());
    QCOMPARE(json.at("input").at("datasets").at("digis").get<std::string>(), in + ":/digis");
    QCOMPARE(file.stringAttribute("/clusters", "variant").value_or(""),
             std::string(device == "cpu" ? "cpu" : "cmssw"));
    QVERIFY(file.stringAttribute("/clusters", "device").value_or("").find(device.toStdString()) ==
            0);
    for (const H5Node& node : file.children("/"))
        if (node.name == "clusters") QVERIFY(node.attributes.count("kernel_ms"));
    QVERIFY(file.stringAttribute("/clusters", "clscope_version"));
}

// --params with an output's `parameters` attribute reproduces that run on another device and
// variant; an option on the command line wins over the file.
void TestCluster::commandLineParamsReproduce() {
    Digis d = randomEvent(20, 0.004, 9);
    const QString in = QString::fromStdString(writeDigisFile(tmp, "params_in.h5", d));
    const QString first = tmp.filePath("first.h5"), again = tmp.filePath("again.h5");
    CliRun r = cli({"cluster", in, "--device", "cpu", "--charge-cut", "phase1", "-o", first});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const H5Reader firstFile(first.toStdString());
    const QString params = tmp.filePath("params.json");
    {
        QFile f(params);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(firstFile.stringAttribute("/clusters", "parameters").value_or("").c_str());
    }
    r = cli({"cluster", in, "--device", "ocl:0", "--variant", "unionfind", "--params", params, "-o",
             again});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const H5Reader againFile(again.toStdString());
    const auto want = cluster::clusterReference(d, cut("phase1"));
    QCOMPARE(readColumn<std::int32_t>(againFile, "/clusters/id"), want.id);
    QCOMPARE(readColumn<double>(againFile, "/clusters/charge"),
             readColumn<double>(firstFile, "/clusters/charge"));
    r = cli({"cluster", in, "--device", "cpu", "--params", params, "--charge-cut", "none", "-o",
             again});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(readColumn<std::int32_t>(H5Reader(again.toStdString()), "/clusters/id"),
             cluster::clusterReference(d).id);
    // A JSON number is a value cut too.
    {
        QFile f(params);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"charge_cut": 3000})");
    }
    r = cli({"cluster", in, "--device", "cpu", "--params", params, "-o", again});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(readColumn<std::int32_t>(H5Reader(again.toStdString()), "/clusters/id"),
             cluster::clusterReference(d, cut("3000")).id);
}

// Exit codes of DESIGN.md §4: 2 usage, 3 bad input naming what and where, 4 device; never an
// output file when it fails.
void TestCluster::commandLineErrors() {
    Digis d;
    addDigi(d, 1, 3, 4, 100);
    addDigi(d, 1, 3, 5, 100);
    addDigi(d, 2, 160, 0, 100);
    const QString bad = QString::fromStdString(writeDigisFile(tmp, "bad.h5", d));
    const QString out = tmp.filePath("never.h5");
    for (const QString& device : {QString("cpu"), QString("ocl:0")}) {
        const CliRun r = cli({"cluster", bad, "--device", device, "-o", out});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("digi 2") && r.err.contains("160, 0") &&
                     r.err.contains("bad.h5:/digis"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
    d.x.back() = 0, d.y.back() = 416;
    const QString badY = QString::fromStdString(writeDigisFile(tmp, "bad_y.h5", d));
    CliRun r = cli({"cluster", badY, "-o", out});
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("digi 2") && r.err.contains("0, 416"), qPrintable(r.err));
    d.y.back() = 0;
    const QString good = QString::fromStdString(writeDigisFile(tmp, "good.h5", d));
    r = cli({"cluster", good, "--charge-cut", "bogus", "-o", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--charge-cut") && r.err.contains("bogus"), qPrintable(r.err));
    QCOMPARE(cli({"cluster", good, "--charge-cut", "-5", "-o", out}).code, 2);
    QCOMPARE(cli({"cluster", good, "--variant", "nope", "-o", out}).code, 2);
    QCOMPARE(cli({"cluster", good, "--device", "cpu", "--variant", "cmssw", "-o", out}).code, 2);
    QCOMPARE(cli({"cluster", good}).code, 2); // no output
    QCOMPARE(cli({"cluster", tmp.filePath("missing.h5"), "-o", out}).code, 3);
    QCOMPARE(cli({"cluster", good, "--digis", "/nowhere", "-o", out}).code, 3);
    QCOMPARE(cli({"cluster", good, "--device", "ocl:99", "-o", out}).code, 4);
    QCOMPARE(cli({"cluster", good, "--device", "ocl:no such device", "-o", out}).code, 4);
    QVERIFY(!QFile::exists(out));
    r = cli({"cluster", good, "--variant", "unionfind", "--device", "ocl:0", "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(readColumn<std::int32_t>(H5Reader(out.toStdString()), "/clusters/id"),
             (std::vector<std::int32_t>{0, 0, 0}));
}

// generate digis -> cluster: the generated event (duplicates, invalid digis) round-trips, and
// `variants cluster` lists every variant.
void TestCluster::commandLineGenerated() {
    const CliRun v = cli({"variants", "cluster"});
    QCOMPARE(v.code, 0);
    for (const char* id : {"cmssw\t", "unionfind\t", "cpu\t"})
        QVERIFY2(v.out.contains(id), qPrintable(v.out));
    const QString event = tmp.filePath("generated.h5"), out = tmp.filePath("generated_out.h5");
    CliRun r = cli({"generate", "digis", "--modules", "64", "--seed", "3", "-o", event});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    r = cli({"cluster", event, "--device", "ocl:0", "--charge-cut", "phase1", "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Digis d = readDigis(H5Reader(event.toStdString()), "/digis");
    const auto want = cluster::clusterReference(d, cut("phase1"));
    QVERIFY(want.count() > 100);
    QVERIFY(std::count(want.id.begin(), want.id.end(), -1) > 0);
    const H5Reader file(out.toStdString());
    QCOMPARE(readColumn<std::int32_t>(file, "/clusters/id"), want.id);
    QCOMPARE(readColumn<double>(file, "/clusters/y"), want.y);
}

// One run over several devices (modules dealt by size) writes what one device writes.
void TestCluster::commandLineSeveralDevices() {
    Digis d = randomEvent(40, 0.004, 21);
    addSnake(d, 7, 3, 1);
    addDigi(d, Digis::invalidModule, 0, 0, 0);
    addDigi(d, 3, 5, 5, 700), addDigi(d, 3, 5, 5, 700); // a duplicate
    const QString in = QString::fromStdString(writeDigisFile(tmp, "several_in.h5", d));
    const auto want = cluster::clusterReference(d, cut("phase1"));
    for (const QString devices : {"cpu,cpu,cpu", "ocl:0,cpu", "ocl:0,ocl:0"}) {
        const QString out = tmp.filePath("several.h5");
        const CliRun r = cli({"cluster", in, "--device", devices, "--split", "always",
                              "--charge-cut", "phase1", "-o", out});
        QVERIFY2(r.code == 0, qPrintable(devices + ": " + r.err));
        const H5Reader file(out.toStdString());
        QCOMPARE(readColumn<std::int32_t>(file, "/clusters/id"), want.id);
        QCOMPARE(readColumn<std::int32_t>(file, "/clusters/module"), want.module);
        QCOMPARE(readColumn<std::int32_t>(file, "/clusters/size_y"), want.sizeY);
        QCOMPARE(readColumn<double>(file, "/clusters/charge"), want.charge);
        QCOMPARE(readColumn<double>(file, "/clusters/x"), want.x);
        QCOMPARE(file.stringAttribute("/clusters", "device")
                     .value_or("")
                     .rfind(devices.toStdString(), 0),
                 std::size_t(0));
    }
}

// The split deals the modules largest first to the part with the fewest digis: the two largest
// modules (adjacent ids) land on different devices and the parts get equal digi counts.
void TestCluster::splitDealsLargestModules() {
    Digis d;
    for (std::uint16_t m = 0; m < 10; ++m)
        for (int i = 0; i < (m == 0 ? 50 : m == 1 ? 40 : 5); ++i)
            addDigi(d, m, std::uint16_t(i % 160), std::uint16_t(2 * (i / 160) + m % 2), 10);
    addDigi(d, Digis::invalidModule, 0, 0, 0);
    const cluster::Algorithm algorithm;
    const cluster::ClusterInput input(d);
    const auto parts = algorithm.split(input, algorithm.defaultParams(), 2);
    QCOMPARE(parts.size(), std::size_t(2));
    std::vector<std::set<int>> modules(2);
    for (std::size_t k = 0; k < 2; ++k) {
        const auto& piece = dynamic_cast<const cluster::ClusterInput&>(*parts[k].input);
        QCOMPARE(piece.digis.size(), std::size_t(65));
        QCOMPARE(piece.totalDigis, d.size());
        modules[k].insert(piece.digis.module.begin(), piece.digis.module.end());
    }
    QVERIFY(modules[0].count(0) != modules[1].count(0));
    QVERIFY(modules[0].count(1) != modules[1].count(1));
    QVERIFY(modules[0].count(0) != modules[0].count(1));
}

// bench --size events: 35 events batched as module-id ranges, every OpenCL variant identical to
// the reference (the JSON row's deviation), reported in events/s.
void TestCluster::commandLineBenchEvents() {
    const QString json = tmp.filePath("events.json");
    const CliRun r = cli({"bench", "cluster", "--size", "events", "--device", "ocl:0", "--repeat",
                          "1", "--json", json});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto doc = nlohmann::json::parse(f.readAll().toStdString());
    int ran = 0;
    for (const auto& row : doc.at("rows")) {
        if (!row.at("ran").get<bool>()) continue;
        ++ran;
        QCOMPARE(row.at("unit").get<std::string>(), std::string("events/s"));
        QVERIFY2(row.at("deviation").at("pass").get<bool>(),
                 row.at("variant").get<std::string>().c_str());
        QCOMPARE(row.at("deviation").at("compared").get<std::size_t>() > 35 * 50000, true);
    }
    QCOMPARE(ran, 2); // cmssw and unionfind on ocl:0
}
