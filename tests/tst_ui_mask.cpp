// Mask editor presenter without widgets: a brush stroke is one undo step, undo/redo give back
// the exact bytes, threshold, invert, shapes kept as vectors, save/load round trips, partition
// label table, readout, the q range following the geometry. The editor inside the main window:
// tst_ui_mask_window.cpp.
#include "tst_ui_mask.hpp"
#include "core/mask/mask_io.hpp"
#include "ui/mask/mask_presenter.hpp"
#include "ui_test_helpers.hpp"

#include <QtTest>
#include <cmath>

using namespace clscope;
using namespace clscope::ui;
using namespace clscope::test;

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
        QCOMPARE(editor.pixelReadout(17, 10), QString("q %1 Å⁻¹  φ %2°  d %3 Å")
                                                  .arg(a.q / 10, 0, 'f', 5)
                                                  .arg(a.phi, 0, 'f', 1)
                                                  .arg(2 * M_PI / a.q * 10, 0, 'g', 4));
        QCOMPARE(mask::dSpacingAngstrom(2 * M_PI), 10.0); // q = 2π nm⁻¹: d = 1 nm
        QVERIFY(std::abs(a.phi - std::atan2(0.5, 5.5) * 180 / M_PI) < 1e-9);
        QVERIFY(editor.pixelReadout(W, 0).isEmpty());
        editor.applyPartition({mask::BinAxis::Radius, mask::BinSpacing::Linear, 0, 10, 1, 4, 0});
        QVERIFY(editor.labelText(1).startsWith("q bin 1: q̄ "));
        QVERIFY(editor.labelText(1).endsWith(", φ̄ 45.0°"));
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
};

QTEST_MAIN(TestUiMask)
#include "tst_ui_mask.moc"
