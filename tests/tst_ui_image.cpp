// Image view: reductions, normalisation and auto-contrast values (presenter, no widgets),
// then the widget's frame slider, colour scale, mask, overlays and readout, and long
// reductions on the worker thread (values, superseding, cancel, a GUI that keeps running).
#include "ui/image/image_view.hpp"
#include "ui_test_helpers.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QtTest>
#include <chrono>
#include <cmath>
#include <qcustomplot.h>
#include <thread>

using namespace clscope;
using namespace clscope::ui;

namespace {

// T frames of (H,W) uint16 where frame t, pixel i holds t*100 + i.
Array rampStack(std::size_t frames, std::size_t height, std::size_t width) {
    std::vector<std::uint16_t> values(frames * height * width);
    for (std::size_t t = 0; t < frames; ++t)
        for (std::size_t i = 0; i < height * width; ++i)
            values[t * height * width + i] = static_cast<std::uint16_t>(t * 100 + i);
    return makeArray<std::uint16_t>({frames, height, width}, values);
}

Image imageOf(std::vector<double> values) {
    return Image{1, values.size(), std::move(values)};
}

// A frame source that takes its time over every read, so a reduction is still running when
// the test looks at it.
class SlowFrameSource : public ArrayFrameSource {
  public:
    SlowFrameSource(Array frames, int msPerRead)
        : ArrayFrameSource(std::move(frames)), msPerRead_(msPerRead) {}
    Array readFrames(std::size_t first, std::size_t count) const override {
        std::this_thread::sleep_for(std::chrono::milliseconds(msPerRead_));
        return ArrayFrameSource::readFrames(first, count);
    }

  private:
    int msPerRead_;
};

QString captionOf(const ImageView& view) {
    return view.findChild<QLabel*>("imageCaption")->text();
}

} // namespace

class TestUiImage : public QObject {
    Q_OBJECT
  private slots:
    void reductions() {
        const Array stack = makeArray<std::uint8_t>({3, 1, 2}, {1, 200, 5, 100, 3, 255});
        QCOMPARE(reduceFrames(stack, Reduction::Single).values, (std::vector<double>{1, 200}));
        QCOMPARE(reduceFrames(stack, Reduction::Sum).values, (std::vector<double>{9, 555}));
        QCOMPARE(reduceFrames(stack, Reduction::Mean).values, (std::vector<double>{3, 185}));
        QCOMPARE(reduceFrames(stack, Reduction::Max).values, (std::vector<double>{5, 255}));
    }

    void autoContrastIgnoresMaskedPixels() {
        std::vector<double> values;
        for (int i = 0; i <= 100; ++i)
            values.push_back(i);
        Image image = imageOf(values);
        image.values[0] = 1e9; // a hot pixel, then masked
        std::vector<std::uint8_t> bad(101, 0);
        bad[0] = 1;
        applyMask(image, bad);
        QVERIFY(std::isnan(image.values[0]));
        const ValueRange minMax = autoContrast(image, {ContrastMode::MinMax});
        QCOMPARE(minMax.low, 1.0);
        QCOMPARE(minMax.high, 100.0);
        // 100 values 1..100: numpy.percentile(v, [10, 90]) = 10.9, 90.1
        const ValueRange pct = autoContrast(image, {ContrastMode::Percentile, 10.0, 90.0});
        QVERIFY(std::abs(pct.low - 10.9) < 1e-9);
        QVERIFY(std::abs(pct.high - 90.1) < 1e-9);
    }

    void meanSigmaAndLog() {
        // mean 2, population sigma 1 -> mean ± 1σ = [1, 3]; ± 3σ is clipped to the data [1, 3]
        const Image image = imageOf({1, 1, 3, 3});
        const ValueRange one = autoContrast(image, {ContrastMode::MeanSigma, 0, 0, 0.5});
        QCOMPARE(one.low, 1.5);
        QCOMPARE(one.high, 2.5);
        const ValueRange log =
            autoContrast(imageOf({-4, 0, 2, 8}), {ContrastMode::MinMax}, Normalisation::Log);
        QCOMPARE(log.low, 2.0); // non-positive values have no place on a log axis
        QCOMPARE(log.high, 8.0);
        QCOMPARE(normalisedValue(16.0, Normalisation::Sqrt), 4.0);
        QCOMPARE(normalisedValue(-3.0, Normalisation::Sqrt), 0.0);
    }

    void presenterChunkedRangeMatchesDirectSum() {
        ImagePresenter presenter;
        const Array stack = rampStack(70, 2, 3); // more than two 32-frame chunks
        presenter.setSource(std::make_shared<ArrayFrameSource>(stack));
        presenter.setSelection({Reduction::Sum, 0, 5, 69});
        // pixel i: sum over t=5..69 of (100 t + i) = 100 * 2405 + 65 i
        QCOMPARE(presenter.image().values[0], 240500.0);
        QCOMPARE(presenter.image().values[4], 240500.0 + 65 * 4);
        presenter.setSelection({Reduction::Mean, 0, 0, 1});
        QCOMPARE(presenter.image().values[1], 51.0);
        QCOMPARE(QString::fromStdString(presenter.caption()), QString("mean of frames 0–1"));
    }

    void longReductionRunsOnAWorker() {
        ImageView view;
        const Array stack = rampStack(100, 4, 6);
        view.setFrameSource(std::make_shared<SlowFrameSource>(stack, 40)); // 4 chunks, ~160 ms
        QSignalSpy finished(view.reducer(), &FrameReducer::finished);
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&ticks] { ++ticks; });
        timer.start(5);
        view.controls()->setReduction(Reduction::Sum, 0, 99);
        QVERIFY(view.isReducing());
        QCOMPARE(view.presenter().selection().reduction,
                 Reduction::Single); // the previous image stays
        QTRY_VERIFY(captionOf(view).startsWith("reducing frames 0–99… "));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(ticks >= 3); // the GUI thread's event loop ran during the reduction
        QVERIFY(!view.isReducing());
        QCOMPARE(view.presenter().image().values, reduceFrames(stack, Reduction::Sum).values);
        QCOMPARE(view.colorMap()->data()->cell(5, 3), view.presenter().image().at(5, 3));
        QCOMPARE(captionOf(view), QString("sum of frames 0–99"));
        // Short selections stay synchronous: one frame shows at once.
        view.controls()->setReduction(Reduction::Single, 0, 99);
        view.controls()->frameSlider()->setValue(7);
        QVERIFY(!view.isReducing());
        QCOMPARE(view.colorMap()->data()->cell(0, 0), 700.0);
    }

    void newerReductionSupersedesOlder() {
        FrameReducer reducer;
        const Array stack = rampStack(200, 3, 5);
        const auto source = std::make_shared<SlowFrameSource>(stack, 20);
        QSignalSpy finished(&reducer, &FrameReducer::finished);
        QSignalSpy cancelled(&reducer, &FrameReducer::cancelled);
        reducer.start(source, {Reduction::Sum, 0, 0, 199});
        reducer.start(source, {Reduction::Max, 0, 10, 99});
        QTRY_COMPARE(finished.count(), 1);
        QTest::qWait(200); // the superseded sum never arrives
        QCOMPARE(finished.count(), 1);
        QCOMPARE(cancelled.count(), 0);
        const auto selection = finished.at(0).at(0).value<ImageSelection>();
        QCOMPARE(selection.reduction, Reduction::Max);
        const auto image = finished.at(0).at(1).value<Image>();
        QCOMPARE(image.values, reduceFrames(source->readFrames(10, 90), Reduction::Max).values);
    }

    void cancelKeepsThePreviousImage() {
        ImageView view;
        view.setFrameSource(std::make_shared<SlowFrameSource>(rampStack(200, 2, 3), 30));
        view.controls()->frameSlider()->setValue(2);
        QSignalSpy finished(view.reducer(), &FrameReducer::finished);
        QSignalSpy cancelled(view.reducer(), &FrameReducer::cancelled);
        view.controls()->setReduction(Reduction::Mean, 0, 199);
        QVERIFY(view.isReducing());
        view.cancelReduction();
        QVERIFY(!view.isReducing());
        QCOMPARE(cancelled.count(), 1);
        QTest::qWait(300);
        QCOMPARE(finished.count(), 0);
        QCOMPARE(view.presenter().selection().frame, std::size_t(2));
        QCOMPARE(view.colorMap()->data()->cell(1, 0), 201.0);
        QVERIFY(captionOf(view).endsWith("(reduction cancelled)"));
        // A view closed while it reduces waits for its worker and does not crash.
        auto other = std::make_unique<ImageView>();
        other->setFrameSource(std::make_shared<SlowFrameSource>(rampStack(200, 2, 3), 30));
        other->controls()->setReduction(Reduction::Max, 0, 199);
        QVERIFY(other->isReducing());
        other.reset();
    }

    void sliderShowsTheFrame() {
        ImageView view;
        view.resize(800, 600);
        view.setFrameSource(std::make_shared<ArrayFrameSource>(rampStack(5, 4, 6)));
        QCOMPARE(view.controls()->frameSlider()->maximum(), 4);
        view.controls()->frameSlider()->setValue(3);
        QCOMPARE(view.presenter().selection().frame, std::size_t(3));
        QCOMPARE(view.colorMap()->data()->cell(0, 0), 300.0);
        QCOMPARE(view.colorMap()->data()->cell(5, 3), 300.0 + 3 * 6 + 5);
        QCOMPARE(view.colorMap()->interpolate(), false);
        QVERIFY(view.readoutAt(5.5, 3.5).startsWith("x 5  y 3  value 323"));
    }

    void normalisationAndContrastReachTheColourScale() {
        ImageView view;
        view.setFrameSource(std::make_shared<ArrayFrameSource>(rampStack(1, 10, 10)));
        view.controls()->setContrast({ContrastMode::MinMax});
        QCOMPARE(view.colorMap()->dataRange().lower, 0.0);
        QCOMPARE(view.colorMap()->dataRange().upper, 99.0);
        view.controls()->setNormalisation(Normalisation::Sqrt);
        QCOMPARE(view.colorMap()->data()->cell(9, 9), std::sqrt(99.0));
        QCOMPARE(view.colorMap()->dataRange().upper, std::sqrt(99.0));
        view.controls()->setNormalisation(Normalisation::Log);
        QCOMPARE(view.colorScale()->dataScaleType(), QCPAxis::stLogarithmic);
        QVERIFY(!view.colorScale()->axis()->ticker().dynamicCast<QCPAxisTickerLog>().isNull());
        QCOMPARE(view.colorMap()->dataRange().lower,
                 1.0); // the zero pixel is left out on a log scale
        view.controls()->setNormalisation(Normalisation::Linear);
        view.controls()->setContrast({ContrastMode::Percentile, 10.0, 90.0});
        QVERIFY(std::abs(view.colorMap()->dataRange().lower - 9.9) < 1e-9);
        QVERIFY(std::abs(view.colorMap()->dataRange().upper - 89.1) < 1e-9);
    }

    void maskOverlaysAndOrientation() {
        ImageView view;
        view.setFrameSource(std::make_shared<ArrayFrameSource>(rampStack(1, 2, 3)));
        view.setPixelMask({0, 0, 1, 0, 0, 0});
        QVERIFY(std::isnan(view.colorMap()->data()->cell(2, 0)));
        QVERIFY(view.readoutAt(2.2, 0.7).contains("masked"));
        OverlayData bins;
        bins.name = "q bins";
        bins.width = 3;
        bins.height = 2;
        bins.labels = {0, 1, 1, 2, 2, 0};
        const int plottables = view.plot()->plottableCount();
        OverlayLayer* layer = view.setOverlay(bins);
        QCOMPARE(view.plot()->plottableCount(), plottables + 1);
        QVERIFY(layer->colorMap()->layer() != view.colorMap()->layer()); // its own layer
        QCOMPARE(layer->colorMap()->layer()->mode(), QCPLayer::lmBuffered);
        QVERIFY(view.readoutAt(1.5, 0.5).endsWith("|  q bins 1"));
        QVERIFY(!view.readoutAt(0.5, 0.5).contains("q bins"));
        view.setOverlay(bins); // same name replaces
        QCOMPARE(view.overlayNames(), QStringList{"q bins"});
        QCOMPARE(view.plot()->plottableCount(), plottables + 1);
        view.removeOverlay("q bins");
        QCOMPARE(view.plot()->plottableCount(), plottables);
        QVERIFY(view.plot()->yAxis->rangeReversed());
        view.findChild<QCheckBox*>()->setChecked(false);
        QVERIFY(!view.plot()->yAxis->rangeReversed());
    }
};

QTEST_MAIN(TestUiImage)
#include "tst_ui_image.moc"
