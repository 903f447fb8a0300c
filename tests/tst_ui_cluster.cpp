// Cluster panel: the Phase-1 layout places every module once; the presenter's per-module counts
// equal a hand count and the overview grid shows them; a run through the panel gives core's cpu
// reference exactly (cpu and an OpenCL variant); a click on a module selects it and opens its
// map; a click on a table row frames its cluster; toggling the charge cut re-clusters live as
// core does; the partition difference finds exactly the digis of a merged cluster (not those
// only renumbered); the exports read back; `clscope --demo cluster` succeeds and a failing
// demo exits non-zero.
#include "core/cluster/synthetic.hpp"
#include "core/io.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "ui/app/main_window.hpp"
#include "ui/cluster/cluster_difference_view.hpp"
#include "ui/cluster/cluster_layout.hpp"
#include "ui/cluster/cluster_module_view.hpp"
#include "ui/cluster/cluster_overview.hpp"
#include "ui/cluster/cluster_panel.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/workbench.hpp"
#include "ui_test_helpers.hpp"

#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>
#include <array>
#include <fstream>
#include <qcustomplot.h>
#include <set>
#include <sstream>

using namespace clscope;
using namespace clscope::ui;

namespace {

// Digis of a few modules, by hand: (module, x, y, adc).
Digis handDigis(const std::vector<std::array<int, 4>>& rows) {
    Digis d;
    for (const auto& r : rows) {
        d.module.push_back(std::uint16_t(r[0]));
        d.x.push_back(std::uint16_t(r[1]));
        d.y.push_back(std::uint16_t(r[2]));
        d.adc.push_back(std::uint16_t(r[3]));
    }
    return d;
}

std::optional<std::size_t> openclIndex(DevicePicker& picker) {
    const auto& devices = picker.presenter().devices();
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (!devices[i].isHost()) return i;
    return std::nullopt;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

} // namespace

class TestUiCluster : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString file_;
    Digis digis_;

    // A run through the panel of a main window on the file; returns when it has delivered.
    bool runPanel(ClusterPanel& panel) {
        QSignalSpy finished(&panel, &ClusterPanel::runFinished);
        if (!panel.run()) return false;
        return finished.wait(120000) && finished.front().front().toBool();
    }

  private slots:
    void initTestCase() {
        test::useTemporarySettings(dir_);
        synthetic::DigisParams p;
        p.seed = 7;
        digis_ = synthetic::generateDigis(p);
        file_ = dir_.filePath("event.h5");
        H5Writer out(file_.toStdString());
        writeDigis(out, digis_);
        out.commit();
    }

    // Every Phase-1 module has one cell and the cell names it back.
    void layoutPlacesEveryModuleOnce() {
        std::set<std::tuple<int, int, int>> cells;
        for (int m = 0; m < clusterlayout::phase1Modules; ++m) {
            const auto p = clusterlayout::placeOf(m);
            QVERIFY(p);
            QCOMPARE(clusterlayout::moduleAt(p->grid, p->column, p->row), m);
            cells.insert({p->grid, p->column, p->row});
        }
        QCOMPARE(cells.size(), std::size_t(clusterlayout::phase1Modules));
        QVERIFY(!clusterlayout::placeOf(1856));
        QCOMPARE(clusterlayout::rows(3), 64); // BPix L4: 64 ladders
        QVERIFY(clusterlayout::moduleName(1184 + 112 * 3).find("E-1, blade 1 (inner)") !=
                std::string::npos);
    }

    // Module 0: 3 digis in 2 clusters; module 5: a duplicated pixel and 1 more digi; module
    // 1300 (forward): 4 digis in a row; 2 invalid digis.
    void overviewCountsEqualHandCount() {
        auto digis = std::make_shared<Digis>(handDigis({{0, 1, 1, 3000},
                                                        {5, 10, 10, 2500},
                                                        {0, 2, 2, 3000},
                                                        {1300, 50, 7, 5000},
                                                        {65534, 3, 3, 100},
                                                        {0, 100, 300, 2100},
                                                        {5, 10, 10, 2500},
                                                        {1300, 51, 7, 5000},
                                                        {5, 40, 40, 2200},
                                                        {1300, 52, 7, 5000},
                                                        {1300, 53, 7, 5000},
                                                        {65534, 9, 9, 100}}));
        ClusterPresenter p;
        p.setEvent(digis, cluster::clusterReference(*digis));
        using M = ClusterPresenter::Measure;
        QCOMPARE(p.perModule(M::Digis)[0], 3.0);
        QCOMPARE(p.perModule(M::Digis)[5], 3.0);
        QCOMPARE(p.perModule(M::Digis)[1300], 4.0);
        QCOMPARE(p.perModule(M::Clusters)[0], 2.0);
        QCOMPARE(p.perModule(M::Clusters)[5], 1.0); // both copies dropped
        QCOMPARE(p.perModule(M::Clusters)[1300], 1.0);
        double total = 0;
        for (double v : p.perModule(M::Digis))
            total += v;
        QCOMPARE(total, 10.0);
        QCOMPARE(p.invalidDigis(), std::size_t(2));
        QCOMPARE(p.duplicateDigis(), std::size_t(2));
        QCOMPARE(p.duplicatesPerModule()[5], 2.0);
        QCOMPARE(p.duplicatesPerModule()[0], 0.0);
        // The overview's cells hold those counts (0 elsewhere).
        ClusterOverview overview;
        overview.setValues(p.perModule(M::Digis), "digis per module");
        QCOMPARE(overview.cellValue(0), 3.0);
        QCOMPARE(overview.cellValue(5), 3.0);
        QCOMPARE(overview.cellValue(1300), 4.0);
        QCOMPARE(overview.cellValue(1), 0.0);
        // The module map marks the duplicate and the invalid digi inside module 0's run.
        const ClusterModuleMap map5 = p.moduleMap(5);
        QCOMPARE(map5.duplicate[10 * 160 + 10], 1);
        QCOMPARE(map5.cluster[40 * 160 + 40], 1);
        QCOMPARE(p.moduleMap(0).clusters, std::size_t(2));
        QCOMPARE(p.moduleMap(1300).invalid.size(), std::size_t(0));
        QCOMPARE(p.moduleMap(0).invalid.size(), std::size_t(0)); // 65534 sits between 1300s
    }

    // A run through the panel equals core's cpu reference exactly (cpu, then an OpenCL variant).
    void panelResultEqualsCoreReference_data() {
        QTest::addColumn<QString>("variant");
        QTest::newRow("cpu") << "cpu";
        QTest::newRow("cmssw") << "cmssw";
    }
    void panelResultEqualsCoreReference() {
        QFETCH(QString, variant);
        MainWindow window;
        auto* picker = window.findChild<DevicePicker*>();
        if (variant != "cpu") {
            const auto ocl = openclIndex(*picker);
            if (!ocl) QSKIP("no OpenCL device");
            picker->selectDevice(*ocl);
        }
        QVERIFY(window.openFile(file_));
        auto* panel = window.findChild<ClusterPanel*>();
        QVERIFY(panel);
        QVERIFY(window.dock("AlgorithmPanel_cluster"));
        panel->setVariant(variant.toStdString());
        QVERIFY(runPanel(*panel));
        const cluster::Result expected = cluster::clusterReference(digis_);
        const cluster::Result& got = panel->presenter().result();
        QCOMPARE(got.variant, variant.toStdString());
        QCOMPARE(got.id, expected.id);
        QCOMPARE(got.module, expected.module);
        QCOMPARE(got.charge, expected.charge);
        QCOMPARE(got.size, expected.size);
        QVERIFY(expected.count() > 10000);
        QStringList titles;
        for (const ResultTab& tab : window.workbench().results().tabs())
            titles << tab.title;
        QVERIFY(titles.contains("Detector") && titles.contains("Module"));
    }

    // Clicks: a barrel and a forward module in the overview; a row of the cluster table.
    void clicksSelectModuleAndHighlightCluster() {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QDockWidget* results = window.dock("ResultsPanel");
        results->setFloating(true);
        results->resize(1200, 900);
        QVERIFY(window.openFile(file_));
        auto* panel = window.findChild<ClusterPanel*>();
        panel->setVariant("cpu");
        QVERIFY(runPanel(*panel));
        ClusterOverview* overview = panel->overview();
        window.workbench().results().showTab(overview);
        QTRY_VERIFY(overview->plot()->isVisible());
        overview->plot()->replot();
        for (int module : {200, 1500}) {
            QSignalSpy clicked(overview, &ClusterOverview::moduleClicked);
            QTest::mouseClick(overview->plot(), Qt::LeftButton, {}, overview->cellCentre(module));
            QCOMPARE(clicked.count(), 1);
            QCOMPARE(clicked.front().front().toInt(), module);
            QCOMPARE(panel->presenter().selectedModule(), module);
            QCOMPARE(panel->moduleView()->map().module, module);
            QCOMPARE(overview->selectedModule(), module);
        }
        // The third cluster of module 1500 from its table row.
        const auto [first, last] = panel->presenter().clustersOf(1500);
        QVERIFY(last - first >= 3);
        QTableView* table = panel->table();
        QTRY_VERIFY(table->isVisible());
        const QModelIndex index = table->model()->index(int(first + 2), 2);
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        QCOMPARE(panel->presenter().selectedCluster().value(), first + 2);
        QCOMPARE(panel->moduleView()->highlighted().value(), 2);
        QCOMPARE(panel->moduleView()->map().module, 1500);
    }

    // Phase-1 cut on, live: the panel re-clusters off the GUI thread and ends on core's answer.
    void chargeCutToggleReclustersAsCore() {
        MainWindow window;
        QVERIFY(window.openFile(file_));
        auto* panel = window.findChild<ClusterPanel*>();
        panel->setVariant("cpu");
        QVERIFY(runPanel(*panel));
        const std::size_t uncut = panel->presenter().result().count();
        ResultsPanel& results = window.workbench().results();
        results.showTab(panel->moduleView());
        QSignalSpy finished(panel, &ClusterPanel::runFinished);
        panel->setLive(true);
        panel->setChargeCut({cluster::ChargeCut::Kind::Phase1, 0});
        QVERIFY(finished.wait(120000));
        QVERIFY(finished.front().front().toBool());
        // Issue 23, defect 5: the Module tab the user chose stays in front across the re-run.
        QCOMPARE(results.currentTab()->title, QString("Module"));
        cluster::Params params;
        params.chargeCut = {cluster::ChargeCut::Kind::Phase1, 0};
        const cluster::Result cut = cluster::clusterReference(digis_, params);
        QCOMPARE(panel->presenter().result().id, cut.id);
        QVERIFY(cut.count() < uncut);
        // And back off again.
        finished.clear();
        panel->setChargeCut({});
        QVERIFY(finished.wait(120000));
        QCOMPARE(panel->presenter().result().count(), uncut);
    }

    // Run b wrongly merges clusters 0 and 1 of module 7, so module 7's cluster 2 is renumbered
    // 1 in b: only the digis of the two merged clusters differ, not the renumbered one.
    void partitionDifferenceFindsMergedDigis() {
        auto digis = std::make_shared<Digis>(handDigis({{7, 0, 0, 3000},
                                                        {7, 0, 1, 3000},
                                                        {7, 2, 3, 3000},
                                                        {7, 2, 4, 3000},
                                                        {7, 9, 9, 3000},
                                                        {3, 5, 5, 3000},
                                                        {3, 8, 8, 3000},
                                                        {3, 5, 5, 3000}}));
        cluster::Result a, b;
        a.id = {0, 0, 1, 1, 2, -1, 0, -1};
        b.id = {0, 0, 0, 0, 1, -1, 0, -1};
        QCOMPARE(cluster::clusterReference(*digis).id, a.id); // a is the right answer
        const PartitionDifference d = partitionDifference(*digis, a, b);
        QCOMPARE(d.digis, (std::vector<std::size_t>{0, 1, 2, 3}));
        QCOMPARE(d.perModule[7], 4.0);
        QCOMPARE(d.perModule[3], 0.0);
        QCOMPARE(d.modulesWithDifferences, std::size_t(1));
        QCOMPARE(partitionDifference(*digis, a, a).digis.size(), std::size_t(0));
        cluster::Result dropped = a; // a digi dropped in one run only differs too
        dropped.id[4] = -1;
        QCOMPARE(partitionDifference(*digis, a, dropped).digis, (std::vector<std::size_t>{4}));
        ClusterDifferenceView view(digis, a, "cpu", b, "cmssw");
        QCOMPARE(view.list()->rowCount(), 4);
        QCOMPARE(view.overview()->cellValue(7), 4.0);
        QVERIFY(view.caption()->text().contains("4 digis in 1 module"));
    }

    // The Compare dock's view of two runs of the file: the digis are read back from run a's
    // provenance; cpu against a charge-cut run differs in the digis the cut dropped.
    void compareDifferenceViewReadsTheRunsDigis() {
        const Algorithm& algorithm = clusterAlgorithm();
        InputSources sources;
        sources.file = file_.toStdString();
        ParamSet params = algorithm.defaultParams();
        const auto input = algorithm.read(sources, params);
        const auto plain = runAlgorithm(algorithm, {hostDevice(), "cpu", input, params, {}}, {});
        params.set("charge_cut", "phase1");
        const auto cut = runAlgorithm(algorithm, {hostDevice(), "cpu", input, params, {}}, {});
        std::unique_ptr<QWidget> widget(makeClusterDifferenceView(*plain, *cut));
        auto* view = dynamic_cast<ClusterDifferenceView*>(widget.get());
        QVERIFY(view);
        std::size_t dropped = 0; // digis clustered without the cut, dropped with it
        const auto& a = dynamic_cast<const cluster::ClusterResult&>(*plain).clusters;
        const auto& b = dynamic_cast<const cluster::ClusterResult&>(*cut).clusters;
        for (std::size_t i = 0; i < a.id.size(); ++i)
            dropped += a.id[i] >= 0 && b.id[i] < 0;
        QVERIFY(dropped > 0);
        QCOMPARE(view->difference().digis.size(), dropped);
    }

    void exportsReadBack() {
        MainWindow window;
        QVERIFY(window.openFile(file_));
        auto* panel = window.findChild<ClusterPanel*>();
        panel->setVariant("cpu");
        QVERIFY(runPanel(*panel));
        const cluster::Result& r = panel->presenter().result();
        const QString h5 = dir_.filePath("ids.h5"), table = dir_.filePath("table.csv"),
                      hist = dir_.filePath("hist.csv"), ids = dir_.filePath("ids.csv");
        QVERIFY(panel->exportTo(ClusterPanel::Export::Ids, h5));
        QVERIFY(panel->exportTo(ClusterPanel::Export::Table, table));
        QVERIFY(panel->exportTo(ClusterPanel::Export::Histograms, hist));
        QVERIFY(panel->exportTo(ClusterPanel::Export::Ids, ids));
        const H5Reader in(h5.toStdString());
        const Array id = in.read("/clusters/id");
        QCOMPARE(id.size(), r.id.size());
        for (std::size_t i = 0; i < r.id.size(); ++i)
            QCOMPARE(std::int32_t(id.valueAt(i)), r.id[i]);
        QCOMPARE(readDigis(in).module, digis_.module);
        QCOMPARE(in.read("/clusters/charge").size(), r.count());
        std::ifstream tableIn(table.toStdString());
        const std::string tableText((std::istreambuf_iterator<char>(tableIn)), {});
        const auto rows = lines(tableText);
        QCOMPARE(rows.size(), r.count() + 1);
        QCOMPARE(QString::fromStdString(rows[1]).split(',')[0].toInt(), r.module[0]);
        QCOMPARE(QString::fromStdString(rows[1]).split(',')[5].toDouble(), r.charge[0]);
        std::ifstream histIn(hist.toStdString());
        double sizes = 0;
        for (std::string line; std::getline(histIn, line);)
            if (line.rfind("cluster size,", 0) == 0)
                sizes += QString::fromStdString(line).split(',').back().toDouble();
        QCOMPARE(sizes, double(r.count()));
        QCOMPARE(QFileInfo(ids).exists(), true);
    }

    void demoBinaryWritesScreenshot() {
        const QString png = dir_.filePath("demo-cluster.png");
        QProcess process;
        process.start(guiBinary(), {"--demo", "cluster", "--screenshot", png});
        QVERIFY(process.waitForFinished(300000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY(!QImage(png).isNull());
    }

    void demoWhoseRunFailsExitsNonZero() {
        const QString png = dir_.filePath("demo-cluster-failed.png");
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("CLSCOPE_DEMO_VARIANT", "nosuch");
        process.setProcessEnvironment(env);
        process.start(guiBinary(), {"--demo", "cluster", "--screenshot", png});
        QVERIFY(process.waitForFinished(300000));
        QCOMPARE(process.exitCode(), 4);
    }

  private:
    static QString guiBinary() {
        return QFileInfo(qEnvironmentVariable("CLSCOPE_CLI")).absoluteDir().filePath("clscope");
    }
};

QTEST_MAIN(TestUiCluster)
#include "tst_ui_cluster.moc"
