// Sparse frames in the GUI (issue 55 step 4; docs/SPARSE.md): a CSR file and a Rigaku .bin file
// open as a dense file does: the frames role is assigned, the image view shows each frame
// densified, equal to the dense stack's; the Data panel plots each frame's occupancy (stored
// entries over pixels, %); the xpcs panel runs a sparse variant on the CSR file, its g2 the
// dense file's, and Timings shows the run's events/s.
#include "core/io.hpp"
#include "core/xpcs/synthetic.hpp"
#include "gpu/runtime/devices.hpp"
#include "test_util.hpp"
#include "ui/app/main_window.hpp"
#include "ui/app/session.hpp"
#include "ui/data/data_browser.hpp"
#include "ui/data/occupancy_plot.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/log_panel.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/results/timings_panel.hpp"
#include "ui/xpcs/xpcs_live.hpp"
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui_test_helpers.hpp"

#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;

namespace {

// The entries of each frame of a dense (T,H,W) stack over its pixels, in %: its non-zero pixels
// (a CSR or Rigaku file), or, `eachCount`, its counts (an event list: an entry a count).
std::vector<double> entryPercent(const Array& dense, bool eachCount) {
    std::vector<double> out;
    for (std::size_t t = 0; t < dense.frameCount(); ++t) {
        double entries = 0;
        for (std::size_t p = 0; p < dense.frameSize(); ++p) {
            const double v = dense.valueAt(t * dense.frameSize() + p);
            entries += eachCount ? v : double(v != 0);
        }
        out.push_back(100.0 * entries / double(dense.frameSize()));
    }
    return out;
}

} // namespace

class TestUiSparse : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString dense_, sparse_;

    // Opens `file` and runs the xpcs panel's multi-tau with `variant` once the jobs a file
    // starts (a panel's live view) are done; whether it succeeded.
    static bool runOn(MainWindow& window, const QString& file, const std::string& variant,
                      bool multitau = true) {
        auto* panel = window.findChild<XpcsPanel*>();
        if (!window.openFile(file)) return false;
        JobRunner& jobs = window.workbench().jobs();
        for (int waited = 0; jobs.isBusy() && waited < 30000; waited += 20)
            QTest::qWait(20);
        panel->form()->setValue("multitau", multitau);
        panel->setVariant(variant);
        QSignalSpy finished(panel, &XpcsPanel::runFinished);
        return panel->variant() == variant && panel->run() && finished.wait(60000) &&
               finished.front().front().toBool();
    }

    // Every frame the image view shows equals the dense stack's, the occupancy plot holds
    // each frame's entries in % (entryPercent).
    // Whether the XPCS panel has a label saying `text` (its input's frames).
    static bool panelSays(MainWindow& window, const QString& text) {
        const auto labels = window.findChild<XpcsPanel*>()->findChildren<QLabel*>();
        return std::any_of(labels.begin(), labels.end(),
                           [&](const QLabel* l) { return l->text().contains(text); });
    }

    static void checkShown(MainWindow& window, const Array& dense, bool eachCount = false) {
        ImagePresenter& image = window.workbench().image().presenter();
        QVERIFY(image.hasImage());
        QCOMPARE(image.frameCount(), dense.frameCount());
        for (std::size_t t = 0; t < dense.frameCount(); ++t) {
            image.setSelection({Reduction::Single, t, 0, 0});
            const Image& shown = image.reducedImage();
            QCOMPARE(shown.height, dense.height());
            QCOMPARE(shown.width, dense.width());
            std::size_t differ = 0;
            for (std::size_t p = 0; p < dense.frameSize(); ++p)
                differ += shown.values[p] != dense.valueAt(t * dense.frameSize() + p);
            QVERIFY2(differ == 0,
                     qPrintable(QString("frame %1: %2 pixels differ").arg(t).arg(differ)));
        }
        OccupancyPlot* occupancy = window.findChild<DataBrowser*>()->occupancy();
        QVERIFY(!occupancy->isHidden());
        const std::vector<double> want = entryPercent(dense, eachCount);
        const auto data = occupancy->plot()->graph(0)->data();
        QCOMPARE(std::size_t(data->size()), want.size());
        for (std::size_t t = 0; t < want.size(); ++t) {
            QCOMPARE(data->at(int(t))->key, double(t));
            QCOMPARE(data->at(int(t))->value, want[t]);
        }
        QCOMPARE(occupancy->plot()->xAxis->label(), QString("frame"));
        QCOMPARE(occupancy->plot()->yAxis->label(), QString("occupancy (%)"));
    }

  private slots:
    void initTestCase() {
        test::useTemporarySettings(dir_);
        synthetic::XpcsParams p;
        p.frames = 24, p.height = 20, p.width = 24, p.ringWidth = 4, p.intensity = 0.5;
        p.dtype = DType::UInt16, p.frameTime = 0.002;
        const synthetic::XpcsDataset d = synthetic::generateXpcs(p);
        dense_ = dir_.filePath("dense.h5"), sparse_ = dir_.filePath("sparse.h5");
        for (const auto& [name, sparse] : {std::pair{dense_, false}, std::pair{sparse_, true}}) {
            H5Writer out(name.toStdString());
            synthetic::writeXpcs(out, d, Compression::None, sparse);
            out.commit();
        }
    }

    // The CSR layout: frames role on the sparse group, frames and occupancy as the dense ones;
    // a dense file afterwards hides the occupancy again.
    void csrFileOpensLikeADenseOne() {
        MainWindow window;
        QVERIFY(window.openFile(sparse_));
        const DatasetRoles& roles = window.workbench().dataset();
        QCOMPARE(roles.path(DataRole::Frames).value_or(""), std::string("/entry/data/sparse"));
        QVERIFY(roles.path(DataRole::Labels)); // the labels beside the frames, as in a dense file
        checkShown(window, readFrames(H5Reader(dense_.toStdString())));
        QVERIFY(window.openFile(dense_));
        QVERIFY(window.findChild<DataBrowser*>()->occupancy()->isHidden());
    }

    // A Rigaku .bin file (tests/sparse_files.py rigaku: 5 frames of 512×1024, frame 1 empty).
    void rigakuFileOpensLikeADenseOne() {
        const QString bin = dir_.filePath("rigaku.bin"), want = dir_.filePath("rigaku_dense.h5");
        QString skip;
        QVERIFY(test::runPython({CLSCOPE_SPARSE_FILES, "rigaku", bin, want}, skip));
        if (!skip.isEmpty()) QSKIP(qPrintable(skip));
        MainWindow window;
        QVERIFY(window.openFile(bin));
        QVERIFY(window.workbench().dataset().path(DataRole::Frames));
        const Array dense = readFrames(H5Reader(want.toStdString()));
        checkShown(window, dense);
        // The XPCS panel counts its frames (it said none: the roles file has no dataset).
        QTRY_VERIFY(panelSays(window, "rigaku.bin:/entry/data/data (5 frames)"));
        // The Log names the file as the frames, not the roles file's path.
        const QString log = window.findChild<LogPanel*>()->text();
        QVERIFY2(log.contains("frames / image ← rigaku.bin (Rigaku binary frames)"),
                 qPrintable(log));
        // A file that is not whole words is refused as it opens, naming the file.
        const QString torn = dir_.filePath("torn.bin");
        QFile f(torn);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("1234567", 7) == 7);
        f.close();
        QVERIFY(!window.openFile(torn));
    }

    // An event list (tests/sparse_files.py events: each count an event within its frame's 1 ms)
    // asks for its frames' width, the file's frame time offered; binned at 1 ms its frames are
    // the dense ones, an entry an event. Not answered: no frames shown, the file still open.
    void eventListAsksForItsFrameTime() {
        const QString events = dir_.filePath("events.h5");
        QString skip;
        QVERIFY(test::runPython({CLSCOPE_SPARSE_FILES, "events", dense_, events, "1000000"}, skip));
        if (!skip.isEmpty()) QSKIP(qPrintable(skip));
        MainWindow window;
        QStringList asked;
        window.workbench().setAskFrameTime([&](const QString& file, double offered) {
            asked << QString("%1 %2").arg(QFileInfo(file).fileName()).arg(offered);
            return std::optional<double>(1e-3);
        });
        QVERIFY(window.openFile(events));
        QCOMPARE(asked, QStringList{"events.h5 0.002"});
        QCOMPARE(window.workbench().dataset().path(DataRole::Frames).value_or(""),
                 std::string("/entry/data/events"));
        const Array frames = readFrames(H5Reader(dense_.toStdString()));
        checkShown(window, frames, true);
        // The panel bins the events as shown: the sparse multi-tau gives the dense file's g2.
        auto* panel = window.findChild<XpcsPanel*>();
        QTRY_VERIFY(panelSays(
            window, QString("events.h5:/entry/data/events (%1 frames)").arg(frames.shape()[0])));
        QVERIFY(runOn(window, dense_, "cpu"));
        const std::vector<double> want = panel->presenter().reference().g2;
        QVERIFY(runOn(window, events, "sparse-cpu"));
        QVERIFY(!want.empty() && panel->presenter().reference().g2 == want);
        QCOMPARE(panel->presenter().reference().tau[1], 1e-3); // τ from the bin width
        window.workbench().setAskFrameTime(
            [](const QString&, double) { return std::optional<double>(); });
        QVERIFY(window.openFile(events));
        QVERIFY(!window.workbench().image().presenter().hasImage());
    }

    // A session keeps an event list's frame width: reopened, its frames are binned as they
    // were, without asking (issue 55's leftover; failed before: asked again).
    void sessionKeepsTheEventFrameWidth() {
        const QString events = dir_.filePath("events-session.h5");
        QString skip;
        QVERIFY(test::runPython({CLSCOPE_SPARSE_FILES, "events", dense_, events, "1000000"}, skip));
        if (!skip.isEmpty()) QSKIP(qPrintable(skip));
        const QString session = dir_.filePath("events-session.json");
        {
            MainWindow window;
            window.workbench().setAskFrameTime(
                [](const QString&, double) { return std::optional<double>(2e-3); });
            QVERIFY(window.openFile(events));
            window.session().save(session);
        }
        MainWindow window;
        int asked = 0;
        window.workbench().setAskFrameTime([&](const QString&, double) {
            ++asked;
            return std::optional<double>(1e-3);
        });
        window.session().open(session);
        QCOMPARE(asked, 0);
        QCOMPARE(window.workbench().dataset().eventFrameTime().value_or(0), 2e-3);
        QVERIFY(window.workbench().image().presenter().hasImage());
        QVERIFY(window.openFile(events)); // a file opened by hand is asked about again
        QCOMPARE(asked, 1);
    }

    // Dense lags (the panel's default mode) with sparse-cpu on the CSR file, read as its stored
    // entries as the command line reads them (Algorithm::readFor): the dense cpu run's g2 and
    // g2_err on the dense file, bit for bit.
    void denseLagsFromTheEntries() {
        MainWindow window;
        auto* panel = window.findChild<XpcsPanel*>();
        QVERIFY(runOn(window, dense_, "cpu", false));
        const xpcs::Result want = panel->presenter().reference();
        QVERIFY(!want.g2.empty() && !want.multitau);
        QVERIFY(runOn(window, sparse_, "sparse-cpu", false));
        const xpcs::Result& got = panel->presenter().reference();
        QVERIFY(!got.multitau);
        QVERIFY(got.g2 == want.g2);
        QVERIFY(got.g2Err == want.g2Err);
    }

    // The xpcs panel runs the sparse multi-tau on the CSR file: the g2 of the dense cpu
    // multi-tau on the dense file, bit for bit; Timings shows the sparse run's entries a second
    // (and none for the dense run).
    void sparseRunShowsEventsPerSecond() {
        MainWindow window;
        auto* panel = window.findChild<XpcsPanel*>();
        QVERIFY(runOn(window, dense_, "cpu"));
        const std::vector<double> want = panel->presenter().reference().g2;
        QVERIFY(runOn(window, sparse_, "sparse-cpu"));
        QVERIFY(!want.empty() && panel->presenter().reference().g2 == want);
        QTableWidget* table = window.workbench().timings().tableWidget();
        QTRY_VERIFY(table->rowCount() > 0);
        QStringList denseRates, sparseRates;
        for (int row = 0; row < table->rowCount(); ++row)
            (table->item(row, 2)->text() == "cpu" ? denseRates : sparseRates)
                << table->item(row, 9)->text();
        QVERIFY(!denseRates.isEmpty() && !sparseRates.isEmpty());
        for (const QString& rate : denseRates)
            QVERIFY2(rate.isEmpty(), qPrintable(rate));
        for (const QString& rate : sparseRates)
            QVERIFY2(rate.toDouble() > 0, qPrintable(rate));
    }

    // The live view's g2 over the frames received so far takes the sparse path where they are
    // mostly zero on an OpenCL device (the pipeline's live rule, xpcs::liveChoice), the dense
    // multitau otherwise; its title says which ran.
    void liveG2TakesTheSparsePathForMostlyZeroFrames() {
        if (openclDevices().empty()) QSKIP("no OpenCL device");
        const std::size_t h = 32, w = 32, frames = 40;
        LiveContext c;
        c.height = h, c.width = w, c.dtype = DType::UInt16, c.device = openclDevices().front();
        auto labels =
            std::make_shared<LabelMask>(LabelMask{h, w, std::vector<std::int32_t>(h * w)});
        for (std::size_t i = 0; i < h * w; ++i)
            labels->labels[i] = std::int32_t(1 + i % 3);
        c.labels = labels;
        QWidget parent;
        for (const auto& [perFrame, variant] : {std::pair{std::size_t(2), QString("sparse")},
                                                std::pair{std::size_t(300), QString("multitau")}}) {
            Array a(DType::UInt16, {frames, h, w});
            auto* v = reinterpret_cast<std::uint16_t*>(a.bytes());
            for (std::size_t f = 0; f < frames; ++f)
                for (std::size_t i = 0; i < perFrame; ++i)
                    v[f * h * w + (i * 37 + f * 11) % (h * w)] = 1;
            std::unique_ptr<LiveSeriesAnalysis> live = xpcsLiveSpec().overFrames(c, &parent);
            QVERIFY(live);
            live->analyse(a)();
            auto* title = qobject_cast<QCPTextElement*>(
                qobject_cast<QCustomPlot*>(live->widget())->plotLayout()->element(0, 0));
            QVERIFY(title);
            QCOMPARE(title->text(), "XPCS multi-tau g2 · " + variant);
        }
    }
};

QTEST_MAIN(TestUiSparse)
#include "tst_ui_sparse.moc"
