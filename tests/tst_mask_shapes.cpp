// Shapes, thresholds and the diff-based edit model.
#include "tst_mask.hpp"

#include "core/errors.hpp"
#include "core/mask/edits.hpp"

#include <cmath>
#include <limits>
#include <random>

using namespace clscope;
using namespace clscope::mask;

Q_DECLARE_METATYPE(clscope::mask::MaskShape)

namespace {

PixelMask emptyMask(std::size_t height, std::size_t width) {
    return {height, width, std::vector<std::uint8_t>(height * width, 0)};
}

// Pixels where two masks differ in masked state.
std::size_t differing(const PixelMask& a, const PixelMask& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.bad.size(); ++i)
        n += (a.bad[i] != 0) != (b.bad[i] != 0);
    return n;
}

PixelSet maskedPixels(const PixelMask& m) {
    PixelSet out;
    for (std::size_t i = 0; i < m.bad.size(); ++i)
        if (m.bad[i]) out.push_back(static_cast<std::uint32_t>(i));
    return out;
}

} // namespace

void TstMask::rasterizedShapes_data() {
    QTest::addColumn<MaskShape>("shape");
    QTest::addColumn<QString>("picture"); // 5 x 5, rows apart, row 0 first
    QTest::newRow("rectangle") << MaskShape(RectShape{{1, 1}, {4, 3}})
                               << "..... .###. .###. ..... .....";
    // Corners on pixel centres: half-open, x0 <= x < x1; corners in any order.
    QTest::newRow("rectangle half-open")
        << MaskShape(RectShape{{2.5, 2.5}, {0.5, 0.5}}) << "##... ##... ..... ..... .....";
    QTest::newRow("polygon like the rectangle")
        << MaskShape(PolygonShape{{{0.5, 0.5}, {2.5, 0.5}, {2.5, 2.5}, {0.5, 2.5}}})
        << "##... ##... ..... ..... .....";
    // (i + 0.5) / 5 + (j + 0.5) / 4 < 1.
    QTest::newRow("triangle") << MaskShape(PolygonShape{{{0, 0}, {5, 0}, {0, 4}}})
                              << "####. ###.. ##... #.... .....";
    QTest::newRow("ellipse") << MaskShape(EllipseShape{{2.5, 2.5}, 2.0, 1.0, 0.0})
                             << "..... ..#.. ##### ..#.. .....";
    QTest::newRow("ellipse turned 90")
        << MaskShape(EllipseShape{{2.5, 2.5}, 2.0, 1.0, 90.0}) << "..#.. ..#.. .###. ..#.. ..#..";
    QTest::newRow("brush segment")
        << MaskShape(BrushStroke{1.0, {{1.5, 1.5}, {3.5, 1.5}}}) << ".###. ##### .###. ..... .....";
    QTest::newRow("brush dab") << MaskShape(BrushStroke{1.5, {{2.5, 2.5}}})
                               << "..... .###. .###. .###. .....";
    QTest::newRow("clipped at the edge")
        << MaskShape(RectShape{{-2, -2}, {1, 1}}) << "#.... ..... ..... ..... .....";
    QTest::newRow("degenerate polygon")
        << MaskShape(PolygonShape{{{0, 0}, {5, 5}}}) << "..... ..... ..... ..... .....";
}

void TstMask::rasterizedShapes() {
    QFETCH(MaskShape, shape);
    QFETCH(QString, picture);
    const PixelSet got = rasterize(shape, 5, 5);
    QCOMPARE(pictureOf(got, 5, 5), pictureOf(pixelsFromPicture(picture.toStdString()), 5, 5));
}

void TstMask::rasterizeAgreesWithContains() {
    // Random shapes, partly off a 7 x 9 grid: the bounding-box walk misses no centre.
    std::mt19937 rng(12345);
    std::uniform_real_distribution<double> coord(-3.0, 12.0), size(0.0, 5.0);
    const std::size_t height = 7, width = 9;
    for (int trial = 0; trial < 300; ++trial) {
        const Point a{coord(rng), coord(rng)}, b{coord(rng), coord(rng)}, c{coord(rng), coord(rng)};
        const MaskShape shapes[] = {
            RectShape{a, b}, EllipseShape{a, size(rng), size(rng), coord(rng) * 30},
            PolygonShape{{a, b, c, Point{c.x, a.y}}}, BrushStroke{size(rng) / 2, {a, b, c}}};
        for (const MaskShape& shape : shapes) {
            PixelSet expected;
            for (std::size_t p = 0; p < height * width; ++p)
                if (contains(shape, {p % width + 0.5, p / width + 0.5}))
                    expected.push_back(static_cast<std::uint32_t>(p));
            QCOMPARE(pictureOf(rasterize(shape, height, width), height, width),
                     pictureOf(expected, height, width));
        }
    }
}

void TstMask::thresholds() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Array image = makeArray<double>({2, 3}, {1, 5, nan, -2, 3, 7});
    QVERIFY((thresholdPixels(image, {Threshold::Below, 3, 0}) == PixelSet{0, 3}));
    QVERIFY((thresholdPixels(image, {Threshold::Above, 0, 4}) == PixelSet{1, 5}));
    QVERIFY((thresholdPixels(image, {Threshold::Between, 1, 5}) == PixelSet{0, 1, 4}));
    QVERIFY((thresholdPixels(image, {Threshold::NotANumber, 0, 0}) == PixelSet{2}));
    const Array counts = makeArray<std::uint16_t>({1, 4}, {0, 65535, 3, 65534});
    QVERIFY((thresholdPixels(counts, {Threshold::Above, 0, 65533}) == PixelSet{1, 3}));
    QVERIFY_THROWS_EXCEPTION(InputError, thresholdPixels(makeArray<double>({3}, {1, 2, 3}), {}));
    // Through the editor, as one undo step.
    MaskEditor editor(2, 3);
    QCOMPARE(editor.applyThreshold(image, {Threshold::NotANumber, 0, 0}, EditMode::Mask).size(),
             std::size_t(1));
    QCOMPARE(editor.mask().bad[2], std::uint8_t(1));
    QVERIFY_THROWS_EXCEPTION(InputError, editor.applyThreshold(counts, {}, EditMode::Mask));
}

void TstMask::complementAndAll() {
    QVERIFY((complement({0, 2, 3}, 6) == PixelSet{1, 4, 5}));
    QVERIFY((complement({}, 3) == allPixels(3)));
    QVERIFY(complement(allPixels(4), 4).empty());
}

void TstMask::undoRedoRestoresExactMask() {
    PixelMask initial = emptyMask(6, 7);
    initial.bad[0] = 2; // a non-zero value other than 1 comes back as it was
    MaskEditor editor(initial);
    std::vector<PixelMask> states{editor.mask()};
    editor.apply(RectShape{{1, 1}, {5, 4}}, EditMode::Mask);
    states.push_back(editor.mask());
    editor.apply(EllipseShape{{2, 2}, 2.2, 1.6, 20}, EditMode::Unmask);
    states.push_back(editor.mask());
    editor.apply(PolygonShape{{{0, 0}, {7, 0}, {0, 6}}}, EditMode::Toggle);
    states.push_back(editor.mask());
    QCOMPARE(editor.undoCount(), std::size_t(3));
    for (int k = 2; k >= 0; --k) {
        editor.undo();
        QVERIFY(editor.mask().bad == states[k].bad);
    }
    QVERIFY(!editor.canUndo());
    for (int k = 1; k <= 3; ++k) {
        editor.redo();
        QVERIFY(editor.mask().bad == states[k].bad);
    }
    QVERIFY(!editor.canRedo());
    // A new edit after an undo drops the redo steps.
    editor.undo();
    editor.apply(RectShape{{0, 0}, {1, 1}}, EditMode::Toggle);
    QVERIFY(!editor.canRedo());
    QCOMPARE(editor.undoCount(), std::size_t(3));
}

void TstMask::strokeIsOneUndoStep() {
    const std::vector<Point> dabs{{1, 1}, {3, 1.5}, {6, 2}, {6.5, 5}, {2, 6}};
    MaskEditor editor(emptyMask(8, 9));
    editor.apply(RectShape{{0, 0}, {2, 2}}, EditMode::Mask);
    const PixelMask before = editor.mask();
    editor.beginStroke(1.2, EditMode::Mask);
    for (const Point& p : dabs)
        editor.addDab(p);
    QVERIFY(editor.strokeActive());
    const MaskDiff diff = editor.endStroke();
    const PixelMask after = editor.mask();
    QCOMPARE(editor.undoCount(), std::size_t(2));
    QCOMPARE(diff.size(), differing(before, after)); // only changed pixels, each once
    // The live-painted stroke equals the whole stroke rasterised at once.
    PixelMask expected = before;
    applyPixels(expected, rasterize(BrushStroke{1.2, dabs}, 8, 9), EditMode::Mask);
    QVERIFY(after.bad == expected.bad);
    QCOMPARE(editor.stroke().dabs.size(), dabs.size());
    editor.undo();
    QVERIFY(editor.mask().bad == before.bad);
    editor.redo();
    QVERIFY(editor.mask().bad == after.bad);
    // Undo in the middle of a stroke ends it first, then undoes all of it.
    editor.beginStroke(1.0, EditMode::Unmask);
    editor.addDab({1, 1});
    editor.addDab({4, 4});
    editor.undo();
    QVERIFY(editor.mask().bad == after.bad);
}

void TstMask::toggleStrokeFlipsEachPixelOnce() {
    MaskEditor editor(emptyMask(6, 6));
    editor.apply(RectShape{{0, 0}, {3, 6}}, EditMode::Mask);
    const PixelMask before = editor.mask();
    const BrushStroke stroke{1.0, {{0.5, 2.5}, {2.5, 2.5}, {4.5, 2.5}, {4.5, 4.5}}};
    editor.beginStroke(stroke.radius, EditMode::Toggle);
    for (const Point& p : stroke.dabs)
        editor.addDab(p);
    editor.endStroke();
    PixelMask expected = before;
    applyPixels(expected, rasterize(stroke, 6, 6), EditMode::Toggle);
    QVERIFY(editor.mask().bad == expected.bad);
    editor.undo();
    QVERIFY(editor.mask().bad == before.bad);
}

void TstMask::diffsHoldOnlyChanges() {
    PixelMask mask = emptyMask(4, 4);
    const MaskDiff first = applyPixels(mask, {1, 2, 3}, EditMode::Mask);
    QVERIFY((first.pixels == std::vector<std::uint32_t>{1, 2, 3}));
    QVERIFY((first.oldValues == std::vector<std::uint8_t>{0, 0, 0}));
    const MaskDiff second = applyPixels(mask, {4, 3, 2, 4}, EditMode::Mask); // any order
    QVERIFY((second.pixels == std::vector<std::uint32_t>{4}));
    QVERIFY_THROWS_EXCEPTION(UsageError, applyPixels(mask, {16}, EditMode::Mask));
    // Redo is idempotent (QUndoStack::push calls redo() on an already applied edit).
    const PixelMask applied = mask;
    redoDiff(mask, second);
    QVERIFY(mask.bad == applied.bad);
    undoDiff(mask, second);
    undoDiff(mask, first);
    QVERIFY(maskedPixels(mask).empty());
    MaskEditor editor(emptyMask(3, 3));
    editor.apply(RectShape{{0, 0}, {3, 3}}, EditMode::Unmask); // nothing changes
    QVERIFY(!editor.canUndo());
}

void TstMask::mergeDiffs() {
    PixelMask mask = emptyMask(3, 4);
    mask.bad[5] = 1;
    const PixelMask start = mask;
    MaskDiff total = applyPixels(mask, {1, 5, 6}, EditMode::Toggle);
    mergeDiff(total, applyPixels(mask, {0, 6, 11}, EditMode::Toggle));
    // Pixel 6 flipped twice: back where it was, so not in the merged diff.
    QVERIFY((total.pixels == std::vector<std::uint32_t>{0, 1, 5, 11}));
    QVERIFY((total.oldValues == std::vector<std::uint8_t>{0, 0, 1, 0}));
    const PixelMask end = mask;
    undoDiff(mask, total);
    QVERIFY(mask.bad == start.bad);
    redoDiff(mask, total);
    QVERIFY(mask.bad == end.bad);
}

void TstMask::invertClearReplace() {
    MaskEditor editor(emptyMask(4, 5));
    editor.apply(EllipseShape{{2, 2}, 1.5, 1.5, 0}, EditMode::Mask);
    const PixelMask shape = editor.mask();
    QCOMPARE(editor.invert().size(), std::size_t(20));
    QVERIFY(maskedPixels(editor.mask()) == complement(maskedPixels(shape), 20));
    editor.clear();
    QVERIFY(maskedPixels(editor.mask()).empty());
    PixelMask loaded = emptyMask(4, 5);
    loaded.bad[7] = 1;
    editor.replace(loaded);
    QVERIFY(maskedPixels(editor.mask()) == PixelSet{7});
    for (int k = 0; k < 3; ++k)
        editor.undo();
    QVERIFY(editor.mask().bad == shape.bad);
    QVERIFY_THROWS_EXCEPTION(InputError, editor.replace(emptyMask(5, 4)));
}

void TstMask::shapeEditList() {
    // Vector edits applied in order: mask a rectangle, then cut a hole with an ellipse.
    const std::vector<ShapeEdit> edits{{RectShape{{0, 0}, {5, 5}}, EditMode::Mask},
                                       {EllipseShape{{2.5, 2.5}, 1.0, 1.0, 0}, EditMode::Unmask}};
    const PixelMask m = rasterizeEdits(edits, emptyMask(5, 5));
    QCOMPARE(pictureOf(maskedPixels(m), 5, 5),
             pictureOf(pixelsFromPicture("##### ##.## #...# ##.## #####"), 5, 5));
}
