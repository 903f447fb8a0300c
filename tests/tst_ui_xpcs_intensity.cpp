// XPCS intensity tabs: a cpu run through the panel (offscreen) adds "I(t)" and "I(q)" beside
// g2(τ); I(t) draws the bins checked in g2(τ), each frame's mean counts per pixel as summed
// here from the file; I(q) their mean over the frames against q; axis titles carry units and
// the legend sits beside the axes; the CSV exports carry the provenance header and the HDF5
// export holds /xpcs/intensity next to the library's /xpcs result.
#include "core/io.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "ui/app/main_window.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"
#include "ui/xpcs/xpcs_intensity_view.hpp"
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui_test_helpers.hpp"

#include <QFile>
#include <QSignalSpy>
#include <QtTest>
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

  private:
    void checkExports(ResultsPanel& results) {
        results.tabWidget()->setCurrentWidget(findTab(results, "I(q)")->widget);
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
