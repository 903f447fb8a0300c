// The ROI dock (issue 53, ui/roi/roi_view.hpp) in the main window on a small xpcs file: a
// rectangle dragged on the image with the mouse and a ring typed into the table become the
// regions (outlined as the "ROIs" overlay), Compute gives the series core/roi gives, the copied
// command line run by clscope-cli writes the same sums, a bad cell is put back with the reason,
// and the regions are there again in a new window (QSettings). CLSCOPE_TEST_SCREENSHOT: PNGs.
#include "core/frame_stream.hpp"
#include "core/roi/roi.hpp"
#include "gpu/command_line.hpp"
#include "test_util.hpp"
#include "ui/app/main_window.hpp"
#include "ui/image/image_view.hpp"
#include "ui/image/overlay_layer.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/roi/roi_view.hpp"
#include "ui_test_helpers.hpp"

#include <QComboBox>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;

class TestUiRoi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString file_;

  private slots:
    void initTestCase() {
        test::useTemporarySettings(dir_);
        file_ = QString::fromStdString(test::writeSmallXpcs(dir_, 12, 30, 40));
    }

    void drawComputeAndRerun() {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(file_));
        ImageView& image = window.workbench().image();
        QTRY_VERIFY(image.presenter().hasImage());
        window.dock("RoiPanel")->show();
        window.dock("RoiPanel")->raise();
        window.dock("ImagePanel")->raise();
        auto* view = window.findChild<RoiView*>();
        QVERIFY(view);
        view->setRegions({});
        // A rectangle dragged over pixels x 5..15, y 4..10 (corners inside the edge pixels).
        view->drawChoice()->setCurrentIndex(1);
        QCustomPlot* plot = image.plot();
        QTRY_VERIFY(plot->axisRect()->width() > 100);
        const auto at = [plot](double x, double y) {
            return QPoint(qRound(plot->xAxis->coordToPixel(x)),
                          qRound(plot->yAxis->coordToPixel(y)));
        };
        QTest::mousePress(plot, Qt::LeftButton, {}, at(5.3, 4.2));
        QTest::mouseMove(plot, at(14.6, 9.7));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, at(14.6, 9.7));
        QCOMPARE(view->regions().size(), std::size_t(1));
        // Another dock in front of the ROI dock: drawing stops, the image pans again.
        window.dock("LogPanel")->raise();
        QTRY_COMPARE(view->drawChoice()->currentIndex(), 0);
        QVERIFY(!image.drawingActive());
        window.dock("RoiPanel")->raise();
        QCOMPARE(QString::fromStdString(view->regions()[0].text()), QString("5,4,15,10"));
        // A ring typed: a new row, edited cell by cell through the table.
        roi::Region ring;
        ring.kind = roi::Region::Kind::Ring, ring.a = 20, ring.b = 15, ring.c = 2, ring.d = 3;
        view->addRegion(ring);
        view->table()->item(1, 4)->setText("8.5");
        QCOMPARE(view->regions()[1].d, 8.5);
        view->table()->item(1, 4)->setText("1"); // r1 below r0: put back, said
        QCOMPARE(view->regions()[1].d, 8.5);
        QCOMPARE(view->table()->item(1, 4)->text(), QString("8.5"));
        QVERIFY(image.overlay("ROIs"));
        QCOMPARE(image.overlay("ROIs")->labelAt(10, 6), 1);
        QCOMPARE(image.overlay("ROIs")->labelAt(26, 15), 2);
        // Compute: the series of core/roi on the same file.
        QSignalSpy shown(view, &RoiView::seriesShown);
        QVERIFY(view->compute());
        QVERIFY(shown.wait(30000));
        const FrameStream stream(file_.toStdString(), "/entry/data/data");
        const roi::Series expected = roi::seriesOf(stream, view->regions());
        QCOMPARE(view->series()->frames(), std::size_t(12));
        for (std::size_t r = 0; r < 2; ++r)
            QCOMPARE(view->series()->sums(r), expected.sums(r));
        QCOMPARE(view->series()->pixels(0), std::size_t(60));
        QCOMPARE(view->plot()->graphCount(), 2);
        QCOMPARE(view->plot()->graph(0)->data()->size(), 12);
        // The command line, run: the same sums in /roi/sum.
        const QString out = dir_.filePath("rerun.h5");
        const QStringList words = test::shellWords(view->commandLine(out));
        QCOMPARE(words.front(), QString("clscope-cli"));
        const auto run = test::runCli(words.mid(1));
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const Array sums = H5Reader(out.toStdString()).read("/roi/sum");
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t t = 0; t < 12; ++t)
                QCOMPARE(sums.as<double>()[r * 12 + t], expected.sum(r, t));
        // CLSCOPE_TEST_SCREENSHOT=PREFIX: PREFIX-1600x1000.png and PREFIX-1280x800.png.
        if (const QString shot = qEnvironmentVariable("CLSCOPE_TEST_SCREENSHOT"); !shot.isEmpty()) {
            window.dock("RoiPanel")->raise();
            for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
                window.resize(size);
                QTest::qWait(200);
                QVERIFY(window.grab().save(
                    QString("%1-%2x%3.png").arg(shot).arg(size.width()).arg(size.height())));
            }
        }
    }

    // The regions of the last window are those of the next.
    void regionsPersist() {
        MainWindow window;
        auto* view = window.findChild<RoiView*>();
        QCOMPARE(view->regions().size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(view->regions()[1].text()), QString("20,15,2,8.5"));
        QCOMPARE(view->regions()[1].kind, roi::Region::Kind::Ring);
    }
};

QTEST_MAIN(TestUiRoi)
#include "tst_ui_roi.moc"
