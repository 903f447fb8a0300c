// Issue 53: azint's panel of its own. Run integrates the open powder file
// through the job clscope-cli's run makes: the export's /azint is what clscope-cli gives with the
// export's command line, bit for bit; the I(q) tab draws the result's own intensities; the sum of
// frames is pyFAI's integration of their sum; a cake run adds the Cake tab, its map the frame's.
#include "core/hdf5.hpp"
#include "gpu/algorithm.hpp"
#include "h5_bytes.hpp"
#include "test_util.hpp"
#include "ui/app/main_window.hpp"
#include "ui/azint/azint_panel.hpp"
#include "ui/image/image_view.hpp"
#include "ui/image/overlay_layer.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/results/results_panel.hpp"
#include "ui_test_helpers.hpp"

#include <QCheckBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;

class TestUiAzint : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString powder_;

    // Run the panel as it stands; whether the run delivered.
    static bool runPanel(AzintPanel& panel) {
        QSignalSpy finished(&panel, &AzintPanel::runFinished);
        if (!panel.run()) return false;
        return finished.wait(120000) && finished.front().front().toBool();
    }

    static QStringList tabTitles(ResultsPanel& results) {
        QStringList out;
        for (const ResultTab& tab : results.tabs())
            if (tab.algorithm == "azint") out << tab.title;
        return out;
    }

  private slots:
    void initTestCase() {
        test::useTemporarySettings(dir_);
        powder_ = dir_.filePath("powder.h5");
        const auto kind = AlgorithmRegistry::instance().synthetic("powder");
        ParamSet options(kind.second.specs);
        options.set("frames", 3), options.set("height", 96), options.set("width", 80);
        kind.second.write(options, 2, Compression::None, powder_.toStdString());
    }

    void panelRunsAsTheCli() {
        MainWindow window;
        QVERIFY(window.openFile(powder_));
        auto* panel = window.findChild<AzintPanel*>();
        QVERIFY(panel);
        panel->setVariant("cpu");
        panel->form()->setValue("bins", 40);
        QVERIFY(runPanel(*panel));
        ResultsPanel& results = window.workbench().results();
        QCOMPARE(tabTitles(results), (QStringList{"I(q)", "Waterfall"}));
        const azint::Result& r = panel->presenter().result();
        QCOMPARE(r.frames, std::size_t(3));
        QCOMPARE(r.bins, std::size_t(40));
        // The profile drawn is the result's intensity of the frame chosen (finite bins).
        panel->profileView()->frameSpin()->setValue(1);
        const QCPGraph* graph = panel->profileView()->plot()->graph(0);
        QVERIFY(graph->data()->size() > 20);
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            const auto n = std::size_t(std::find(r.radial.begin(), r.radial.end(), it->key) -
                                       r.radial.begin());
            QVERIFY(n < r.bins);
            QCOMPARE(it->value, r.intensity[r.bins + n]);
        }
        // Frames 0-2 summed: Σ signal / Σ normalization per bin.
        const AzintProfile sum = panel->presenter().profile(0, 2);
        for (std::size_t n = 0; n < r.bins; ++n) {
            const double s = r.sumSignal[n] + r.sumSignal[r.bins + n] + r.sumSignal[2 * r.bins + n];
            const double c = r.sumNormalization[n] + r.sumNormalization[r.bins + n] +
                             r.sumNormalization[2 * r.bins + n];
            if (c == 0)
                QVERIFY(std::isnan(sum.intensity[n]));
            else
                QCOMPARE(sum.intensity[n], s / c);
        }
        // The bins over the image: no bin at the beam centre's ring is past one further out.
        OverlayLayer* bins = window.workbench().image().overlay("azint bins");
        QVERIFY(bins);
        std::int32_t last = 0, nonZero = 0;
        for (std::size_t x = 40; x < 80; ++x) { // the centre row, from the beam centre outwards
            const std::int32_t label = bins->labelAt(x, 48);
            QVERIFY(label == 0 || label >= last);
            last = std::max(last, label), nonZero += label != 0;
        }
        QVERIFY(nonZero > 30 && last >= 10); // 40 bins in 20 bands of 2, 2/3 of the radius
        bins->setOwnerActive(true);          // as when the Azint panel is in front
        QVERIFY2(bins->describeAt(60, 48).startsWith("azint bins "),
                 qPrintable(bins->describeAt(60, 48)));
        // The export and clscope-cli with its command line: the same /azint, bit for bit.
        const QString exported = dir_.filePath("gui.h5");
        results.exportHdf5(exported);
        const H5Reader gui(exported.toStdString());
        const auto cli = test::rerunExport(gui, dir_.filePath("cli.h5"));
        QVERIFY2(cli.code == 0, qPrintable(cli.err));
        test::compareDatasets(gui, H5Reader(dir_.filePath("cli.h5").toStdString()), "/azint");
        saveShots(window, "azint-iq");
    }

    void cakeRunHasItsTab() {
        MainWindow window;
        QVERIFY(window.openFile(powder_));
        auto* panel = window.findChild<AzintPanel*>();
        QVERIFY(panel);
        panel->setVariant("cpu");
        panel->form()->setValue("bins", 30);
        panel->form()->setValue("azimuth_bins", 12);
        QVERIFY(runPanel(*panel));
        QCOMPARE(tabTitles(window.workbench().results()),
                 (QStringList{"I(q)", "Waterfall", "Cake"}));
        AzintMapView* cake = panel->cakeView();
        QVERIFY(cake && cake->frameSpin());
        cake->frameSpin()->setValue(2);
        const azint::Result& r = panel->presenter().result();
        const auto* map = qobject_cast<QCPColorMap*>(cake->plot()->plottable(0));
        QVERIFY(map);
        QCOMPARE(map->data()->keySize(), 30);
        QCOMPARE(map->data()->valueSize(), 12);
        for (int m = 0; m < 12; ++m)
            for (int n = 0; n < 30; ++n) {
                const double want = r.intensity[(2 * 12 + std::size_t(m)) * 30 + std::size_t(n)];
                const double got = map->data()->cell(n, m);
                QVERIFY(std::isnan(want) ? std::isnan(got) : got == want);
            }
        saveShots(window, "azint-cake");
    }

  private:
    // With CLSCOPE_TEST_SHOTS=DIR: the window with each azint tab in front at 1600×1000 and
    // 1280×800 (DIR/NAME-<tab>-<width>.png), to look at.
    static void saveShots(MainWindow& window, const QString& name) {
        const QString dir = qEnvironmentVariable("CLSCOPE_TEST_SHOTS");
        if (dir.isEmpty()) return;
        window.show();
        QTabWidget* tabs = window.workbench().results().tabWidget();
        for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
            window.resize(size);
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                QCoreApplication::processEvents();
                window.grab().save(
                    QString("%1/%2-%3-%4.png").arg(dir, name).arg(i).arg(size.width()));
            }
        }
    }
};

QTEST_MAIN(TestUiAzint)
#include "tst_ui_azint.moc"
