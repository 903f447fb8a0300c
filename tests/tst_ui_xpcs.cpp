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
#include "gpu/devices.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/results/run_command.hpp"
#include "ui/results/timings_panel.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/workbench.hpp"
#include "ui/xpcs/xpcs_fit_form.hpp"
#include "ui/xpcs/xpcs_fit_quality.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui/xpcs/xpcs_views.hpp"
#include "ui_test_helpers.hpp"

#include <QCheckBox>
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

// Two bins, four lags of 1 ms; bin 2's error at lag 2 is NaN.
xpcs::Result knownResult() {
    xpcs::Result r;
    r.labels = {1, 2};
    r.pixels = {10, 20};
    r.frames = 4;
    r.tau = {0.0, 0.001, 0.002, 0.003};
    r.tauInSeconds = true;
    r.g2 = {1.5, 1.3, 1.2, 1.1, 1.6, 1.4, 1.25, 1.05};
    r.g2Err = {0.1, 0.01, 0.02, 0.03, 0.1, 0.04, NAN, 0.06};
    r.variant = "cpu";
    r.device = "cpu";
    return r;
}

// g2 = 1 + 0.3 exp(-2 rate tau) on 200 lags of 1 ms, error 1e-3.
xpcs::Result exponentialResult(const std::vector<double>& rates) {
    xpcs::Result r;
    r.frames = 200;
    r.tauInSeconds = true;
    for (std::size_t t = 0; t < r.frames; ++t)
        r.tau.push_back(0.001 * double(t));
    for (std::size_t b = 0; b < rates.size(); ++b) {
        r.labels.push_back(std::int32_t(b + 1));
        r.pixels.push_back(100);
        for (double tau : r.tau) {
            r.g2.push_back(1.0 + 0.3 * std::exp(-2.0 * rates[b] * tau));
            r.g2Err.push_back(1e-3);
        }
    }
    return r;
}

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

  private slots:
    void initTestCase() {
        test::useTemporarySettings(dir_);
        file_ = QString::fromStdString(test::writeSmallXpcs(dir_, 40, 20, 24));
    }

    void presenterSeriesSkipTauZeroAndCarryErrors() {
        XpcsPresenter p;
        p.setRuns({{knownResult(), "cpu host"}});
        p.setBinQ(std::vector<double>{0.0123, 0.0456});
        const XpcsSeries s = p.series(1);
        QCOMPARE(s.label, 2);
        QCOMPARE(s.tau, (std::vector<double>{0.001, 0.002, 0.003}));
        QCOMPARE(s.g2, (std::vector<double>{1.4, 1.25, 1.05}));
        QCOMPARE(s.err, (std::vector<double>{0.04, 0.0, 0.06})); // NaN error: no bar
        QCOMPARE(QString::fromStdString(s.legend), QString("label 2, q = 0.0456 nm⁻¹"));
        QCOMPARE(p.tauUnit(), std::string("s"));
        p.setBinQ(std::nullopt);
        QCOMPARE(p.legendText(0), std::string("label 1"));
        QVERIFY(!p.rateVsQ().note.empty()); // no q: an explanation instead of a plot
    }

    void logBinningAveragesPerDecadeSlot() {
        XpcsSeries s;
        s.tau = {1.0, 2.0, 5.0, 10.0};
        s.g2 = {1.0, 2.0, 4.0, 7.0};
        s.err = {1.0, 1.0, 0.5, 0.1};
        const XpcsSeries binned = logBinned(s, 1); // slots [1,10) and [10,100)
        QCOMPARE(binned.tau.size(), std::size_t(2));
        QVERIFY(std::abs(binned.g2[0] - (1.0 + 2.0 + 4.0 * 4.0) / 6.0) < 1e-12); // weights 1, 1, 4
        QVERIFY(std::abs(binned.err[0] - 1.0 / std::sqrt(6.0)) < 1e-12);
        QCOMPARE(binned.g2[1], 7.0);
        QCOMPARE(binned.err[1], 0.1);
    }

    void defaultSelectionSpreadsOverBins() {
        XpcsPresenter p;
        p.setRuns({{exponentialResult(std::vector<double>(15, 10.0)), "cpu"}});
        QCOMPARE(p.defaultSelection(), (std::vector<std::size_t>{0, 4, 7, 11, 14}));
        p.setRuns({{knownResult(), "cpu"}});
        QCOMPARE(p.defaultSelection(), (std::vector<std::size_t>{0, 1}));
    }

    void fitsRecoverKnownRatesAndPowerLaw() {
        if (!xpcs::fitAvailable()) QSKIP("built without GSL");
        const std::vector<double> q{0.01, 0.02, 0.03, 0.04};
        std::vector<double> rates;
        for (double value : q)
            rates.push_back(2e5 * value * value); // Γ = D q², 20 .. 320 /s
        XpcsPresenter p;
        p.setRuns({{exponentialResult(rates), "cpu"}});
        p.setBinQ(q);
        QCOMPARE(p.fits().size(), std::size_t(4));
        for (std::size_t b = 0; b < 4; ++b) {
            const XpcsBinFit& f = p.fits()[b];
            QVERIFY2(f.ok(), f.fit.message.c_str());
            QVERIFY(std::abs(f.fit.values[2] / rates[b] - 1.0) < 1e-4);
            QVERIFY(std::abs(f.fit.values[1] - 0.3) < 1e-4);
            QVERIFY(std::abs(f.fit.values[0] - 1.0) < 1e-4);
            QCOMPARE(f.fit.values[3], 1.0); // single exponential: α fixed
        }
        const XpcsSeries s = p.series(0);
        QCOMPARE(s.fitTau.size(), std::size_t(200));
        QVERIFY(std::abs(s.fitG2.front() - (1.0 + 0.3 * std::exp(-2.0 * rates[0] * 0.001))) < 1e-5);
        const XpcsRatePoints points = p.rateVsQ();
        QVERIFY(points.note.empty());
        QVERIFY(points.powerLaw && points.powerLaw->converged);
        QVERIFY2(std::abs(points.powerLaw->values[1] - 2.0) < 1e-3,
                 (std::to_string(points.powerLaw->values[0]) + " " +
                  std::to_string(points.powerLaw->values[1]) + " " + points.powerLaw->message)
                     .c_str());
        const std::string csv = p.fitsCsv();
        QVERIFY(csv.rfind("label,q_nm-1,baseline", 0) == 0);
        QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 5);
    }

    // Values with the digits their errors justify; fits flagged when a parameter sits at a
    // bound or its error exceeds it; a converged clean fit is not flagged.
    void fitQualityFlagsAndDigits() {
        QCOMPARE(valueWithError(1.0004, 4.1e-5), std::string("1.000400 ± 0.000041"));
        QCOMPARE(valueWithError(1.234e6, 5.6e4), std::string("(1.234 ± 0.056)e6"));
        QCOMPARE(valueWithError(0.01, 0.5), std::string("0.01 ± 0.50"));
        QCOMPARE(valueWithError(2.5, 0.0), std::string("2.5 ± —"));
        xpcs::FitResult fit;
        fit.converged = true;
        fit.values = {1.0, 0.0, 50.0, 1.0};
        fit.errors = {1e-3, 0.0, 80.0, 0.0};
        const std::vector<xpcs::FitParameter> params{
            {1.0}, {0.2, false, 0.0, 2.0}, {10.0, false, 0.0}, {1.0, true}};
        const std::vector<std::string> names{"baseline", "β", "Γ", "α"};
        QCOMPARE(fitConcerns(fit, params, names),
                 std::string("β at its bound; Γ error larger than its value"));
        fit.values[1] = 0.3, fit.errors = {1e-3, 0.01, 2.0, 0.0};
        QCOMPARE(fitConcerns(fit, params, names), std::string());
        fit.converged = false, fit.message = "iteration limit";
        QCOMPARE(fitConcerns(fit, params, names), std::string("not converged: iteration limit"));
    }

    // Defect 5 of issue 23: a fit with χ²_red ≈ 25 is not "ok" in the Fits tab; the grades
    // follow the thresholds the tab shows (ok ≤ 2, poor ≤ 10, bad above, at bound).
    void largeChiSquaredIsNotMarkedOk() {
        if (!xpcs::fitAvailable()) QSKIP("built without GSL");
        xpcs::Result r = exponentialResult({20.0});
        for (std::size_t t = 0; t < r.frames; ++t)
            r.g2[t] += t % 2 ? 5e-3 : -5e-3; // ±5 σ about the curve
        auto p = std::make_shared<XpcsPresenter>();
        p->setRuns({{r, "cpu"}});
        const XpcsBinFit& f = p->fits()[0];
        QVERIFY(f.ok());
        QVERIFY2(f.fit.chiSquaredReduced > 10,
                 qPrintable(QString::number(f.fit.chiSquaredReduced)));
        XpcsFitsView view(p);
        const QString status = view.table()->item(0, 7)->text();
        QVERIFY2(status.startsWith("⚠ bad (χ²_red"), qPrintable(status));
        QVERIFY(view.table()->horizontalHeaderItem(7)->toolTip().contains("ok: χ²_red ≤ 2"));
        xpcs::FitResult fit;
        fit.converged = true, fit.values = {1.0, 0.3, 50.0, 1.0};
        const std::vector<xpcs::FitParameter> params{
            {1.0}, {0.2, false, 0.0, 2.0}, {10.0, false, 0.0}, {1.0, true}};
        const std::pair<double, FitGrade> cases[] = {{1.5, FitGrade::Ok},
                                                     {5.0, FitGrade::Poor},
                                                     {28.5, FitGrade::Bad},
                                                     {NAN, FitGrade::Bad}};
        for (const auto& [chi2, grade] : cases) {
            fit.chiSquaredReduced = chi2;
            QCOMPARE(fitGrade(fit, params), grade);
        }
        fit.values[1] = 2.0; // β at its upper bound
        QCOMPARE(fitGrade(fit, params), FitGrade::AtBound);
    }

    // The τ range of the options decides which lags are fitted.
    void tauRangeLimitsFittedLags() {
        if (!xpcs::fitAvailable()) QSKIP("built without GSL");
        XpcsPresenter p;
        p.setRuns({{exponentialResult({20.0}), "cpu"}});
        QCOMPARE(p.fits()[0].fit.points, std::size_t(66)); // auto: lags up to 199 / 3 = 66 ms
        XpcsFitOptions all;
        all.tauMax = INFINITY;
        p.setFitOptions(all);
        QCOMPARE(p.fits()[0].fit.points, std::size_t(199));
        XpcsFitOptions o;
        o.tauMin = 0.0105, o.tauMax = 0.05; // lags 11..50 ms
        p.setFitOptions(o);
        QCOMPARE(p.fits()[0].fit.points, std::size_t(40));
        QVERIFY(p.fits()[0].trusted());
    }

    // The demo's brownian data through the cpu reference and the presenter's default fits:
    // Γ = D·q² gives the D the data were made with within 5 %, and its fits are trusted.
    void brownianDataGivesItsDiffusion() {
        if (!xpcs::fitAvailable()) QSKIP("built without GSL");
        synthetic::XpcsParams sp; // the default model: brownian, D = 1e6 Å²/s, 1 ms frames
        sp.frames = 300, sp.height = 96, sp.width = 96, sp.ringWidth = 6, sp.intensity = 50;
        sp.dtype = DType::UInt16;
        const synthetic::XpcsDataset d = synthetic::generateXpcs(sp);
        QVERIFY(d.diffusion && d.centers);
        auto input = xpcs::makeInput(d.frames, d.labels);
        input->frameTime = d.frameTime;
        const Algorithm& xpcs = AlgorithmRegistry::instance().find("xpcs");
        const auto run = runAlgorithm(xpcs, {hostDevice(), "cpu", input, xpcs.defaultParams(), {}});
        const xpcs::Result& r = dynamic_cast<const xpcs::RunResult&>(*run).result;
        std::vector<double> q;
        for (std::int32_t label : r.labels)
            for (std::size_t i = 0; i < d.centers->labelIds.size(); ++i)
                if (d.centers->labelIds[i] == label) q.push_back(d.centers->q[i]);
        XpcsPresenter p;
        p.setRuns({{r, "cpu"}});
        p.setBinQ(q);
        p.setTrueDiffusion(d.diffusion);
        const XpcsRatePoints points = p.rateVsQ();
        QVERIFY2(points.diffusion.has_value(), points.fitNote.c_str());
        const double dAngstrom = points.diffusion->values[0] * 100; // nm²/s → Å²/s
        QVERIFY2(std::abs(dAngstrom / 1e6 - 1.0) < 0.05, qPrintable(QString::number(dAngstrom)));
        QVERIFY(points.powerLaw);
        QVERIFY2(std::abs(points.powerLaw->values[1] - 2.0) < 0.1,
                 qPrintable(QString::number(points.powerLaw->values[1])));
    }

    void csvTable() {
        XpcsPresenter p;
        p.setRuns({{knownResult(), "cpu"}});
        const std::string csv = p.csv();
        QVERIFY2(csv.rfind("tau_s,g2_L1,g2_err_L1,g2_L2,g2_err_L2\n0,1.5,0.1,1.6,0.1\n0.001,1.3,0."
                           "01,1.4,0.04\n0.002,1.2,0.02,1.25,nan\n",
                           0) == 0,
                 csv.c_str());
        QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 5);
    }

    // A full run through the panel: gemm on the first OpenCL device, a two-time map.
    // A run's command line names its frame range and labels file; run, it gives the g2 that
    // runAlgorithm gives on the panel's input. Labels drawn in memory give no command line.
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
        QCOMPARE(back.g2, dynamic_cast<const xpcs::RunResult&>(*ran).result.g2);
        QCOMPARE(back.frames, std::size_t(20));
        r.labelsOrigin = "mask editor";
        QVERIFY(reproducingCommand(r.command()).startsWith("#"));
    }

    void panelRunsAndExports() {
        MainWindow window;
        auto* picker = window.findChild<DevicePicker*>();
        const auto ocl = openclIndex(*picker);
        if (!ocl) QSKIP("no OpenCL device");
        picker->selectDevice(*ocl);
        QVERIFY(window.openFile(file_));
        auto* panel = window.findChild<XpcsPanel*>();
        QVERIFY(panel);
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
        for (const char* title : {"g2(τ)", "Fits", "Γ vs q²", "Two-time"})
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

    void demoBinaryWritesScreenshot_data() {
        QTest::addColumn<QString>("demo");
        QTest::newRow("xpcs") << "xpcs";
        QTest::newRow("compare") << "compare";
    }

    void demoBinaryWritesScreenshot() {
        QFETCH(QString, demo);
        const QString png = dir_.filePath("demo-" + demo + ".png");
        QProcess process;
        process.start(guiBinary(), {"--demo", demo, "--screenshot", png});
        QVERIFY(process.waitForFinished(300000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY(!QImage(png).isNull());
    }

    // The screenshot is still written, but the exit code says the run failed.
    void demoWhoseRunFailsExitsNonZero() {
        const QString png = dir_.filePath("demo-failed.png");
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("CLSCOPE_DEMO_VARIANT", "nosuch");
        process.setProcessEnvironment(env);
        process.start(guiBinary(), {"--demo", "xpcs", "--screenshot", png});
        QVERIFY(process.waitForFinished(300000));
        QCOMPARE(process.exitCode(), 4);
        QVERIFY(process.readAllStandardError().contains("the demo's run failed"));
    }

  private:
    static QString guiBinary() {
        return QFileInfo(qEnvironmentVariable("CLSCOPE_CLI")).absoluteDir().filePath("clscope");
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
        for (const char* key : {"first_frame", "frame_time", "twotime", "labels", "frames"})
            QVERIFY2(parameters.find(key) != std::string::npos, key);
        QCOMPARE(out.read("/xpcs/input/labels_used").shape(), (Shape{20, 24}));
        QCOMPARE(out.read("/xpcs/fits/table").shape()[1], std::size_t(12));
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
