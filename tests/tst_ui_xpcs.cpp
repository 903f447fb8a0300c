// XPCS panel: the presenter maps a known Result to plot series (τ axis without 0, error bars,
// legend with q), fits a synthetic g2 of known Γ and Γ vs q; a full run on an OpenCL device
// through the panel (offscreen) makes the xpcs tabs and a timings row, moves progress during
// the run, and its tabs go stale when a parameter changes; the exports write the library's g2,
// the labels used and the fits to HDF5 and the g2 table to CSV; `clscope --demo xpcs` and
// `--demo compare` screenshots, and a demo whose run fails exits non-zero.
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/xpcs/synthetic.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"
#include "ui/app/main_window.hpp"
#include "ui/compare/comparison_view.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/kit/demo_window.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/mask_presenter.hpp"
#include "ui/params/param_form.hpp"
#include "ui/results/run_command.hpp"
#include "ui/results/timings_panel.hpp"
#include "ui/xpcs/xpcs_fit_form.hpp"
#include "ui/xpcs/xpcs_fit_quality.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui/xpcs/xpcs_views.hpp"
#include "ui_test_helpers.hpp"

#include <QCheckBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QListWidget>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;

namespace {
// The first OpenCL device, or none (the run test is skipped then).
std::optional<std::size_t> openclIndex(const DevicePicker& picker) {
    const auto& devices = const_cast<DevicePicker&>(picker).presenter().devices();
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (!devices[i].isHost()) return i;
    return std::nullopt;
}

} // namespace

class TestUiXpcs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString file_;

    // The first OpenCL device chosen in `window`'s Device panel; false without one.
    static bool chooseOpenCl(MainWindow& window) {
        auto* picker = window.findChild<DevicePicker*>();
        const auto ocl = openclIndex(*picker);
        if (ocl) picker->selectDevice(*ocl);
        return ocl.has_value();
    }

  private slots:
    void initTestCase() {
        test::useTemporarySettings(dir_);
        file_ = QString::fromStdString(test::writeSmallXpcs(dir_, 40, 20, 24));
    }

    void commandLineReproducesARun() {
        XpcsRunRequest r;
        r.file = std::make_shared<const H5Reader>(file_.toStdString());
        r.framesPath = "/entry/data/data";
        r.labelsOrigin = file_.toStdString() + ":/entry/processing/qmask";
        r.labels = std::make_shared<const LabelMask>(readLabels(*r.file));
        r.firstFrame = 5, r.frameCount = 20, r.frameTime = 0.002;
        r.variant = "cpu", r.device = hostDevice();
        QStringList args;
        for (const std::string& arg : commandArgs(r.command()))
            args << QString::fromStdString(arg);
        QVERIFY2(args.join(' ').contains("--frames 5:20"), qPrintable(args.join(' ')));
        const QString out = dir_.filePath("cli-xpcs.h5");
        args.back() = out; // -o OUT.h5
        args.removeFirst();
        QProcess cli;
        cli.start(qEnvironmentVariable("CLSCOPE_CLI"), args);
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const auto ran = runAlgorithm(AlgorithmRegistry::instance().find("xpcs"),
                                      {r.device, "cpu", loadInput(r), r.params(), {}});
        const xpcs::Result back = xpcs::readResult(H5Reader(out.toStdString()));
        QCOMPARE(back.g2, dynamic_cast<const xpcs::XpcsResult&>(*ran).result.g2);
        QCOMPARE(back.frames, std::size_t(20));
        r.labelsOrigin = "mask editor";
        QVERIFY(reproducingCommand(r.command()).startsWith("#"));
        // Labels drawn in the mask editor are read from memory by the same Algorithm::read: the
        // labels on screen, not the file's, and not the file's q table.
        LabelMask drawn{20, 24, std::vector<std::int32_t>(20 * 24, 0)};
        for (std::size_t i = 0; i < drawn.labels.size(); ++i)
            drawn.labels[i] = (i % 24) < 12 ? 7 : 9;
        r.labels = std::make_shared<const LabelMask>(drawn);
        const auto held = std::dynamic_pointer_cast<const xpcs::XpcsInput>(loadInput(r));
        QVERIFY(held);
        QCOMPARE(held->labels.labels, drawn.labels);
        QVERIFY(held->qByLabel.empty());
        QCOMPARE(held->provenance["datasets"]["labels"].get<std::string>(),
                 std::string("in memory"));
        QCOMPARE(held->frames->frameCount(), std::size_t(20));
    }

    // Issue 38 item 7: the Compare grid kept what the XPCS panel's old mode allowed (dense
    // variants checkable with multi-tau set, and a Run then ran the reference alone); it takes
    // the panel's parameters when they change.
    void compareGridFollowsThePanelsMode() {
        MainWindow window;
        QVERIFY(window.openFile(file_));
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.dock("ComparePanel")->raise();
        auto* compare = window.findChild<ComparisonView*>();
        compare->setAlgorithm("xpcs");
        QTRY_VERIFY(compare->isVisible());
        ComparisonPresenter& p = *compare->presenter();
        const auto& variants = p.variants();
        const auto gemm = std::find_if(variants.begin(), variants.end(),
                                       [](const VariantEntry& v) { return v.info.id == "gemm"; });
        QVERIFY(gemm != variants.end());
        const int row = int(gemm - variants.begin());
        int column = -1;
        for (std::size_t d = 0; d < p.devices().size() && column < 0; ++d)
            if (p.support(std::size_t(row), d).ok) column = int(d);
        if (column < 0) QSKIP("no device runs gemm here");
        const auto checkable = [&] {
            return bool(compare->grid()->item(row, column)->flags() & Qt::ItemIsUserCheckable);
        };
        QTRY_VERIFY(checkable());
        auto* panel = window.findChild<XpcsPanel*>();
        panel->form()->setValue("multitau", true);
        QTRY_VERIFY(!checkable());
        QVERIFY(compare->grid()->item(row, column)->toolTip().contains("multi"));
        panel->form()->setValue("multitau", false);
        QTRY_VERIFY(checkable());
    }

    // The panel's variant chooser follows the mode too: with multi-tau ticked the dense variants
    // are greyed and a dense choice gives way to one that runs (a Run with gemm and multi-tau
    // failed "dense only"); unticked, the remembered dense choice comes back.
    void variantFollowsThePanelsMode() {
        MainWindow window;
        if (!chooseOpenCl(window)) QSKIP("no OpenCL device");
        QVERIFY(window.openFile(file_));
        auto* panel = window.findChild<XpcsPanel*>();
        panel->setVariant("gemm");
        panel->form()->setValue("multitau", true);
        QCOMPARE(panel->variant(), std::string("multitau"));
        panel->form()->setValue("multitau", false);
        QCOMPARE(panel->variant(), std::string("gemm"));
    }

    void panelRunsAndExports() {
        MainWindow window;
        if (!chooseOpenCl(window)) QSKIP("no OpenCL device");
        QVERIFY(window.openFile(file_));
        auto* panel = window.findChild<XpcsPanel*>();
        QVERIFY(window.dock("AlgorithmPanel_xpcs"));
        panel->setVariant("gemm");
        QCOMPARE(panel->variant(), std::string("gemm"));
        panel->setTwoTimeLabel(2);
        panel->setFrameTimeOverride(0.002);
        QSignalSpy finished(panel, &XpcsPanel::runFinished);
        QSignalSpy progressed(&window.workbench().jobs(), &JobRunner::progressed);
        QVERIFY(panel->run());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.front().front().toBool(), true);
        ResultsPanel& results = window.workbench().results();
        QStringList titles;
        for (const ResultTab& tab : results.tabs())
            titles << tab.title;
        for (const char* title : {"g2(τ)", "Fits", "τ(q)", "Two-time"})
            QVERIFY2(titles.contains(title), title);
        for (const ResultTab& tab : results.tabs())
            QCOMPARE(tab.algorithm, QString("xpcs"));
        int between = 0; // progress reported strictly inside the run
        for (const auto& args : progressed)
            between += args.front().toDouble() > 0 && args.front().toDouble() < 1;
        QVERIFY(between >= 2);
        QCOMPARE(results.currentTab()->title, QString("g2(τ)"));
        QTRY_VERIFY(window.workbench().timings().tableWidget()->rowCount() > 0);
        // The panel's result is the library's, and gemm equals cpu exactly (integer sums).
        const XpcsPresenter& p = panel->presenter();
        QCOMPARE(p.runs().size(), std::size_t(1));
        QCOMPARE(p.reference().variant, std::string("gemm"));
        QCOMPARE(p.reference().tau[1], 0.002);
        const H5Reader in(file_.toStdString());
        xpcs::Params params;
        params.frameTime = 0.002;
        const xpcs::Result expected = xpcs::correlateCpu(readFrames(in), readLabels(in), params);
        QCOMPARE(p.reference().g2.size(), expected.g2.size());
        QVERIFY(maxAbsDifference(p.reference().g2, expected.g2) == 0.0);
        QVERIFY(p.reference().twotime.count(2));
        checkG2Plot(*panel->g2View(), p);
        checkExports(results, expected);
        // A changed parameter makes the results stale: visible, and not exportable.
        panel->setFrameRange(1, 0);
        QVERIFY(results.hasStale());
        QVERIFY(results.tabWidget()->tabText(0).endsWith("(stale)"));
        QVERIFY_THROWS_EXCEPTION(UsageError, results.exportHdf5(dir_.filePath("stale.h5")));
    }

    // Issue 38: opening file B after file A leaves no value derived from A — frame range,
    // typed frame time, the fit's τ range, the geometry (shown "from file" before) — and
    // without geometry the q/d readout says so instead of a hidden 1 m / 1 Å default.
    void newFileDropsThePreviousFilesValues() {
        QTemporaryDir dir;
        synthetic::XpcsParams p;
        p.frames = 40, p.height = 20, p.width = 24, p.ringWidth = 4, p.frameTime = 0.002;
        synthetic::XpcsDataset a = synthetic::generateXpcs(p);
        mask::Geometry g;
        g.beamCenterX = 12, g.beamCenterY = 10, g.distance = 2;
        a.geometry = g;
        p.frames = 12;
        synthetic::XpcsDataset b = synthetic::generateXpcs(p);
        b.geometry.reset(), b.frameTime.reset(), b.centers.reset();
        const QString fileA = dir.filePath("a.h5"), fileB = dir.filePath("b.h5");
        for (const auto& [name, d] : {std::pair{fileA, &a}, std::pair{fileB, &b}}) {
            H5Writer out(name.toStdString());
            synthetic::writeXpcs(out, *d, Compression::None);
            out.commit();
        }
        MainWindow window;
        QVERIFY(window.openFile(fileA));
        auto* panel = window.findChild<XpcsPanel*>();
        auto* editor = window.findChild<MaskEditorPresenter*>();
        QVERIFY(panel && editor);
        QCOMPARE(editor->geometrySource(), QString("file"));
        QVERIFY(editor->pixelReadout(3, 3).startsWith("q "));
        panel->setFrameRange(30, 8);
        panel->setFrameTimeOverride(0.5);
        xpcs::FitOptions fit = panel->fitForm()->options();
        fit.tauMin = 0.004, fit.tauMax = 0.03;
        panel->fitForm()->setOptions(fit);
        XpcsRunRequest r = panel->request();
        QCOMPARE(r.firstFrame, std::size_t(30));
        QVERIFY(window.openFile(fileB));
        r = panel->request();
        QCOMPARE(r.firstFrame, std::size_t(0));
        QCOMPARE(r.frameCount, std::size_t(0));
        QVERIFY(!r.frameTime);                // neither A's typed one nor A's file's
        QVERIFY(!readPhysical(r)->frameTime); // B has none: τ in frames
        QCOMPARE(panel->fitForm()->options().tauMin, xpcs::FitOptions().tauMin);
        QVERIFY(std::isnan(panel->fitForm()->options().tauMax));
        checkRequest(r); // A's range would be beyond B's 12 frames
        QCOMPARE(editor->geometrySource(), QString("default"));
        QVERIFY2(editor->pixelReadout(3, 3).contains("no geometry"),
                 qPrintable(editor->pixelReadout(3, 3)));
        QVERIFY(!window.workbench().geometry().has_value());
    }

    void demoBinaryWritesScreenshot_data() {
        QTest::addColumn<QString>("demo");
        QTest::addColumn<QString>("options"); // CLSCOPE_DEMO_OPTIONS
        QTest::newRow("xpcs") << "xpcs"
                              << "";
        // Every variant on 100 of the compare demo's 500 frames (its pair-based variants are
        // O(T^2) on these dense frames: 100 s of the suite on 2 cores at 500).
        QTest::newRow("compare") << "compare"
                                 << R"({"frames":100})";
    }

    void demoBinaryWritesScreenshot() {
        QFETCH(QString, demo);
        QFETCH(QString, options);
        const QString png = dir_.filePath("demo-" + demo + ".png");
        QProcess process;
        startDemo(process, demo, png, options.isEmpty() ? "" : "CLSCOPE_DEMO_OPTIONS", options);
        QVERIFY(process.waitForFinished(300000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY(!QImage(png).isNull());
        if (!options.isEmpty()) { // the demo's data set has the frames asked for
            const H5Reader data(demoPath("clscope-demo-xpcs.h5").toStdString());
            QCOMPARE(data.info("/entry/data/data").shape.front(), std::size_t(100));
        }
    }

    // Options the demo's generator does not have, or text that is not JSON: exit 2 with the
    // reason, no window run, nothing generated.
    void demoOptionsRefused_data() {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown") << R"({"nosuch":1})"
                                 << "unknown parameter 'nosuch'";
        QTest::newRow("not JSON") << R"({"frames":)"
                                  << "not valid JSON";
        QTest::newRow("out of range") << R"({"frames":0})"
                                      << "frames";
    }

    void demoOptionsRefused() {
        QFETCH(QString, options);
        QFETCH(QString, reason);
        QProcess process;
        startDemo(process, "compare", dir_.filePath("no.png"), "CLSCOPE_DEMO_OPTIONS", options);
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 2);
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(err.contains("CLSCOPE_DEMO_OPTIONS") && err.contains(reason.toUtf8()),
                 err.constData());
        QVERIFY(!QFileInfo::exists(dir_.filePath("no.png")));
    }

    // The screenshot is still written, but the exit code says the run failed.
    void demoWhoseRunFailsExitsNonZero() {
        const QString png = dir_.filePath("demo-failed.png");
        QProcess process;
        startDemo(process, "xpcs", png, "CLSCOPE_DEMO_VARIANT", "nosuch");
        QVERIFY(process.waitForFinished(300000));
        QCOMPARE(process.exitCode(), 4);
        QVERIFY(process.readAllStandardError().contains("the demo's run failed"));
    }

  private:
    static QString guiBinary() {
        return QFileInfo(qEnvironmentVariable("CLSCOPE_CLI")).absoluteDir().filePath("clscope");
    }

    // `clscope --demo DEMO --screenshot PNG` started, with NAME=VALUE in its environment (none
    // when NAME is empty).
    static void startDemo(QProcess& process, const QString& demo, const QString& png,
                          const QString& name, const QString& value) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!name.isEmpty()) env.insert(name, value);
        process.setProcessEnvironment(env);
        process.start(guiBinary(), {"--demo", demo, "--screenshot", png});
    }

    void checkG2Plot(XpcsG2View& view, const XpcsPresenter& p) {
        QCustomPlot* plot = view.plot();
        QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(plot->xAxis->label().contains("(s)"));
        const auto selected = view.selectedBins();
        QCOMPARE(selected, p.defaultSelection());
        auto* first = plot->graph(0);
        QCOMPARE(first->name(), QString::fromStdString(p.legendText(selected.front())));
        QVERIFY(first->data()->size() > 0);
        QVERIFY(first->data()->begin()->key > 0); // τ = 0 left out of the log axis
        bool hasErrorBars = false;
        for (int i = 0; i < plot->plottableCount(); ++i)
            hasErrorBars = hasErrorBars || qobject_cast<QCPErrorBars*>(plot->plottable(i));
        QVERIFY(hasErrorBars);
        QVERIFY(view.logBinBox()->isChecked());
        const int binnedPoints = first->data()->size();
        view.logBinBox()->setChecked(false);
        QVERIFY(plot->graph(0)->data()->size() > binnedPoints); // every lag
        view.setSelectedBins({0});
        QVERIFY(plot->graph(0)->name().startsWith("label 1"));
    }

    void checkExports(ResultsPanel& results, const xpcs::Result& expected) {
        const QString h5 = dir_.filePath("xpcs-out.h5");
        results.exportHdf5(h5);
        const H5Reader out(h5.toStdString());
        const xpcs::Result back = xpcs::readResult(out);
        QCOMPARE(back.g2, expected.g2);
        QCOMPARE(back.labels, expected.labels);
        QCOMPARE(back.tau, expected.tau);
        QCOMPARE(out.stringAttribute("/xpcs", "variant").value_or(""), std::string("gemm"));
        const std::string parameters = out.stringAttribute("/xpcs", "parameters").value_or("");
        for (const char* key : {"frame_time", "twotime", "labels", "frames"})
            QVERIFY2(parameters.find(key) != std::string::npos, key);
        QCOMPARE(out.read("/xpcs/input/labels_used").shape(), (Shape{20, 24}));
        QCOMPARE(out.read("/xpcs/fits/table").shape()[1], std::size_t(20));
        const QString csvPath = dir_.filePath("g2.csv");
        results.exportCsv(csvPath);
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = csv.readAll().split('\n');
        QVERIFY(lines.front().startsWith("# clscope_version: ")); // the provenance header
        while (lines.front().startsWith('#'))
            lines.removeFirst();
        QVERIFY(lines.front().startsWith("tau_s,g2_L1,g2_err_L1,g2_L2,g2_err_L2"));
        QCOMPARE(lines.size(), int(expected.frames) + 2); // header, rows, final newline
        QCOMPARE(lines[1].split(',')[1].toDouble(), expected.g2At(0, 0));
    }
};

QTEST_MAIN(TestUiXpcs)
#include "tst_ui_xpcs.moc"
