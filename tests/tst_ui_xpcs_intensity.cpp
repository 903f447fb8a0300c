// XPCS intensity tabs: a cpu run through the panel (offscreen) adds "I(t)" and "I(q)" beside
// g2(τ); I(t) draws the bins checked in g2(τ), each frame's mean counts per pixel as summed
// here from the file; I(q) their mean over the frames against q; axis titles carry units and
// the legend sits beside the axes; the CSV exports carry the provenance header and the HDF5
// export holds /xpcs/intensity next to the library's /xpcs result. The Average tab (issue 54
// item 1): three results made with clscope-cli (one planted with its g2 × 1.2) loaded into
// XpcsAverageView, the verdicts shown (the planted run rejected by the baseline rule), the
// averaged g2 saved bit for bit as clscope-cli average writes it, never over an input.
#include "core/io.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "test_util.hpp"
#include "ui/app/main_window.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/xpcs/xpcs_average_view.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"
#include "ui/xpcs/xpcs_intensity_view.hpp"
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui_test_helpers.hpp"

#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>
#include <cstring>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;

namespace {

// Mean of the pixels labelled `label` in frame t, summed directly.
double directMean(const Array& frames, const LabelMask& mask, std::int32_t label, std::size_t t) {
    double sum = 0;
    std::size_t n = 0;
    const std::size_t pixels = mask.height * mask.width;
    for (std::size_t p = 0; p < pixels; ++p)
        if (mask.labels[p] == label) sum += frames.valueAt(t * pixels + p), ++n;
    return sum / double(n);
}

const ResultTab* findTab(const ResultsPanel& results, const QString& title) {
    for (const ResultTab& tab : results.tabs())
        if (tab.title == title) return &tab;
    return nullptr;
}

bool legendBesideAxes(QCustomPlot& plot) {
    return plot.legend->visible() && plot.legend->layout() != plot.axisRect()->insetLayout();
}

} // namespace

class TestUiXpcsIntensity : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void initTestCase() { test::useTemporarySettings(dir_); }

    void runShowsIntensityAgainstTimeAndQ() {
        const QString file = QString::fromStdString(test::writeSmallXpcs(dir_, 16, 20, 24));
        MainWindow window;
        QVERIFY(window.openFile(file));
        auto* panel = window.findChild<XpcsPanel*>();
        panel->setVariant("cpu");
        panel->setFrameTimeOverride(0.01);
        QSignalSpy finished(panel, &XpcsPanel::runFinished);
        QVERIFY(panel->run());
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.front().front().toBool());
        ResultsPanel& results = window.workbench().results();
        QStringList titles;
        for (const ResultTab& tab : results.tabs())
            titles << tab.title;
        QVERIFY2(titles.indexOf("I(t)") == titles.indexOf("g2(τ)") + 1,
                 qPrintable(titles.join(",")));
        QVERIFY(titles.contains("I(q)"));

        const H5Reader in(file.toStdString());
        const Array frames = readFrames(in);
        const LabelMask mask = readLabels(in);
        const xpcs::Result& r = panel->presenter().reference();
        auto* time = qobject_cast<XpcsIntensityView*>(findTab(results, "I(t)")->widget);
        QVERIFY(time);
        panel->g2View()->setSelectedBins({0, 2});
        QCOMPARE(time->bins(), (std::vector<std::size_t>{0, 2}));
        QCOMPARE(time->plot()->graphCount(), 2);
        const auto* graph = time->plot()->graph(1)->data().data();
        QCOMPARE(graph->size(), 16);
        for (int t = 0; t < 16; ++t) {
            QVERIFY(std::abs(graph->at(t)->key - 0.01 * t) < 1e-12);
            QVERIFY(std::abs(graph->at(t)->value - directMean(frames, mask, r.labels[2], t)) <
                    1e-9);
        }
        QVERIFY(time->plot()->xAxis->label().contains("(s)"));
        QVERIFY(time->plot()->yAxis->label().contains("counts / pixel"));
        QVERIFY(legendBesideAxes(*time->plot()));

        auto* iq = qobject_cast<XpcsIqView*>(findTab(results, "I(q)")->widget);
        QVERIFY(iq);
        const auto* points = iq->plot()->graph(0)->data().data();
        QCOMPARE(std::size_t(points->size()), r.binCount());
        double mean1 = 0;
        for (std::size_t t = 0; t < 16; ++t)
            mean1 += directMean(frames, mask, r.labels[1], t) / 16;
        QVERIFY(std::abs(points->at(1)->value - mean1) < 1e-9);
        QVERIFY(iq->plot()->xAxis->label().contains("Å⁻¹"));
        QVERIFY(legendBesideAxes(*iq->plot()));

        checkExports(results);
    }

    void averageViewMatchesTheCli() {
        QString skip;
        const QStringList runs = averageInputs(skip);
        if (!skip.isEmpty()) QSKIP(qPrintable(skip));
        QCOMPARE(runs.size(), 3);
        const QString cliOut = dir_.filePath("cli_average.h5");
        const test::CliRun cli =
            test::runCli(QStringList{"average"} + runs + QStringList{"-o", cliOut});
        QVERIFY2(cli.code == 0, qPrintable(cli.err));

        MainWindow window;
        auto* panel = window.findChild<XpcsPanel*>();
        XpcsAverageView* view = panel->showAverage();
        QVERIFY(findTab(window.workbench().results(), "Average"));
        view->form()->resetToDefaults(); // the CLI's defaults
        QSignalSpy averaged(view, &XpcsAverageView::averaged);
        view->addFiles(runs);
        QVERIFY(averaged.wait(60000));
        while (view->busy())
            QVERIFY(averaged.wait(60000));
        QVERIFY2(view->outcome() && view->outcome()->averaged, qPrintable(view->status()->text()));
        const QTableWidget* table = view->table();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->item(0, 1)->text(), QString("kept"));
        QCOMPARE(table->item(1, 1)->text(), QString("kept"));
        QCOMPARE(table->item(2, 1)->text(), QString("rejected"));
        const QString why = table->item(2, 3)->text(); // "baseline = 1.2": g2 × 1.2
        QVERIFY2(why.startsWith("baseline = ") && std::abs(why.mid(11).toDouble() - 1.2) < 0.05,
                 qPrintable(why));
        QVERIFY(view->status()->text().contains("2 of 3 runs averaged"));
        QVERIFY(view->g2Plot()->graphCount() == 4); // 3 runs and the average
        QVERIFY(view->g2Plot()->yAxis->label().contains("g₂"));
        QVERIFY(view->intensityPlot()->graphCount() == 3);

        QVERIFY(!view->save(runs.front()).isEmpty()); // never over an input
        const QString guiOut = dir_.filePath("gui_average.h5");
        QCOMPARE(view->save(guiOut), QString());
        const H5Reader a(cliOut.toStdString()), b(guiOut.toStdString());
        for (const char* path : {"/xpcs/g2", "/xpcs/g2_err", "/xpcs/tau", "/xpcs/sums/sum_N",
                                 "/xpcs/sums/sum_S_S_prime", "/xpcs/intensity_vs_time",
                                 "/xpcs/average/rejected/value"}) {
            const Array xa = a.read(path, DType::Float64), ya = b.read(path, DType::Float64);
            const auto x = xa.as<double>();
            const auto y = ya.as<double>();
            QCOMPARE(x.size(), y.size());
            QVERIFY2(std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0, path);
        }
        // Issue 54: the file open in the Data browser joins the runs ("Add open file").
        QVERIFY(window.openFile(runs.front()));
        averaged.clear();
        view->addOpenFile();
        QVERIFY(averaged.wait(60000));
        while (view->busy())
            QVERIFY(averaged.wait(60000));
        QCOMPARE(view->table()->rowCount(), 4);
        QCOMPARE(QString::fromStdString(view->runs().back().file), runs.front());
    }

  private:
    // Three series of one brownian run correlated by clscope-cli, the third's g2 × 1.2.
    QStringList averageInputs(QString& skip) {
        const QString in = dir_.filePath("brownian.h5");
        // tst_xpcs_average's run: fast decay (D = 1e8 Å²/s), baselines near 1 in 80 frames.
        if (test::runCli({"generate", "xpcs", "--frames", "240", "--height", "64", "--width", "64",
                          "--seed", "3", "--intensity", "20", "--diffusion", "1e8", "-o", in})
                .code != 0)
            return {};
        QStringList runs;
        for (int s = 0; s < 3; ++s) {
            const QString out = dir_.filePath(QString("series%1.h5").arg(s));
            if (test::runCli({"correlate", in, "--device", "cpu", "--frames",
                              QString("%1:80").arg(80 * s), "-o", out})
                    .code != 0)
                return {};
            runs << out;
        }
        const QString planted = dir_.filePath("series2_scaled.h5");
        if (!test::runPython({QString::fromStdString(test::dataFile("../xpcs_average_plant.py")),
                              "scale", runs.back(), planted, "1.2"},
                             skip))
            return {};
        runs.back() = planted;
        return runs;
    }

    void checkExports(ResultsPanel& results) {
        results.showTab(findTab(results, "I(q)")->widget);
        const QString csv = dir_.filePath("iq.csv"), h5 = dir_.filePath("iq.h5");
        results.exportCsv(csv);
        QFile text(csv);
        QVERIFY(text.open(QIODevice::ReadOnly));
        const QString body = QString::fromUtf8(text.readAll());
        QVERIFY(body.contains("# command_line: "));
        QVERIFY(body.contains("# result: xpcs: I(q)"));
        QVERIFY(body.contains("label,q_1/angstrom,mean_counts_per_pixel,std_over_frames,pixels"));
        results.exportHdf5(h5);
        const H5Reader out(h5.toStdString());
        QVERIFY(out.hasDataset("/xpcs/g2"));
        const auto shape = out.info("/xpcs/intensity/mean").shape;
        QCOMPARE(shape.size(), std::size_t(2));
        QCOMPARE(shape[1], std::size_t(16));
        QVERIFY(out.hasDataset("/xpcs/intensity/time"));
        QVERIFY(out.stringAttribute("/", "command_line").has_value());
    }
};

QTEST_MAIN(TestUiXpcsIntensity)
#include "tst_ui_xpcs_intensity.moc"
