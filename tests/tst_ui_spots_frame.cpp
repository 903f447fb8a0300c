// Spots live frame results without a window: every frame through the panel's cache equals the
// core reference (signal mask, spots, debug images) for both algorithms, with and without
// gain, several kernel sizes and auto threshold; a threshold change re-evaluates without
// recomputing the window sums, a kernel change does; the presenter sorts and selects the
// spot table.
#include "tst_ui_spots.hpp"
#include "ui/spots/spots_presenter.hpp"

#include <QtTest>

using namespace clscope;
using namespace clscope::ui;
using namespace clscope::test;

class TestUiSpotsFrame : public QObject {
    Q_OBJECT
    synthetic::DiffractionDataset data_ = smallDiffraction();

  private slots:
    void frameResultEqualsCoreReference_data() {
        QTest::addColumn<QString>("method");
        QTest::addColumn<int>("kx");
        QTest::addColumn<int>("ky");
        QTest::addColumn<double>("gain");
        QTest::addColumn<double>("sigmaS");
        QTest::addColumn<double>("global");
        QTest::addColumn<bool>("autoGlobal");
        QTest::newRow("dispersion 3x3") << "dispersion" << 3 << 3 << 1.0 << 3.0 << 0.0 << false;
        QTest::newRow("dispersion 1x2 gain")
            << "dispersion" << 1 << 2 << 1.7 << 2.5 << 0.0 << false;
        QTest::newRow("dispersion 5x4 global")
            << "dispersion" << 5 << 4 << 1.0 << 2.0 << 3.0 << false;
        QTest::newRow("dispersion auto") << "dispersion" << 3 << 3 << 1.0 << 3.0 << 0.0 << true;
        QTest::newRow("extended 3x3")
            << "dispersion_extended" << 3 << 3 << 1.0 << 3.0 << 0.0 << false;
        QTest::newRow("extended 2x3 gain")
            << "dispersion_extended" << 2 << 3 << 0.8 << 3.0 << 0.0 << false;
    }

    // Every frame through the panel's cache equals the core reference on the whole stack
    // (auto threshold: on that frame alone, as the live view estimates it per frame).
    void frameResultEqualsCoreReference() {
        QFETCH(QString, method);
        QFETCH(int, kx);
        QFETCH(int, ky);
        QFETCH(double, gain);
        QFETCH(double, sigmaS);
        QFETCH(double, global);
        QFETCH(bool, autoGlobal);
        spots::Params p;
        p.method = spots::methodFromName(method.toStdString());
        p.kernelX = kx, p.kernelY = ky, p.gain = gain, p.sigmaStrong = sigmaS;
        p.globalThreshold = global, p.globalAuto = autoGlobal;
        const spots::Input whole{data_.frames, data_.mask};
        spots::DebugImages debug;
        const std::vector<std::uint8_t> signal = spots::thresholdCpu(whole, p, {}, &debug);
        const spots::Result reference = spots::finishResult(whole, signal, p);
        const std::size_t plane = data_.frames.frameSize();
        SpotsFrameCache cache;
        for (std::size_t t = 0; t < data_.frames.frameCount(); ++t) {
            const auto in = frameOf(data_, t);
            const SpotsFrameResult got = cache.threshold(in, p, true);
            QCOMPARE(got.frame, t);
            if (autoGlobal) {
                const spots::Input one{in->frame, in->mask};
                spots::DebugImages own;
                QCOMPARE(got.signal, spots::thresholdCpu(one, p, {}, &own));
                QCOMPARE(got.debug->final, own.final);
                QCOMPARE(got.threshold, spots::autoGlobalThreshold(one));
                continue;
            }
            QVERIFY(countOnes(got.signal) > 0);
            QCOMPARE(got.signal, slice(signal, t, plane));
            QCOMPARE(std::size_t(got.strong), std::size_t(reference.strongPerFrame[t]));
            compareSpots(got.spots, spotsOfFrame(reference, int(t)));
            QCOMPARE(got.debug->mean, slice(debug.mean, t, plane));
            QCOMPARE(got.debug->variance, slice(debug.variance, t, plane));
            QCOMPARE(got.debug->dispersion, slice(debug.dispersion, t, plane));
            QCOMPARE(got.debug->sigmaB, slice(debug.sigmaB, t, plane));
            QCOMPARE(got.debug->sigmaS, slice(debug.sigmaS, t, plane));
            QCOMPARE(got.debug->global, slice(debug.global, t, plane));
            QCOMPARE(got.debug->final, slice(debug.final, t, plane));
        }
    }

    // σ_s, gain and the global threshold re-evaluate the cached window sums; the kernel size
    // and another frame compute them again.
    void thresholdChangeReusesWindowSums() {
        SpotsFrameCache cache;
        const auto frame0 = frameOf(data_, 0);
        spots::Params p;
        const SpotsFrameResult first = cache.threshold(frame0, p, false);
        QCOMPARE(cache.sumsComputed(), 1);
        QVERIFY(!first.cachedSums);
        p.sigmaStrong = 1.5, p.gain = 1.3, p.globalThreshold = 1;
        const SpotsFrameResult second = cache.threshold(frame0, p, false);
        QCOMPARE(cache.sumsComputed(), 1);
        QVERIFY(second.cachedSums);
        QVERIFY(second.signal != first.signal);
        QCOMPARE(second.signal, spots::thresholdCpu({frame0->frame, frame0->mask}, p));
        p.kernelX = 2;
        const SpotsFrameResult third = cache.threshold(frame0, p, false);
        QCOMPARE(cache.sumsComputed(), 2);
        QCOMPARE(third.signal, spots::thresholdCpu({frame0->frame, frame0->mask}, p));
        cache.threshold(frameOf(data_, 1), p, false);
        QCOMPARE(cache.sumsComputed(), 3);
    }

    // The table's order and selection in the presenter alone.
    void presenterSortsAndSelects() {
        const spots::Input whole{data_.frames, data_.mask};
        const spots::Result r = spots::runCpu(whole, spots::Params{});
        QVERIFY(r.spots.size() > 10);
        SpotsPresenter p;
        p.setRun(r, "cpu");
        p.sortBy(SpotColumn::Intensity, false);
        std::size_t brightest = 0;
        for (std::size_t i = 0; i < r.spots.size(); ++i)
            if (r.spots[i].intensity > r.spots[brightest].intensity) brightest = i;
        QCOMPARE(p.spotIndexAtRow(0), brightest);
        for (std::size_t row = 1; row < p.rowCount(); ++row)
            QVERIFY(p.cellValue(row - 1, SpotColumn::Intensity) >=
                    p.cellValue(row, SpotColumn::Intensity));
        p.sortBy(SpotColumn::X, true);
        for (std::size_t row = 1; row < p.rowCount(); ++row)
            QVERIFY(p.spotAtRow(row - 1).x <= p.spotAtRow(row).x);
        p.selectRow(3);
        QCOMPARE(*p.selectedSpot(), p.spotIndexAtRow(3));
        QCOMPARE(p.selectedTarget()->x, p.spotAtRow(3).x);
        QCOMPARE(p.selectedTarget()->frame, std::size_t(p.spotAtRow(3).frame));
        const SpotsPresenter::PerFrame per = p.perFrame();
        QCOMPARE(per.frame.size(), std::size_t(3));
        QCOMPARE(per.strong[1], double(r.strongPerFrame[1]));
        QCOMPARE(per.spots[2], double(spotsOfFrame(r, 2).size()));
    }
};

QTEST_MAIN(TestUiSpotsFrame)
#include "tst_ui_spots_frame.moc"
