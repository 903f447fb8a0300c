// The XPCS results presenter and g2 view without a window: series, log-binning, fits and their
// quality, Γ(q) and D, the CSV table, multi-tau level marks (split from tst_ui_xpcs).
#include "core/xpcs/synthetic.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "ui/xpcs/xpcs_fit_form.hpp"
#include "ui/xpcs/xpcs_fit_quality.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"
#include "ui/xpcs/xpcs_presenter.hpp"
#include "ui/xpcs/xpcs_views.hpp"
#include "ui_test_helpers.hpp"

#include <QCheckBox>
#include <QListWidget>
#include <QScrollBar>
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

// A multi-tau result of one bin: C = 4, levels 0 (lags 0-3), 1 (lags 4, 6), 2 (lags 8, 12).
xpcs::Result multitauResult() {
    xpcs::Result r;
    r.labels = {1};
    r.pixels = {10};
    r.multitau = true;
    r.lagFrames = {0, 1, 2, 3, 4, 6, 8, 12};
    r.levels = {0, 0, 0, 0, 1, 1, 2, 2};
    r.frames = r.lagFrames.size();
    r.tauInSeconds = true;
    for (std::int64_t lag : r.lagFrames) {
        r.tau.push_back(0.001 * double(lag));
        r.g2.push_back(1.0 + 0.3 * std::exp(-0.1 * double(lag)));
        r.g2Err.push_back(1e-3);
    }
    return r;
}

} // namespace

class TestUiXpcsPresenter : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void initTestCase() { test::useTemporarySettings(dir_); }

    void presenterSeriesSkipTauZeroAndCarryErrors() {
        XpcsPresenter p;
        p.setRuns({{knownResult(), "cpu host"}});
        p.setBinQ(std::vector<double>{0.0123, 0.0456});
        const XpcsSeries s = p.series(1);
        QCOMPARE(s.label, 2);
        QCOMPARE(s.tau, (std::vector<double>{0.001, 0.002, 0.003}));
        QCOMPARE(s.g2, (std::vector<double>{1.4, 1.25, 1.05}));
        QCOMPARE(s.err, (std::vector<double>{0.04, 0.0, 0.06})); // NaN error: no bar
        QCOMPARE(QString::fromStdString(s.legend), QString("label 2, q = 0.0456 Å⁻¹"));
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
        QVERIFY(csv.rfind("label,q_1/angstrom,baseline", 0) == 0);
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
        const QString status = view.table()->item(0, view.table()->columnCount() - 1)->text();
        QVERIFY2(status.startsWith("⚠ bad (χ²_red"), qPrintable(status));
        QVERIFY(view.table()
                    ->horizontalHeaderItem(view.table()->columnCount() - 1)
                    ->toolTip()
                    .contains("ok: χ²_red ≤ 2"));
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
        xpcs::FitOptions all;
        all.tauMax = INFINITY;
        p.setFitOptions(all);
        QCOMPARE(p.fits()[0].fit.points, std::size_t(199));
        xpcs::FitOptions o;
        o.tauMin = 0.0105, o.tauMax = 0.05; // lags 11..50 ms
        p.setFitOptions(o);
        QCOMPARE(p.fits()[0].fit.points, std::size_t(40));
        // Noise-free data: χ²_red ≈ 0, graded "χ²_red too small", Γ still usable vs q.
        QCOMPARE(p.fits()[0].grade, FitGrade::Overfit);
        QVERIFY(p.fits()[0].usable() && p.fits()[0].concerns.empty());
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
        const xpcs::Result& r = dynamic_cast<const xpcs::XpcsResult&>(*run).result;
        std::vector<double> q;
        for (std::int32_t label : r.labels)
            for (std::size_t i = 0; i < d.centers->labelIds.size(); ++i)
                if (d.centers->labelIds[i] == label)
                    q.push_back(d.centers->q[i] / 10); // nm⁻¹ → 1/Å
        XpcsPresenter p;
        p.setRuns({{r, "cpu"}});
        p.setBinQ(q);
        p.setTrueDiffusion(d.diffusion);
        const XpcsRatePoints points = p.rateVsQ();
        QVERIFY2(points.diffusion.has_value(), points.fitNote.c_str());
        const double dAngstrom = points.diffusion->values[0]; // q in 1/Å: Å²/s
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

    // The run's title (variant, device name, frames) ran past both edges of a narrow plot (the
    // dock at 1280x800): it is cut in the middle to the plot's width, kept whole where it fits.
    void g2TitleFitsThePlot() {
        auto p = std::make_shared<XpcsPresenter>();
        p->setRuns({{exponentialResult({5.0, 10.0}), "cpu"}});
        const QString title = "multitau on ocl:0 pthread-skylake-avx512-AMD EPYC 7B13 64-Core "
                              "Processor, frames 0–4095";
        XpcsG2View view(p, title);
        view.resize(360, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCustomPlot& plot = *view.plot();
        plot.replot();
        auto* shown = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
        QVERIFY(shown);
        QCOMPARE(view.title(), title);
        QVERIFY2(shown->text() != title && shown->text().contains(QChar(0x2026)),
                 qPrintable(shown->text()));
        QVERIFY(QFontMetrics(shown->font()).horizontalAdvance(shown->text()) <= plot.width());
        view.resize(1400, 400);
        QTRY_COMPARE(shown->text(), title);
    }

    // Issue 38 item 7: the g2 legend (five bins and the fits' key) was drawn inside the axes,
    // over the curves; it sits in a row under them, its entries uncut.
    void g2LegendOutsideTheData() {
        auto p = std::make_shared<XpcsPresenter>();
        p->setRuns({{exponentialResult({5.0, 10.0, 20.0, 40.0, 80.0, 160.0}), "cpu"}});
        XpcsG2View view(p, "g2");
        view.resize(520, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSelectedBins({0, 1, 2, 3, 4});
        QCustomPlot& plot = *view.plot();
        plot.replot();
        QVERIFY(plot.legend->visible());
        QVERIFY(plot.legend->itemCount() >= 5);
        QVERIFY(plot.legend->layout() != plot.axisRect()->insetLayout());
        QVERIFY2(!plot.legend->outerRect().intersects(plot.axisRect()->rect()),
                 qPrintable(QString("legend bottom %1 over axes %2..%3")
                                .arg(plot.legend->outerRect().top())
                                .arg(plot.axisRect()->rect().top())
                                .arg(plot.axisRect()->rect().bottom())));
        QVERIFY(plot.legend->outerRect().right() <= plot.width());
        QVERIFY(plot.legend->outerRect().bottom() <= plot.height());
        QVERIFY(plot.axisRect()->rect().height() > plot.height() / 2);
        for (int i = 0; i < plot.legend->itemCount(); ++i) { // no entry cut
            QCPAbstractLegendItem* item = plot.legend->item(i);
            if (!item) continue; // an empty cell of the legend's last row
            QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                     qPrintable(QString("entry %1: %2 of %3 px")
                                    .arg(i)
                                    .arg(item->outerRect().width())
                                    .arg(item->minimumOuterSizeHint().width())));
        }
    }

    // Issue 52: the Bins list beside the g2 plot was 110 px wide and cut its entries ("label
    // 12, q = 0.258 Å⁻¹" read "label 12, q ="); it is as wide as its longest entry (within 220
    // px) and each entry's tooltip says it whole.
    void g2BinListEntriesUncut() {
        auto p = std::make_shared<XpcsPresenter>();
        p->setRuns({{exponentialResult(std::vector<double>(12, 10.0)), "cpu"}});
        std::vector<double> q;
        for (int b = 0; b < 12; ++b)
            q.push_back(0.0112 + 0.0224 * b);
        p->setBinQ(q);
        XpcsG2View view(p, "g2");
        view.resize(640, 360);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* list = view.findChild<QListWidget*>();
        QVERIFY(list && list->count() == 12);
        for (int i = 0; i < list->count(); ++i) {
            QVERIFY(list->item(i)->text().contains("q = "));
            QCOMPARE(list->item(i)->toolTip(), list->item(i)->text());
        }
        QTRY_COMPARE(list->horizontalScrollBar()->maximum(), 0); // every entry fits
    }

    // Multi-tau: where each level starts is marked on the g2 plot (a line and "Lk" each), and
    // log-binning, which would blur the levels, is off; a dense result has no marks.
    void multitauLevelsAreMarked() {
        auto p = std::make_shared<XpcsPresenter>();
        p->setRuns({{multitauResult(), "cpu"}});
        QCOMPARE(p->levelStarts(), (std::vector<std::pair<int, double>>{{1, 0.004}, {2, 0.008}}));
        XpcsG2View view(p, "g2");
        view.setSelectedBins({0});
        QCOMPARE(view.plot()->itemCount(), 4);
        QVERIFY(!view.logBinBox()->isEnabled());
        QCOMPARE(view.plot()->graph(0)->dataCount(), 7); // every positive lag, not binned
        auto dense = std::make_shared<XpcsPresenter>();
        dense->setRuns({{exponentialResult({20.0}), "cpu"}});
        QVERIFY(dense->levelStarts().empty());
        XpcsG2View denseView(dense, "g2");
        denseView.setSelectedBins({0});
        QCOMPARE(denseView.plot()->itemCount(), 0);
        QVERIFY(denseView.logBinBox()->isEnabled());
    }

    // A multi-tau two-time map is (T / twotime_bin)², not L² (L lags): drawn whole, its time
    // axis in steps of twotime_bin frames.
    void multitauTwoTimeMapIsDrawnWhole() {
        xpcs::Result r = multitauResult();
        r.twotimeBin = 4;
        std::vector<float> map(25 * 25);
        for (std::size_t i = 0; i < map.size(); ++i)
            map[i] = float(i % 7);
        r.twotime[1] = map;
        QCOMPARE(twoTimeFramesPerCell(r), std::size_t(4));
        std::unique_ptr<QCustomPlot> plot(makeTwoTimePlot(r, 1));
        auto* colorMap = qobject_cast<QCPColorMap*>(plot->plottable(0));
        QVERIFY(colorMap);
        QCOMPARE(colorMap->data()->keySize(), 25);
        QCOMPARE(colorMap->data()->valueSize(), 25);
        QCOMPARE(colorMap->data()->keyRange().upper, 0.001 * 4 * 24);
        QCOMPARE(colorMap->data()->cell(24, 3), double(map[24 * 25 + 3]));
    }
};

QTEST_MAIN(TestUiXpcsPresenter)
#include "tst_ui_xpcs_presenter.moc"
