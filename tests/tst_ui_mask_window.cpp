// The mask editor inside the main window: current labels, the applied partition drawn and read
// under the cursor, a kept mask said in the Log, the file's pixel mask, a rectangle drawn with
// the mouse on the offscreen image view, the docs' screenshot. The presenter: tst_ui_mask.cpp.
#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "tst_ui_mask.hpp"
#include "ui/app/main_window.hpp"
#include "ui/base/q_unit.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/log_panel.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/mask_panel.hpp"
#include "ui/mask/mask_presenter.hpp"
#include "ui/mask/mask_workbench_link.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui_test_helpers.hpp"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;
using namespace clscope::test;

class TestUiMaskWindow : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // The window shown at width x height with a small xpcs file open.
    bool showWithSmallXpcs(MainWindow& window, int width, int height) {
        window.resize(width, height);
        window.show();
        return QTest::qWaitForWindowExposed(&window) &&
               window.openFile(QString::fromStdString(test::writeSmallXpcs(dir_)));
    }

  private slots:
    void initTestCase() { test::useTemporarySettings(dir_); }

    // The editor inside the main window: current labels, overlay, readout, the file's mask.
    void editorSetsCurrentLabels() {
        const QString file = QString::fromStdString(test::writeSmallXpcs(dir_));
        MainWindow window;
        QVERIFY(window.openFile(file));
        Workbench& wb = window.workbench();
        MaskEditorPresenter& editor = window.maskPanel()->editor();
        QCOMPARE(editor.height(), H);
        QCOMPARE(editor.width(), W);
        QSignalSpy changed(&QBinLabels::of(wb), &QBinLabels::changed);
        editor.applyPartition({mask::BinAxis::Radius, mask::BinSpacing::Linear, 0, 10, 5, 2, 0});
        editor.addShape(mask::RectShape{{0, 0}, {12, 10}});
        QVERIFY(changed.count() >= 2);
        const CurrentLabels current = QBinLabels::of(wb).current();
        QCOMPARE(current.origin, QString("mask editor"));
        QVERIFY(current.mask && current.centres);
        QCOMPARE(current.centres->labelIds.size(), std::size_t(10));
        const auto& partition = editor.partition()->labels.labels;
        for (std::size_t i = 0; i < H * W; ++i)
            QCOMPARE(current.mask->labels[i], editor.mask().bad[i] ? 0 : partition[i]);
        QCOMPARE(current.mask->labels[0], 0);
        QVERIFY(partition[9 * W + 11] != 0 && current.mask->labels[9 * W + 11] == 0); // masked -> 0
        QCOMPARE(window.maskPanel()->labelTable()->rowCount(), 10);
        // The image view shows the editor's bins and reads out q and phi.
        ImageView& image = wb.image();
        QVERIFY(image.overlay("q bins")->contourMap());
        const QString readout = image.readoutAt(15.5, 12.5);
        QVERIFY2(readout.contains(editor.pixelReadout(15, 12)), qPrintable(readout));
        QVERIFY2(readout.contains("q bin "), qPrintable(readout));
        QVERIFY(std::isnan(image.presenter().image().at(3, 3))); // masked pixels shown masked
    }

    // Issue 23 defect 2: the applied partition (not the file's rings) is what the image draws
    // and the cursor reads; the default q range reaches the farthest unmasked pixel, so a
    // 12 x 4 partition from it has no empty label.
    void appliedPartitionIsDrawn() {
        const QString file = QString::fromStdString(test::writeSmallXpcs(dir_));
        MainWindow window;
        QVERIFY(window.openFile(file));
        MaskEditorPresenter& editor = window.maskPanel()->editor();
        ImageView& image = window.workbench().image();
        const auto [low, high] = editor.fittingRange(mask::BinAxis::Q, mask::BinSpacing::Linear);
        QCOMPARE(editor.geometrySource(), QString("file"));
        // The panel's default maximum is that of the file's geometry, not the default one's.
        QVERIFY(std::abs(window.maskPanel()->rangeMaximum()->value() - qShown(high)) < 1e-5);
        editor.applyPartition({mask::BinAxis::Q, mask::BinSpacing::Linear, low, high, 12, 4, 0});
        QCOMPARE(editor.labelRows().size(), std::size_t(48));
        for (const LabelRow& row : editor.labelRows())
            QVERIFY2(row.pixels > 0, qPrintable(QString("label %1 is empty").arg(row.label)));
        const OverlayLayer* bins = image.overlay("q bins");
        QVERIFY(bins);
        const LabelMask& shown = editor.combinedLabels();
        for (std::size_t y = 0; y < H; ++y)
            for (std::size_t x = 0; x < W; ++x)
                QCOMPARE(bins->labelAt(x, y), shown.labels[y * W + x]);
        const std::int32_t label = shown.labels[3 * W + 20];
        QVERIFY(label != 0);
        const QString readout = image.readoutAt(20.5, 3.5);
        QVERIFY2(readout.contains(editor.labelText(label)), qPrintable(readout));
    }

    // Issue 52 item 5: one unit for q on screen. The readout, the label table and the partition
    // axis said nm⁻¹ while the XPCS legend, Fits and Γ vs q² said Å⁻¹ on the same file.
    void oneUnitOfQOnScreen() {
        MainWindow window;
        QVERIFY(showWithSmallXpcs(window, 1600, 1000));
        MaskPanel& panel = *window.maskPanel();
        MaskEditorPresenter& editor = panel.editor();
        const auto [low, high] = editor.fittingRange(mask::BinAxis::Q, mask::BinSpacing::Linear);
        QVERIFY(std::abs(panel.rangeMaximum()->value() - qShown(high)) < 1e-5);
        panel.rangeMinimum()->setValue(qShown(low));
        panel.rangeMaximum()->setValue(qShown(high));
        panel.findChild<QPushButton*>("applyPartition")->click();
        QCOMPARE(editor.partitionSpec()->max, qInverseNm(panel.rangeMaximum()->value()));
        const LabelRow row = editor.labelRows().front();
        QCOMPARE(panel.labelTable()->item(0, 2)->text(), QString::number(qShown(row.q), 'f', 5));
        const QString readout = window.workbench().image().readoutAt(15.5, 12.5);
        QVERIFY2(readout.contains(editor.pixelReadout(15, 12)) && readout.contains(" Å⁻¹  φ "),
                 qPrintable(readout));
        QStringList texts{readout, panel.labelTable()->horizontalHeaderItem(2)->text()};
        for (const QLabel* label : window.findChildren<QLabel*>())
            texts << label->text();
        for (const QComboBox* box : window.findChildren<QComboBox*>())
            for (int i = 0; i < box->count(); ++i)
                texts << box->itemText(i);
        QVERIFY2(!texts.join('|').contains("nm⁻¹"), qPrintable(texts.filter("nm⁻¹").join('|')));
        QVERIFY2(texts.filter(qUnit).size() >= 3, qPrintable(texts.filter(qUnit).join('|')));
    }

    // Issue 38 item 7: with Results tabbed over the Image (as the demos leave it), Ctrl+M
    // showed the mask editor beside a hidden Image; the Image comes to the front and Results
    // goes back beside it, both seen.
    void maskEditorBringsTheImage() {
        MainWindow window;
        QVERIFY(showWithSmallXpcs(window, 1600, 1000));
        QDockWidget *image = window.dock("ImagePanel"), *results = window.dock("ResultsPanel");
        window.tabifyDockWidget(image, results);
        results->show();
        results->raise();
        QTRY_VERIFY(image->visibleRegion().isEmpty());
        window.focusMaskPanel();
        QTRY_VERIFY(!image->visibleRegion().isEmpty());
        QTRY_VERIFY(!results->visibleRegion().isEmpty());
        QVERIFY(!window.tabifiedDockWidgets(image).contains(results));
    }

    // The partition from the keyboard alone, as the mnemonics promise: Alt+P (the Partition
    // tab), Alt+B (bins), Alt+E (φ sectors), Alt+A (Apply) give 12 x 4 = 48 labels.
    void partitionFromTheKeyboard() {
        MainWindow window;
        QVERIFY(showWithSmallXpcs(window, 1600, 1000));
        window.focusMaskPanel();
        auto alt = [&](Qt::Key key) {
            QWidget* to = QApplication::focusWidget() ? QApplication::focusWidget() : &window;
            QTest::keyClick(to, key, Qt::AltModifier);
        };
        auto type = [](const char* text) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_A, Qt::ControlModifier);
            QTest::keyClicks(QApplication::focusWidget(), text);
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        };
        alt(Qt::Key_P);
        alt(Qt::Key_B);
        QVERIFY(qobject_cast<QSpinBox*>(QApplication::focusWidget()));
        type("12");
        alt(Qt::Key_E);
        type("4");
        alt(Qt::Key_A);
        QTRY_COMPARE(window.maskPanel()->editor().labelRows().size(), std::size_t(48));
        QCOMPARE(window.maskPanel()->labelTable()->rowCount(), 48);
    }

    // A second file of the same size keeps the drawn mask, and the Log says so.
    void keptMaskIsSaid() {
        const QString file = QString::fromStdString(test::writeSmallXpcs(dir_));
        MainWindow window;
        QVERIFY(window.openFile(file));
        window.maskPanel()->editor().addShape(mask::RectShape{{0, 0}, {4, 4}});
        auto* log = window.findChild<LogPanel*>();
        QVERIFY(log && !log->text().contains("kept for"));
        QVERIFY(window.openFile(file));
        QVERIFY2(log->text().contains("mask editor: the mask and partition drawn before are kept"),
                 qPrintable(log->text()));
    }

    void filePixelMaskIsLoaded() {
        const std::string path = dir_.filePath("with-mask.h5").toStdString();
        PixelMask bad{H, W, std::vector<std::uint8_t>(H * W, 0)};
        bad.bad[3 * W + 4] = 1;
        bad.bad[17 * W + 20] = 1;
        {
            H5Writer out(path);
            out.write(paths::frames, makeArray<std::uint16_t>(
                                         {2, H, W}, std::vector<std::uint16_t>(2 * H * W, 3)));
            out.write(paths::pixelMask, pixelMaskArray(bad));
            mask::writeGeometry(out, smallGeometry());
            out.commit();
        }
        MainWindow window;
        QVERIFY(window.openFile(QString::fromStdString(path)));
        MaskEditorPresenter& editor = window.maskPanel()->editor();
        QCOMPARE(editor.mask().bad, bad.bad);
        QCOMPARE(editor.undoStack()->count(), 0);
        QCOMPARE(editor.geometrySource(), QString("file"));
        QCOMPARE(editor.geometry().distance, 0.5);
        // The file's own mask is not a drawing: opening the file again warns of nothing kept.
        QVERIFY(window.openFile(QString::fromStdString(path)));
        auto* log = window.findChild<LogPanel*>();
        QVERIFY2(log && !log->text().contains("kept for"), qPrintable(log->text()));
    }

    // A real drag on the offscreen view with the rectangle tool.
    void mouseDragDrawsRectangle() {
        MainWindow window;
        QVERIFY(showWithSmallXpcs(window, 1400, 900));
        ImageView& image = window.workbench().image();
        image.fitImage();
        QCustomPlot* plot = image.plot();
        plot->replot();
        MaskPanel& panel = *window.maskPanel();
        panel.drawTool().setTool(MaskTool::Rectangle);
        QVERIFY(image.drawingActive());
        const QCPRange xBefore = plot->xAxis->range();
        auto at = [plot](double x, double y) {
            return QPoint(qRound(plot->xAxis->coordToPixel(x)),
                          qRound(plot->yAxis->coordToPixel(y)));
        };
        QTest::mousePress(plot, Qt::LeftButton, {}, at(4, 3));
        QTest::mouseMove(plot, at(8, 6));
        QTest::mouseMove(plot, at(14, 11));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, at(14, 11));
        MaskEditorPresenter& editor = panel.editor();
        QCOMPARE(editor.shapes().size(), std::size_t(1));
        const auto& rect = std::get<mask::RectShape>(editor.shapes()[0].shape);
        const double tolerance = 0.5; // one screen pixel is well under a detector pixel here
        QVERIFY(std::abs(rect.corner0.x - 4) < tolerance &&
                std::abs(rect.corner0.y - 3) < tolerance);
        QVERIFY(std::abs(rect.corner1.x - 14) < tolerance &&
                std::abs(rect.corner1.y - 11) < tolerance);
        QCOMPARE(maskedCount(editor.mask()), std::size_t(10 * 8));
        QCOMPARE(plot->xAxis->range().lower, xBefore.lower); // the drag did not pan
        editor.undoStack()->undo();
        QVERIFY(editor.shapes().empty());
    }

    // Issue 52: at 1280×800 the Geometry tab's buttons (Import PONI…, Export PONI…, From file)
    // were cut in half by the bottom of the short Mask dock: each is whole in view. With
    // CLSCOPE_TEST_SHOTS=DIR: DIR/mask-geometry-1280x800.png and -1600x1000.png.
    void geometryButtonsFitAt1280x800() {
        MainWindow window;
        QVERIFY(showWithSmallXpcs(window, 1280, 800));
        window.focusMaskPanel();
        MaskPanel& panel = *window.maskPanel();
        panel.showTab("Geometry");
        QCoreApplication::processEvents();
        QPushButton* fromFile = nullptr;
        for (QPushButton* b : panel.findChildren<QPushButton*>())
            if (b->text() == "From file") fromFile = b;
        QVERIFY(fromFile && fromFile->isVisible());
        QScrollArea* area = nullptr;
        for (QWidget* w = fromFile->parentWidget(); w && !area; w = w->parentWidget())
            area = qobject_cast<QScrollArea*>(w);
        QVERIFY(area);
        for (QPushButton* b : fromFile->parentWidget()->findChildren<QPushButton*>()) {
            const QRect in(b->mapTo(area->viewport(), QPoint(0, 0)), b->size());
            QVERIFY2(area->viewport()->rect().contains(in),
                     qPrintable(QString("%1 at (%2, %3)–(%4, %5), the tab shows %6×%7 px")
                                    .arg(b->text())
                                    .arg(in.left())
                                    .arg(in.top())
                                    .arg(in.right())
                                    .arg(in.bottom())
                                    .arg(area->viewport()->width())
                                    .arg(area->viewport()->height())));
        }
        const QString dir = qEnvironmentVariable("CLSCOPE_TEST_SHOTS");
        if (dir.isEmpty()) return;
        window.grab().save(dir + "/mask-geometry-1280x800.png");
        window.resize(1600, 1000);
        QTest::qWait(200);
        window.grab().save(dir + "/mask-geometry-1600x1000.png");
    }

    // Docs only: CLSCOPE_MASK_SCREENSHOT=OUT.png CLSCOPE_MASK_FILE=x.h5 (the seed's synthetic
    // xpcs file) under xvfb-run with QT_QPA_PLATFORM=xcb writes docs/screenshot-mask.png.
    void screenshot() {
        const QString out = qEnvironmentVariable("CLSCOPE_MASK_SCREENSHOT");
        const QString file = qEnvironmentVariable("CLSCOPE_MASK_FILE");
        if (out.isEmpty() || file.isEmpty())
            QSKIP("set CLSCOPE_MASK_SCREENSHOT and CLSCOPE_MASK_FILE");
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(file));
        ImageView& image = window.workbench().image();
        image.controls()->setReduction(Reduction::Mean, 0, 99);
        QTRY_VERIFY_WITH_TIMEOUT(!image.isReducing(), 60000); // 100 frames reduce on a worker
        MaskPanel& panel = *window.maskPanel();
        MaskEditorPresenter& editor = panel.editor();
        editor.applyPartition({mask::BinAxis::Q, mask::BinSpacing::Linear, 0.04, 0.46, 10, 4, 45});
        editor.addShape(mask::RectShape{{114, 0}, {127, 100}});                // a beamstop arm
        editor.threshold(shownImage(image), {mask::Threshold::Below, 1.6, 0}); // dim pixels
        editor.addShape(
            mask::PolygonShape{{{30, 150}, {70, 140}, {75, 185}, {40, 190}}}); // still a vector
        window.focusMaskPanel();
        panel.showTab("Tools");
        QTest::qWait(300);
        image.fitImage();
        QCustomPlot* plot = image.plot();
        const QPoint cursor(qRound(plot->xAxis->coordToPixel(170.5)),
                            qRound(plot->yAxis->coordToPixel(60.5)));
        QTest::mouseMove(plot, cursor);
        QTest::qWait(300);
        QVERIFY2(window.width() <= 1600, "the mask panel made the window wider than the screen");
        QVERIFY(window.grab().save(out, "PNG"));
    }
};

QTEST_MAIN(TestUiMaskWindow)
#include "tst_ui_mask_window.moc"
