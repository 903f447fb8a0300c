// Spots panel (offscreen): a parameter change re-thresholds the frame on screen, the overlay
// and boxes follow; a run over every frame fills the sortable table, a click on a row centres
// the image view on that spot; exports read back equal; the Compare difference image marks
// exactly the disagreeing pixels; `clscope --demo spots` succeeds and a failing run exits
// non-zero. Frame results without a window: tst_ui_spots_frame; overlays and resolution
// rings: tst_ui_spots_overlays.
#include "tst_ui_spots.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "core/spots/grid_scan.hpp"
#include "core/spots/synthetic.hpp"
#include "expt_text.hpp"
#include "gpu/spots/run_types.hpp"
#include "ui/app/main_window.hpp"
#include "ui/image/image_view.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/log_panel.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/results/results_panel.hpp"
#include "ui/spots/spots_difference_view.hpp"
#include "ui/spots/spots_markers.hpp"
#include "ui/spots/spots_panel.hpp"
#include "ui/spots/spots_views.hpp"
#include "ui_test_helpers.hpp"

#include <QClipboard>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QMenu>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;
using namespace clscope::test;

namespace {

QString guiBinary() {
    return QFileInfo(qEnvironmentVariable("CLSCOPE_CLI")).absoluteDir().filePath("clscope");
}

// σ_strong's editor in the panel's generic parameter form.
QDoubleSpinBox* sigmaStrong(SpotsPanel* panel) {
    return qobject_cast<QDoubleSpinBox*>(panel->form()->field("sigma_strong"));
}

} // namespace

class TestUiSpots : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString file_;
    synthetic::DiffractionDataset data_ = smallDiffraction();
    std::unique_ptr<MainWindow> window_;

    SpotsPanel* panel() const { return window_->findChild<SpotsPanel*>(); }
    // A new window on the small file, its Spots panel on cpu (null when the file did not open).
    SpotsPanel* freshWindowOnTheFile() {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        if (!window_->openFile(file_)) return nullptr;
        SpotsPanel* sp = panel();
        if (sp) sp->setVariant("cpu");
        return sp;
    }

    // With CLSCOPE_TEST_SHOTS=DIR: the window with the Grid scan tab at 1600×1000 and 1280×800,
    // and the view alone on a 3 × 4 snaked scan of 12 images (counts 10, 20, ..., 120).
    static void saveGridShots(MainWindow& window) {
        const QString dir = qEnvironmentVariable("CLSCOPE_TEST_SHOTS");
        if (dir.isEmpty()) return;
        for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
            window.resize(size);
            QCoreApplication::processEvents();
            window.grab().save(QString("%1/spots-grid-%2.png").arg(dir).arg(size.width()));
        }
        std::vector<double> counts;
        for (int i = 1; i <= 12; ++i)
            counts.push_back(10.0 * i);
        SpotsGridView view(counts);
        view.setGrid({3, 4, true});
        view.resize(640, 420);
        view.grab().save(dir + "/spots-grid-3x4-snaked.png");
    }

  private slots:
    void initTestCase() {
        test::useTemporarySettings(dir_);
        file_ = dir_.filePath("small-diffraction.h5");
        H5Writer out(file_.toStdString());
        synthetic::writeDiffraction(out, data_, Compression::None);
        out.commit();
        QVERIFY(countOnes(data_.mask.bad) > 0);
    }

    // Offscreen window: the frame on screen is thresholded live; a σ_s change re-thresholds it.
    void panelRethresholdsLive() {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        QVERIFY(window_->openFile(file_));
        window_->dock("AlgorithmPanel_spots")->raise();
        SpotsPanel* sp = panel();
        QVERIFY(sp);
        QSignalSpy live(sp, &SpotsPanel::liveUpdated);
        QTRY_VERIFY_WITH_TIMEOUT(live.count() >= 1 && !sp->live()->isPending(), 30000);
        const auto in = frameOf(data_, 0);
        spots::Params p = sp->params();
        QCOMPARE(sp->presenter().frameResult()->signal,
                 spots::thresholdCpu({in->frame, in->mask}, p));
        const std::size_t before = sp->presenter().frameResult()->strong;
        live.clear();
        sigmaStrong(sp)->setValue(1.5);
        QTRY_VERIFY_WITH_TIMEOUT(live.count() >= 1 && !sp->live()->isPending(), 30000);
        p.sigmaStrong = 1.5;
        const SpotsFrameResult& now = *sp->presenter().frameResult();
        QCOMPARE(now.signal, spots::thresholdCpu({in->frame, in->mask}, p));
        QVERIFY(std::size_t(now.strong) > before);
        QVERIFY(now.cachedSums);
        // The overlay carries the signal pixels, the boxes the spots.
        OverlayLayer* overlay = window_->workbench().image().overlay("signal pixels");
        QVERIFY(overlay);
        std::size_t marked = 0;
        for (std::size_t y = 0; y < now.height; ++y)
            for (std::size_t x = 0; x < now.width; ++x)
                marked += overlay->labelAt(x, y) != 0;
        QCOMPARE(marked, std::size_t(now.strong));
        QCOMPARE(sp->markers()->boxCount(), now.spots.size());
        // Another frame, and a debug image in the image view.
        live.clear();
        sp->setImage(SpotsImage::SigmaB);
        sp->setFrame(2);
        QTRY_VERIFY_WITH_TIMEOUT(live.count() >= 1 && !sp->live()->isPending() &&
                                     sp->presenter().frameResult()->frame == 2,
                                 30000);
        const Image& shown = window_->workbench().image().presenter().reducedImage();
        const auto& sigmaB = sp->presenter().frameResult()->debug->sigmaB;
        for (std::size_t k = 0; k < sigmaB.size(); ++k)
            QCOMPARE(shown.values[k], double(sigmaB[k]));
        sp->setImage(SpotsImage::Frame);
        sigmaStrong(sp)->setValue(3.0);
        QTRY_VERIFY_WITH_TIMEOUT(!sp->live()->isPending() && !window_->workbench().jobs().isBusy(),
                                 30000);
    }

    // Run over every frame: the table; sorting by intensity and clicking the first row centres
    // the image view on the brightest spot, on its frame.
    void runFillsTableAndClickCentres() {
        SpotsPanel* sp = panel();
        QVERIFY(sp);
        sp->setVariant("cpu");
        QSignalSpy finished(sp, &SpotsPanel::runFinished);
        QVERIFY(sp->run());
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.front().front().toBool(),
                 qPrintable(window_->findChild<LogPanel*>()->text().right(600)));
        const spots::Result reference = spots::runCpu({data_.frames, data_.mask}, sp->params());
        QCOMPARE(sp->presenter().run().signal, reference.signal);
        compareSpots(sp->presenter().run().spots, reference.spots);
        QTableView* table = sp->tableView()->table();
        table->sortByColumn(int(SpotColumn::Intensity), Qt::DescendingOrder);
        std::size_t brightest = 0;
        for (std::size_t i = 0; i < reference.spots.size(); ++i)
            if (reference.spots[i].intensity > reference.spots[brightest].intensity) brightest = i;
        const QRect cell = table->visualRect(table->model()->index(0, 2));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(*sp->presenter().selectedSpot(), brightest);
        const spots::Spot& s = reference.spots[brightest];
        QCOMPARE(sp->frame(), std::size_t(s.frame));
        QCustomPlot* plot = window_->workbench().image().plot();
        QVERIFY(std::abs(plot->xAxis->range().center() - s.x) < 1e-9);
        QVERIFY(std::abs(plot->yAxis->range().center() - s.y) < 1e-9);
        QVERIFY(plot->xAxis->range().size() < 200);
        QTRY_VERIFY_WITH_TIMEOUT(!sp->live()->isPending() && !window_->workbench().jobs().isBusy(),
                                 30000);
        QVERIFY(std::abs(plot->xAxis->range().center() - s.x) < 1e-9); // the live result keeps it
    }

    // Issue 53 item 2: the grid scan's heat map holds each image's spots in scan order (3 × 4
    // snaked: image 4 at row 1, column 3); a click on a cell shows its image.
    void gridScanShowsSpotsInScanOrder() {
        const spots::GridScan snaked{3, 4, true};
        QCOMPARE(spots::gridImage(snaked, 1, 3), std::size_t(4));
        QCOMPARE(spots::gridImage(snaked, 1, 0), std::size_t(7));
        QCOMPARE(spots::gridImage(snaked, 2, 0), std::size_t(8));
        QCOMPARE(spots::gridCell(snaked, 7)->column, std::size_t(0));
        QVERIFY(!spots::gridCell(snaked, 12));
        QCOMPARE(spots::gridImage({3, 4, false}, 1, 0), std::size_t(4));
        SpotsPanel* sp = panel();
        QVERIFY(sp && sp->gridView());
        SpotsGridView* grid = sp->gridView();
        std::vector<double> counts(3, 0.0);
        for (const spots::Spot& spot : sp->presenter().run().spots)
            counts[std::size_t(spot.frame)] += 1;
        grid->setGrid({2, 2, true}); // 0 1 / (3) 2
        auto* map = qobject_cast<QCPColorMap*>(grid->plot()->plottable(0));
        QVERIFY(map);
        QCOMPARE(map->data()->cell(0, 0), counts[0]);
        QCOMPARE(map->data()->cell(1, 0), counts[1]);
        QCOMPARE(map->data()->cell(1, 1), counts[2]);
        QVERIFY(std::isnan(map->data()->cell(0, 1)));
        window_->workbench().results().showTab(grid);
        QCoreApplication::processEvents();
        grid->plot()->replot();
        sp->setFrame(0);
        const QPoint cell(int(grid->plot()->xAxis->coordToPixel(1.0)),
                          int(grid->plot()->yAxis->coordToPixel(1.0)));
        QTest::mouseClick(grid->plot(), Qt::LeftButton, {}, cell);
        QCOMPARE(sp->frame(), std::size_t(2));
        QTRY_VERIFY_WITH_TIMEOUT(!sp->live()->isPending() && !window_->workbench().jobs().isBusy(),
                                 30000);
        saveGridShots(*window_);
    }

    // The run's tabs carry the clscope-cli command line that reproduces it: run, it writes the
    // spots the panel shows; the tab menu copies it; the Results export carries it.
    void tabsCarryTheCommandLine() {
        SpotsPanel* sp = panel();
        QVERIFY(sp && sp->presenter().hasRun());
        const ResultsPanel& results = window_->workbench().results();
        const ResultTab* tab = results.currentTab();
        QVERIFY(tab && tab->algorithm == "spots");
        const QString command = tab->commandLine;
        QVERIFY2(command.startsWith("clscope-cli spots ") && command.contains("--variant cpu"),
                 qPrintable(command));
        QStringList args = QProcess::splitCommand(command);
        args.removeFirst();
        const QString out = dir_.filePath("cli-spots.h5");
        args[args.indexOf("OUT.h5")] = out;
        QProcess cli;
        cli.start(qEnvironmentVariable("CLSCOPE_CLI"), args);
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const spots::Result& run = sp->presenter().run();
        const H5Reader h5(out.toStdString());
        const Array xs = h5.read("/spots/x"), signalArray = h5.read("/spots/signal");
        const auto x = xs.as<double>();
        QCOMPARE(x.size(), run.spots.size());
        for (std::size_t i = 0; i < run.spots.size(); ++i)
            QCOMPARE(x[i], run.spots[i].x);
        const auto signal = signalArray.as<std::uint8_t>();
        QCOMPARE(std::vector<std::uint8_t>(signal.begin(), signal.end()), run.signal);
        std::unique_ptr<QMenu> menu(results.tabMenu(results.tabWidget()->currentIndex(), nullptr));
        QAction* copy = menu->actions().front();
        QCOMPARE(copy->text(), QString("Copy command line"));
        copy->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), command);
        const QString exported = dir_.filePath("results.h5");
        results.exportHdf5(exported);
        QCOMPARE(H5Reader(exported.toStdString()).stringAttribute("/", "command_line").value_or(""),
                 command.toStdString());
    }

    // Signal mask, spot table (HDF5 and CSV) and phil read back equal; stale runs refuse.
    void exportsReadBack() {
        SpotsPanel* sp = panel();
        QVERIFY(sp && sp->presenter().hasRun());
        const spots::Result& run = sp->presenter().run();
        const QString mask = dir_.filePath("signal.h5"), table = dir_.filePath("spots.h5"),
                      csv = dir_.filePath("spots.csv"), phil = dir_.filePath("find_spots.phil");
        QVERIFY(sp->exportSignalMask(mask));
        QVERIFY(sp->exportSpotTable(table));
        QVERIFY(sp->exportSpotTable(csv));
        QVERIFY(sp->exportPhil(phil));
        const H5Reader m(mask.toStdString());
        const Array signal = m.read("/spots/signal");
        QCOMPARE(signal.shape(), (Shape{3, 300, 280}));
        const auto values = signal.as<std::uint8_t>();
        QCOMPARE(std::vector<std::uint8_t>(values.begin(), values.end()), run.signal);
        const H5Reader t(table.toStdString());
        const Array xs = t.read("/spots/x"), boxes = t.read("/spots/bbox"),
                    frames = t.read("/spots/frame");
        const auto x = xs.as<double>();
        const auto bbox = boxes.as<std::int32_t>();
        const auto frame = frames.as<std::int32_t>();
        QCOMPARE(x.size(), run.spots.size());
        for (std::size_t i = 0; i < run.spots.size(); ++i) {
            QCOMPARE(x[i], run.spots[i].x);
            QCOMPARE(frame[i], run.spots[i].frame);
            QCOMPARE(bbox[4 * i + 2], run.spots[i].x1);
        }
        QCOMPARE(t.read("/spots/intensity").as<double>()[0], run.spots[0].intensity);
        // Issue 23, defect 5: the spot table says where it came from.
        QCOMPARE(t.stringAttribute("/", "variant").value_or(""), sp->variant());
        QVERIFY(t.stringAttribute("/", "command_line").value_or("").rfind("clscope-cli spots", 0) ==
                0);
        QVERIFY(t.stringAttribute("/", "parameters").has_value());
        QVERIFY(t.stringAttribute("/", "clscope_version").has_value());
        QFile text(csv);
        QVERIFY(text.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = text.readAll().trimmed().split('\n');
        QCOMPARE(lines.front(), QByteArray("frame,x,y,npix,intensity,x0,y0,x1,y1"));
        QCOMPARE(std::size_t(lines.size()), run.spots.size() + 1);
        QCOMPARE(lines[1].split(',')[1].toDouble(), run.spots[0].x);
        QFile snippet(phil);
        QVERIFY(snippet.open(QIODevice::ReadOnly));
        QCOMPARE(snippet.readAll().toStdString(), spots::philSnippet(sp->params()));
        sigmaStrong(sp)->setValue(4.0);
        QVERIFY(!sp->exportSpotTable(dir_.filePath("stale.csv")));
        QVERIFY(!QFile::exists(dir_.filePath("stale.csv")));
        QTRY_VERIFY_WITH_TIMEOUT(!sp->live()->isPending() && !window_->workbench().jobs().isBusy(),
                                 30000);
        window_.reset();
    }

    // Pixels flipped in run b on frame 1 are exactly the marked ones, in the view too.
    void differenceMarksDisagreeingPixels() {
        spots::SpotsResult a, b;
        a.result = spots::runCpu({data_.frames, data_.mask}, spots::Params{});
        b.result = a.result;
        const std::size_t plane = data_.frames.frameSize(), width = data_.frames.width();
        std::size_t on = 0;
        while (a.result.signal[plane + on] == 0)
            ++on; // a signal pixel of frame 1, dropped in b
        const std::vector<std::size_t> flipped{on, 5 * width + 7, 299 * width + 279};
        for (std::size_t k : flipped)
            b.result.signal[plane + k] ^= 1;
        const SignalDifference d = signalDifference(a.result, b.result, 1);
        QCOMPARE(d.totalDiffering, flipped.size());
        QCOMPARE(*d.firstDifferingFrame, std::size_t(1));
        std::size_t wasSignal = 0; // flipped pixels that were signal in a: now only in a
        for (std::size_t k : flipped)
            wasSignal += a.result.signal[plane + k];
        QCOMPARE(d.onlyA, wasSignal);
        QCOMPARE(d.onlyB, flipped.size() - wasSignal);
        for (std::size_t k = 0; k < plane; ++k) {
            const bool marked = d.labels[k] != 0;
            QCOMPARE(marked, std::find(flipped.begin(), flipped.end(), k) != flipped.end());
        }
        QCOMPARE(d.labels[on], 1);
        QCOMPARE(signalDifference(a.result, b.result, 0).labels,
                 std::vector<std::int32_t>(plane, 0));
        const AlgorithmPanelSpec* spec = AlgorithmPanelRegistry::instance().find("spots");
        QVERIFY(spec && spec->differenceView);
        std::unique_ptr<QWidget> widget(spec->differenceView(a, b));
        auto* view = qobject_cast<SpotsDifferenceView*>(widget.get());
        QVERIFY(view);
        QCOMPARE(view->frameBox()->value(), 1); // opens on the first frame that differs
        std::size_t shown = 0;
        for (std::size_t k = 0; k < plane; ++k)
            shown += view->layer()->labelAt(k % width, k / width) != 0;
        QCOMPARE(shown, flipped.size());
        QCOMPARE(view->layer()->labelAt(7, 5), a.result.signal[plane + 5 * width + 7] ? 1 : 2);
        spots::SpotsResult small;
        small.result.shape = {1, 2, 2}, small.result.signal.assign(4, 0);
        QVERIFY_THROWS_EXCEPTION(InputError, signalDifference(a.result, small.result, 0));
    }

    // A run over frames 1.. (the Run box's frame range): its spots' frames count from its first
    // frame, as clscope-cli --frames writes them; a click on one goes to its frame in the file.
    void frameRangeRunGoesToTheSpotsFrame() {
        SpotsPanel* sp = freshWindowOnTheFile();
        QVERIFY(sp);
        sp->setFrameRange({1, 0});
        QSignalSpy finished(sp, &SpotsPanel::runFinished);
        QVERIFY(sp->run());
        QVERIFY(finished.wait(120000));
        QVERIFY(finished.front().front().toBool());
        QVERIFY(sp->presenter().rowCount() > 0);
        sp->tableView()->table()->selectRow(0);
        const spots::Spot& s = sp->presenter().spotAtRow(0);
        QCOMPARE(sp->frame(), std::size_t(s.peakFrame + 1));
        QTRY_VERIFY_WITH_TIMEOUT(!sp->live()->isPending() && !window_->workbench().jobs().isBusy(),
                                 30000);
        window_.reset();
    }

    // Issue 53: a run whose experiment list is a grid scan's (dials.import grid_size=3,1) lays
    // its heat map on that grid, not the square guess (2 × 2 for 3 images); the Log says so.
    void gridFromTheExperimentList() {
        SpotsPanel* sp = freshWindowOnTheFile();
        QVERIFY(sp);
        const QString expt = dir_.filePath("grid.expt");
        test::ExptPanel geometry{{1.0, 0.0, 0.0},
                                 {-10.5, 11.25, -100.0},
                                 0.075,
                                 data_.frames.width(),
                                 data_.frames.height(),
                                 1.0,
                                 3,
                                 1};
        writeFileAtomically(expt.toStdString(), test::exptText(geometry));
        sp->form()->setValue("expt", expt.toStdString());
        QSignalSpy finished(sp, &SpotsPanel::runFinished);
        QVERIFY(sp->run());
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.front().front().toBool(),
                 qPrintable(window_->findChild<LogPanel*>()->text().right(600)));
        QVERIFY(sp->gridView());
        const spots::GridScan grid = sp->gridView()->grid();
        QCOMPARE(grid.rows, std::size_t(1));
        QCOMPARE(grid.columns, std::size_t(3));
        QVERIFY(window_->findChild<LogPanel*>()->text().contains(
            "grid scan of 1 rows × 3 columns from the experiment list"));
        sp->form()->setValue("expt", nullptr); // the next window's panel reads its settings
        QTRY_VERIFY_WITH_TIMEOUT(!sp->live()->isPending() && !window_->workbench().jobs().isBusy(),
                                 30000);
        window_.reset();
    }

    void demoRunsOk() {
        const QString png = dir_.filePath("demo-spots.png");
        QProcess process;
        process.start(guiBinary(), {"--demo", "spots", "--screenshot", png});
        QVERIFY(process.waitForFinished(300000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY(!QImage(png).isNull());
    }

    void demoWhoseRunFailsExitsNonZero() {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("CLSCOPE_DEMO_VARIANT", "nosuch");
        process.setProcessEnvironment(env);
        process.start(guiBinary(),
                      {"--demo", "spots", "--screenshot", dir_.filePath("demo-failed.png")});
        QVERIFY(process.waitForFinished(300000));
        QCOMPARE(process.exitCode(), 4);
    }
};

QTEST_MAIN(TestUiSpots)
#include "tst_ui_spots.moc"
