// Mask editor: the presenter without widgets (a brush stroke is one undo step, undo/redo give
// back the exact bytes, threshold, invert, shapes kept as vectors, save/load round trips,
// partition label table, readout), then the editor inside the main window (current labels,
// the file's pixel mask, a rectangle drawn with the mouse on the offscreen image view).
#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "ui/image/image_view.hpp"
#include "ui/mask/mask_panel.hpp"
#include "ui/mask/mask_presenter.hpp"
#include "ui/mask/mask_workbench_link.hpp"
#include "ui/shell/log_panel.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/workbench.hpp"
#include "ui_test_helpers.hpp"

#include <QDoubleSpinBox>
#include <QTableWidget>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;

namespace {

constexpr std::size_t H = 20, W = 24;

std::size_t maskedCount(const PixelMask& m) {
    return static_cast<std::size_t>(
        std::count_if(m.bad.begin(), m.bad.end(), [](auto v) { return v != 0; }));
}

// A (H,W) float image where pixel i holds i, with one NaN at pixel 5.
Array rampImage() {
    std::vector<double> values(H * W);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<double>(i);
    values[5] = std::nan("");
    return makeArray<double>({H, W}, values);
}

mask::Geometry smallGeometry() {
    mask::Geometry g;
    g.beamCenterX = 12.0;
    g.beamCenterY = 10.0;
    g.distance = 0.5;
    g.pixelSizeX = g.pixelSizeY = 100e-6;
    g.wavelength = 1e-10;
    return g;
}

} // namespace

class TestUiMask : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void initTestCase() { test::useTemporarySettings(dir_); }

    void brushStrokeIsOneUndoStep() {
        MaskEditorPresenter editor;
        editor.setImageSize(H, W);
        const std::vector<std::uint8_t> before = editor.mask().bad;
        editor.brushStroke(1.5, {{3, 3}, {6, 3}, {10, 4}, {10, 9}, {14, 12}});
        const std::vector<std::uint8_t> after = editor.mask().bad;
        QCOMPARE(editor.undoStack()->count(), 1);
        QVERIFY(maskedCount(editor.mask()) > 20);
        QVERIFY(editor.mask().bad[3 * W + 6] != 0); // on the path, pixel (6, 3)
        editor.undoStack()->undo();
        QCOMPARE(editor.mask().bad, before);
        editor.undoStack()->redo();
        QCOMPARE(editor.mask().bad, after);
        // A stroke that changes nothing (painting over the same pixels) records nothing.
        editor.brushStroke(1.0, {{6, 3}});
        QCOMPARE(editor.undoStack()->count(), 1);
    }

    void undoRedoRestoresExactMask() {
        MaskEditorPresenter editor;
        editor.setImageSize(H, W);
        PixelMask base{H, W, std::vector<std::uint8_t>(H * W, 0)};
        base.bad[7] = 1;
        base.bad[100] = 7; // any non-zero value is masked; undo must give back the 7
        editor.setBaseMask(base);
        std::vector<std::vector<std::uint8_t>> states{editor.mask().bad};
        editor.addShape(mask::RectShape{{2, 2}, {8, 6}});
        states.push_back(editor.mask().bad);
        editor.setEditMode(mask::EditMode::Unmask);
        editor.addShape(mask::EllipseShape{{5, 4}, 2, 1.5, 0});
        states.push_back(editor.mask().bad);
        editor.setEditMode(mask::EditMode::Mask);
        editor.threshold(rampImage(), {mask::Threshold::Above, 0, 470});
        states.push_back(editor.mask().bad);
        editor.rasterizeShapes();
        QVERIFY(editor.shapes().empty());
        states.push_back(editor.mask().bad);
        editor.brushStroke(2.0, {{20, 15}, {22, 17}});
        states.push_back(editor.mask().bad);
        editor.invert();
        states.push_back(editor.mask().bad);
        editor.clear();
        states.push_back(editor.mask().bad);
        QCOMPARE(editor.undoStack()->count(), 7);
        for (int k = 6; k >= 0; --k) {
            editor.undoStack()->undo();
            QCOMPARE(editor.mask().bad, states[static_cast<std::size_t>(k)]);
        }
        QCOMPARE(editor.paintedMask().bad, base.bad); // byte for byte, the 7 included
        for (std::size_t k = 1; k < states.size(); ++k) {
            editor.undoStack()->redo();
            QCOMPARE(editor.mask().bad, states[k]);
        }
    }

    void thresholdAndInvert() {
        MaskEditorPresenter editor;
        editor.setImageSize(H, W);
        editor.threshold(rampImage(), {mask::Threshold::Below, 10, 0});
        QCOMPARE(maskedCount(editor.mask()), std::size_t(9)); // 0..9 without the NaN at 5
        QVERIFY(editor.mask().bad[5] == 0);
        editor.threshold(rampImage(), {mask::Threshold::NotANumber, 0, 0});
        QVERIFY(editor.mask().bad[5] != 0);
        editor.threshold(rampImage(), {mask::Threshold::Between, 100, 104});
        editor.threshold(rampImage(), {mask::Threshold::Above, 0, 470});
        QCOMPARE(maskedCount(editor.mask()), std::size_t(10 + 5 + 9)); // 471..479
        const std::vector<std::uint8_t> before = editor.mask().bad;
        editor.invert();
        for (std::size_t i = 0; i < H * W; ++i)
            QCOMPARE(editor.mask().bad[i] != 0, before[i] == 0);
        // Unmask mode takes pixels out again.
        editor.setEditMode(mask::EditMode::Unmask);
        editor.threshold(rampImage(), {mask::Threshold::Between, 0, 479});
        QCOMPARE(maskedCount(editor.mask()), std::size_t(0)); // the NaN pixel was inverted to good
        QCOMPARE(editor.undoStack()->count(), 6);
    }

    void shapesStayEditableUntilRasterised() {
        MaskEditorPresenter editor;
        editor.setImageSize(H, W);
        editor.addShape(mask::RectShape{{0, 0}, {4, 2}});
        editor.addShape(mask::PolygonShape{{{10, 10}, {16, 10}, {13, 16}}});
        QCOMPARE(editor.shapes().size(), std::size_t(2));
        QCOMPARE(maskedCount(editor.paintedMask()), std::size_t(0)); // only vectors so far
        QCOMPARE(maskedCount(editor.mask()),
                 std::size_t(8) + mask::rasterize(editor.shapes()[1].shape, H, W).size());
        editor.setShapeMode(0, mask::EditMode::Unmask);
        QCOMPARE(maskedCount(editor.mask()),
                 mask::rasterize(editor.shapes()[1].shape, H, W).size());
        editor.removeShape(1);
        QCOMPARE(maskedCount(editor.mask()), std::size_t(0));
        editor.undoStack()->undo();
        editor.undoStack()->undo();
        QCOMPARE(editor.shapes()[0].mode, mask::EditMode::Mask);
        editor.rasterizeShapes();
        QVERIFY(editor.shapes().empty());
        QCOMPARE(editor.paintedMask().bad, editor.mask().bad);
        QCOMPARE(editor.undoStack()->count(), 3); // add, add, rasterise
    }

    void saveLoadRoundTrip_data() {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("hdf5") << "h5";
        QTest::newRow("npy") << "npy";
    }
    void saveLoadRoundTrip() {
        QFETCH(QString, suffix);
        MaskEditorPresenter editor;
        editor.setImageSize(H, W);
        editor.setGeometry(smallGeometry());
        editor.applyPartition({mask::BinAxis::Radius, mask::BinSpacing::Linear, 0, 10, 5, 2, 0});
        editor.addShape(mask::EllipseShape{{6, 6}, 3, 2, 30});
        editor.threshold(rampImage(), {mask::Threshold::Above, 0, 400});
        const QString maskFile = dir_.filePath("mask." + suffix),
                      labelFile = dir_.filePath("labels." + suffix);
        editor.saveMask(maskFile);
        editor.saveLabels(labelFile);
        const PixelMask saved = editor.mask();
        const LabelMask labels = editor.combinedLabels();
        const auto rows = editor.labelRows();

        MaskEditorPresenter loaded;
        loaded.setImageSize(H, W);
        loaded.loadMask(maskFile);
        QCOMPARE(loaded.mask().bad, saved.bad);
        QCOMPARE(loaded.undoStack()->count(), 1); // loading is one undo step
        loaded.loadLabels(labelFile);
        QCOMPARE(loaded.combinedLabels().labels, labels.labels);
        if (suffix == "h5") {
            // HDF5 keeps the label table and the geometry beside the labels.
            QCOMPARE(loaded.labelRows().size(), rows.size());
            for (std::size_t k = 0; k < rows.size(); ++k)
                QCOMPARE(loaded.labelRows()[k].q, rows[k].q);
            QCOMPARE(loaded.geometry().distance, 0.5);
            QCOMPARE(mask::readMaskFile(labelFile.toStdString()).pixelMask->bad, saved.bad);
        }
        QVERIFY_THROWS_EXCEPTION(std::exception,
                                 loaded.loadMask(dir_.filePath("missing." + suffix)));
    }

    void partitionLabelTable() {
        MaskEditorPresenter editor;
        editor.setImageSize(H, W);
        editor.setGeometry(smallGeometry());
        const mask::PixelQMap& qmap = editor.qMap();
        const double qmax = *std::max_element(qmap.q.begin(), qmap.q.end()) + 1e-9;
        editor.applyPartition({mask::BinAxis::Q, mask::BinSpacing::Linear, 0, qmax, 4, 1, 0});
        const std::vector<LabelRow> rows = editor.labelRows();
        QCOMPARE(rows.size(), std::size_t(4));
        for (int k = 0; k < 4; ++k) {
            std::int64_t count = 0;
            for (double q : qmap.q)
                count += (q >= qmax * k / 4 && q < qmax * (k + 1) / 4) ? 1 : 0;
            QCOMPARE(rows[k].label, k + 1);
            QCOMPARE(rows[k].pixels, count);
            QVERIFY(std::abs(rows[k].q - qmax * (k + 0.5) / 4) < 1e-12);
            QVERIFY(std::isnan(rows[k].phi));
        }
        // Masking pixels takes them out of the counts, not out of the table.
        editor.addShape(mask::RectShape{{0, 0}, {24, 20}});
        for (const LabelRow& row : editor.labelRows())
            QCOMPARE(row.pixels, std::int64_t(0));
        // Sectors: 2 rings x 4 sectors, phi centres 45, 135, -135, -45 (in (-180, 180]).
        editor.applyPartition({mask::BinAxis::Radius, mask::BinSpacing::Linear, 0, 8, 2, 4, 0});
        QCOMPARE(editor.labelRows().size(), std::size_t(8));
        QCOMPARE(editor.partition()->centers.labelIds.back(), 8);
    }

    void readoutNamesQAndPhi() {
        MaskEditorPresenter editor;
        editor.setImageSize(H, W);
        editor.setGeometry(smallGeometry());
        // Pixel (17, 10): centre (17.5, 10.5), 5.5 px right of and 0.5 px below the beam.
        const mask::PixelAngles a = mask::anglesAt(smallGeometry(), 17.5, 10.5);
        // Issue 23 defect 7: the d-spacing, d = 2π/q, as diffraction viewers show it.
        QCOMPARE(editor.pixelReadout(17, 10), QString("q %1 nm⁻¹  φ %2°  d %3 Å")
                                                  .arg(a.q, 0, 'f', 4)
                                                  .arg(a.phi, 0, 'f', 1)
                                                  .arg(2 * M_PI / a.q * 10, 0, 'g', 4));
        QCOMPARE(mask::dSpacingAngstrom(2 * M_PI), 10.0); // q = 2π nm⁻¹: d = 1 nm
        QVERIFY(std::abs(a.phi - std::atan2(0.5, 5.5) * 180 / M_PI) < 1e-9);
        QVERIFY(editor.pixelReadout(W, 0).isEmpty());
        editor.applyPartition({mask::BinAxis::Radius, mask::BinSpacing::Linear, 0, 10, 1, 4, 0});
        QVERIFY(editor.labelText(1).startsWith("q bin 1: q̄ "));
        QVERIFY(editor.labelText(1).endsWith(", φ̄ 45.0°"));
    }

    // The editor inside the main window: current labels, overlay, readout, the file's mask.
    void editorSetsCurrentLabels() {
        const QString file = QString::fromStdString(test::writeSmallXpcs(dir_));
        MainWindow window;
        QVERIFY(window.openFile(file));
        Workbench& wb = window.workbench();
        MaskEditorPresenter& editor = window.maskPanel()->editor();
        QCOMPARE(editor.height(), H);
        QCOMPARE(editor.width(), W);
        QSignalSpy changed(&wb, &Workbench::currentLabelsChanged);
        editor.applyPartition({mask::BinAxis::Radius, mask::BinSpacing::Linear, 0, 10, 5, 2, 0});
        editor.addShape(mask::RectShape{{0, 0}, {12, 10}});
        QVERIFY(changed.count() >= 2);
        const CurrentLabels current = wb.currentLabels();
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

    // New geometry: a q partition takes the q range of whole rings under it, not the old values.
    void qRangeFollowsGeometry() {
        MaskEditorPresenter editor;
        editor.setImageSize(H, W);
        editor.setGeometry(smallGeometry());
        const auto [low, high] = editor.fittingRange(mask::BinAxis::Q, mask::BinSpacing::Linear);
        QCOMPARE(low, 0.0);
        const auto& qs = editor.qMap().q;
        QCOMPARE(high, std::nextafter(*std::max_element(qs.begin(), qs.end()), 1.0));
        editor.applyPartition({mask::BinAxis::Q, mask::BinSpacing::Linear, low, high, 4, 1, 0});
        const std::vector<std::int32_t> before = editor.partition()->labels.labels;
        mask::Geometry farther = smallGeometry();
        farther.distance = 2.0; // four times the distance: q about four times smaller
        editor.setGeometry(farther);
        const auto& farQs = editor.qMap().q;
        const double expected = std::nextafter(*std::max_element(farQs.begin(), farQs.end()), 1.0);
        QCOMPARE(editor.partitionSpec()->max, expected);
        QVERIFY(expected < high / 3);
        // Same rings in pixels, since the range scaled with the geometry.
        QCOMPARE(editor.partition()->labels.labels, before);
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
        QVERIFY(std::abs(window.maskPanel()->rangeMaximum()->value() - high) < 1e-4);
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
        const QString file = QString::fromStdString(test::writeSmallXpcs(dir_));
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(file));
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

QTEST_MAIN(TestUiMask)
#include "tst_ui_mask.moc"
