// The live view (ui/stream) over tests/stream_publisher.py: every frame of the series arrives
// and is shown, the spots per frame are those of a file run of the same frames, with a geometry
// (the start message's or the Spots panel's) the per-frame curves are DIALS' per-image numbers
// of a file run (core/spots/per_image.hpp) and the hit rate follows its threshold, "Save what was
// received" writes the input's frames and pixel mask, g2 drawn at the end is a file run's,
// errors show, Stop mid-stream (or closing while waiting) ends the series, the spot finder
// takes the Spots panel's parameters, and a publisher that stalls or dies is reported within
// the timeout with the frames received of announced.
#include "core/azint/expt.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "expt_text.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/spots/run_types.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "stream_publisher.hpp"
#include "test_util.hpp"
#include "ui/app/main_window.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/log_panel.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/params/param_form.hpp"
#include "ui/stream/live_chart.hpp"
#include "ui/stream/live_view.hpp"
#include "ui_test_helpers.hpp"

#include <QImage>
#include <QLabel>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;
using clscope::test::Publisher;

namespace {

constexpr std::size_t frames = 6;

// Spots on the host's reference (a file run and the live view: the same variant).
StreamRequest requestFor(const Publisher& pub) {
    StreamRequest r;
    r.endpoint = pub.endpoint;
    r.timeoutSeconds = 20;
    r.context.device = hostDevice();
    r.context.variants["spots"] = "cpu";
    return r;
}

// Spots per frame of a file run over every frame of `file` (default parameters unless given).
std::vector<double> spotsPerFrameOfFile(const QString& file,
                                        std::optional<ParamSet> given = std::nullopt) {
    const Algorithm& spots = AlgorithmRegistry::instance().find("spots");
    InputSources sources;
    sources.file = file.toStdString();
    const ParamSet params = given ? *given : spots.defaultParams();
    const auto result =
        runAlgorithm(spots, {hostDevice(), "cpu", spots.read(sources, params), params, {}});
    std::vector<double> perFrame(frames, 0);
    for (const auto& s : dynamic_cast<const spots::SpotsResult&>(*result).result.spots)
        perFrame.at(std::size_t(s.frame)) += 1;
    return perFrame;
}

// The plot of the analysis over the frames so far (xpcs g2): neither the strip chart nor the
// image's.
QCustomPlot* seriesPlot(LiveView& view) {
    for (QCustomPlot* p : view.findChildren<QCustomPlot*>())
        if (p != view.stripChart() && p != view.image()->plot()) return p;
    return nullptr;
}

// The profile drawn for the newest of `powder`'s frames equals a file run's with `params`.
void checkNewestProfile(LiveView& view, const QString& powder, const ParamSet& params) {
    QCustomPlot* profile = seriesPlot(view);
    QVERIFY(profile && profile->graphCount() == 2); // the newest frame, the mean of the last
    QCOMPARE(profile->graph(0)->name(), QString("frame 4"));
    const Algorithm& azint = AlgorithmRegistry::instance().find("azint");
    InputSources sources;
    sources.file = powder.toStdString();
    const auto run =
        runAlgorithm(azint, {hostDevice(), "cpu", azint.read(sources, params), params, {}});
    const azint::Result& ref = dynamic_cast<const azint::AzintResult&>(*run).result;
    std::vector<double> expected, drawn;
    for (std::size_t b = 0; b < ref.bins; ++b)
        if (std::isfinite(ref.intensity[4 * ref.bins + b]))
            expected.push_back(ref.intensity[4 * ref.bins + b]);
    for (auto it = profile->graph(0)->data()->begin(); it != profile->graph(0)->data()->end(); ++it)
        drawn.push_back(it->value);
    QVERIFY(expected.size() > 20);
    QCOMPARE(drawn, expected);
}

// The numbers of the live view's curve `name` (empty without one).
std::vector<double> curveOf(const LiveView& view, const QString& name) {
    const auto& curves = view.receiver().curves();
    const auto values = view.receiver().values();
    for (std::size_t c = 0; c < curves.size(); ++c)
        if (curves[c].name == name) return values.at(c);
    return {};
}

// Equal element by element (NaN equals NaN); else the count, the first index and both values.
QString differs(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size())
        return QString("%1 values, expected %2").arg(got.size()).arg(want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i]))))
            return QString("frame %1: %2, expected %3")
                .arg(i)
                .arg(got[i], 0, 'g', 17)
                .arg(want[i], 0, 'g', 17);
    return {};
}

// DIALS' per-image numbers (perImageStats) of a file run of the host's spot finder over every
// frame of `file` with geometry `g`, as the live view's curves name them: spots (n_spots_total),
// d_min (estimated_d_min, NaN for DIALS' -1), mean spot intensity (total_intensity over
// n_spots_no_ice).
std::map<QString, std::vector<double>> perImageOfFile(const QString& file,
                                                      const azint::Geometry& g) {
    const Algorithm& spots = AlgorithmRegistry::instance().find("spots");
    InputSources sources;
    sources.file = file.toStdString();
    const ParamSet params = spots.defaultParams();
    const auto run =
        runAlgorithm(spots, {hostDevice(), "cpu", spots.read(sources, params), params, {}});
    const spots::PerImageStats s =
        spots::perImageStats(dynamic_cast<const spots::SpotsResult&>(*run).result, g);
    std::map<QString, std::vector<double>> out;
    for (std::size_t i = 0; i < s.images(); ++i) {
        const double noIce = double(s.nSpotsNoIce[i]);
        out["spots"].push_back(double(s.nSpotsTotal[i]));
        out["d_min"].push_back(s.estimatedDMin[i] > 0 ? s.estimatedDMin[i] : std::nan(""));
        out["mean spot intensity"].push_back(noIce > 0 ? s.totalIntensity[i] / noIce
                                                       : std::nan(""));
    }
    return out;
}

// After each frame, the % of the frames so far with at least `threshold` spots (written here,
// not LiveChart's hitRate, so a wrong rule there fails).
std::vector<double> hitsSoFar(const std::vector<double>& spots, int threshold) {
    std::vector<double> out;
    for (std::size_t i = 0; i < spots.size(); ++i) {
        const auto hits = std::count_if(spots.begin(), spots.begin() + std::ptrdiff_t(i) + 1,
                                        [threshold](double n) { return n >= threshold; });
        out.push_back(100.0 * double(hits) / double(i + 1));
    }
    return out;
}

// The live view holds and draws `want`'s curves; some frame has a d_min.
void checkPerImageCurves(const LiveView& view, const std::map<QString, std::vector<double>>& want) {
    for (const auto& [name, values] : want) {
        const QString held = differs(curveOf(view, name), values);
        QVERIFY2(held.isEmpty(), qPrintable(name + " held: " + held));
        const QString drawn = differs(view.chart().drawn(name), values);
        QVERIFY2(drawn.isEmpty(), qPrintable(name + " drawn: " + drawn));
    }
    const auto& dMin = want.at("d_min");
    QVERIFY(std::any_of(dMin.begin(), dMin.end(), [](double d) { return d > 0; }));
}

bool sameArrays(const Array& a, const Array& b) {
    return a.dtype() == b.dtype() && a.shape() == b.shape() &&
           std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0;
}

} // namespace

class TestUiStream : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString file;
    QString mixed;

    // 8 frames of 160×200: 40 spots and 8 spots in turn (two generated files interleaved by
    // h5py); "" on failure.
    QString mixedSpotsFile() {
        if (!mixed.isEmpty()) return mixed;
        const QString many = dir.filePath("many.h5"), few = dir.filePath("few.h5");
        for (const auto& [out, spots] : {std::pair{many, "40"}, std::pair{few, "8"}}) {
            const auto g = test::runCli({"generate", "diffraction", "--frames", "4", "--height",
                                         "160", "--width", "200", "--spots", spots, "-o", out});
            if (g.code != 0) return {};
        }
        const QString out = dir.filePath("mixed.h5");
        const char* script = R"(import sys, h5py, numpy as np
a, b, out = sys.argv[1:4]
with h5py.File(a) as fa, h5py.File(b) as fb, h5py.File(out, "w") as fo:
    da, db = fa["entry/data/data"][()], fb["entry/data/data"][()]
    frames = np.empty((len(da) + len(db),) + da.shape[1:], da.dtype)
    frames[0::2], frames[1::2] = da, db
    fo["entry/data/data"] = frames
)";
        QString skip;
        if (!test::runPython({"-c", script, many, few, out}, skip) || !skip.isEmpty()) return {};
        return mixed = out;
    }

    // 5 powder frames of 48×64 (generate powder); "" on failure.
    QString powderFile() {
        const QString powder = dir.filePath("powder.h5");
        if (QFile::exists(powder)) return powder;
        const auto g = test::runCli({"generate", "powder", "--frames", "5", "--height", "48",
                                     "--width", "64", "-o", powder});
        return g.code == 0 ? powder : QString();
    }

    // A PONI file of 172 µm pixels at 0.1 m, 1 Å, no rotation, with these poni (m), written
    // to the nearest double.
    QString writePoni(const QString& name, double poni1, double poni2) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(QString("PixelSize1: 0.000172\nPixelSize2: 0.000172\nDistance: 0.1\nPoni1: %1\n"
                        "Poni2: %2\nRot1: 0\nRot2: 0\nRot3: 0\nWavelength: 1e-10\n")
                    .arg(poni1, 0, 'g', 17)
                    .arg(poni2, 0, 'g', 17)
                    .toUtf8());
        return f.fileName();
    }

    // `view` over a publisher of `publisher` (its arguments) until the series ended and the
    // series analyses are current, azint on `cpu` with `params`.
    void streamAzint(LiveView& view, const QStringList& publisher, const ParamSet& params) {
        Publisher pub(publisher);
        QVERIFY(!pub.endpoint.empty());
        StreamRequest r = requestFor(pub);
        r.context.variants["azint"] = "cpu";
        r.context.params["azint"] = params;
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(r);
        QVERIFY(finished.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(view.seriesCurrent(), 20000);
    }

    // An experiment list of the mixed file's detector: 160×200 pixels of 172 µm at 50 mm,
    // 1 Å, the beam at pixel (100.5, 80.5).
    static QByteArray exptText() {
        return QByteArray::fromStdString(
            test::exptText({{1.0, 0.0, 0.0}, {-17.286, 13.846, -50.0}, 0.172, 200, 160, 1.0}));
    }

    // With CLSCOPE_TEST_SHOTS=DIR: the view at 1600×1000 and 1280×800, DIR/NAME-WxH.png.
    static void shoot(LiveView& view, const QString& name) {
        const QString shots = qEnvironmentVariable("CLSCOPE_TEST_SHOTS");
        if (shots.isEmpty()) return;
        for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
            view.resize(size);
            QTest::qWait(300);
            view.chart().plot()->replot();
            view.grab().save(
                QString("%1/%2-%3x%4.png").arg(shots, name).arg(size.width()).arg(size.height()));
        }
    }

  private slots:
    void initTestCase() {
        if (const QString missing = test::publisherMissing(); !missing.isEmpty())
            QSKIP(qPrintable(missing));
        test::useTemporarySettings(dir);
        file = dir.filePath("diffraction.h5");
        const auto d =
            test::runCli({"generate", "diffraction", "--frames", QString::number(frames),
                          "--height", "64", "--width", "80", "--spots", "5", "--gaps", "-o", file});
        QVERIFY2(d.code == 0, qPrintable(d.err));
    }

    // Issue 53: a long series' curves are thinned to a bounded number of points, each bucket's
    // lowest and highest value at their own frames: a one-frame spike and a gap of NaN stay
    // drawn, and the hit rate's last point is still the exact rate of every frame.
    void longSeriesThinnedKeepsEveryPeak() {
        LiveChart chart(nullptr);
        chart.setCurves({{"spots", "spots", true, false}}, {});
        const std::size_t n = 50000, spike = 31337;
        std::vector<double> v(n);
        for (std::size_t i = 0; i < n; ++i)
            v[i] = double(i % 7);
        v[spike] = 1000;
        for (std::size_t i = 40000; i < 41000; ++i)
            v[i] = std::nan("");
        for (std::size_t from = 0; from < n; from += 999) // in the view's pieces
            chart.append(
                {std::vector<double>(v.begin() + std::ptrdiff_t(from),
                                     v.begin() + std::ptrdiff_t(std::min(n, from + 999)))});
        QCOMPARE(chart.framesPlotted(), n);
        const std::vector<double> drawn = chart.drawn("spots");
        QVERIFY2(drawn.size() <= 2 * 4096 + 1 && drawn.size() > 4096,
                 qPrintable(QString::number(drawn.size())));
        QCOMPARE(*std::max_element(
                     drawn.begin(), drawn.end(),
                     [](double a, double b) { return std::isnan(a) || (!std::isnan(b) && a < b); }),
                 1000.0);
        QVERIFY(std::any_of(drawn.begin(), drawn.end(), [](double x) { return std::isnan(x); }));
        QCPGraph* graph = nullptr;
        for (int g = 0; g < chart.plot()->graphCount(); ++g)
            if (chart.plot()->graph(g)->name() == "spots") graph = chart.plot()->graph(g);
        QVERIFY(graph);
        double last = -1;
        bool spikeAtItsFrame = false;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            QVERIFY(it->key > last); // frames in order, each once
            last = it->key;
            spikeAtItsFrame |= it->key == double(spike) && it->value == 1000.0;
        }
        QVERIFY(spikeAtItsFrame);
        const std::vector<double> rate = chart.drawn("hit rate");
        QVERIFY(rate.size() <= 2 * 4096 + 1);
        const auto hits = std::count_if(v.begin(), v.end(), [](double x) { return x >= 20; });
        QCOMPARE(rate.back(), 100.0 * double(hits) / double(n));
        if (const QString shots = qEnvironmentVariable("CLSCOPE_TEST_SHOTS"); !shots.isEmpty()) {
            chart.plot()->resize(1000, 560);
            chart.replot();
            chart.plot()->savePng(shots + "/live-thinned-1000x560.png");
        }
        chart.setHitThreshold(5);
        const auto hits5 = std::count_if(v.begin(), v.end(), [](double x) { return x >= 5; });
        QVERIFY(chart.drawn("hit rate").size() <= 2 * 4096 + 1);
        QCOMPARE(chart.drawn("hit rate").back(), 100.0 * double(hits5) / double(n));
    }

    void receivesShowsAndSavesEveryFrame() {
        Publisher pub({file, "--compression", "bslz4"});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        view.resize(1200, 800);
        view.show();
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(requestFor(pub));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        QCOMPARE(finished.at(0).at(1).toBool(), false);
        QCOMPARE(view.receiver().frames()->frameCount(), frames);
        QCOMPARE(view.frameShown(), frames);
        QVERIFY2(view.status()->text().contains("Series ended: 6 frames"),
                 qPrintable(view.status()->text()));
        // Issue 52: one line (it wrapped), the whole text in its tooltip.
        QVERIFY(!view.status()->wordWrap());
        QCOMPARE(view.status()->toolTip(), view.status()->text());

        const auto values = view.receiver().values();
        QCOMPARE(values.size(), std::size_t(2)); // spots, mean spot intensity: no geometry
        const std::vector<double> expected = spotsPerFrameOfFile(file);
        QCOMPARE(values[0], expected);
        QCOMPARE(view.receiver().curves().at(0).name, QString("spots"));
        QVERIFY(std::accumulate(expected.begin(), expected.end(), 0.0) > 0);
        // Issue 53: without a geometry the chart says why d_min is not shown.
        QVERIFY2(view.chart().note().startsWith("no geometry: d_min not shown"),
                 qPrintable(view.chart().note()));
        QVERIFY(curveOf(view, "d_min").empty());

        const QString saved = dir.filePath("received.h5");
        QString error;
        QVERIFY2(view.saveReceived(saved, &error), qPrintable(error));
        const H5Reader in(file.toStdString()), out(saved.toStdString());
        QVERIFY(sameArrays(readFrames(out), readFrames(in)));
        QVERIFY(readPixelMask(out).bad == readPixelMask(in).bad);
    }

    // Issue 53: with the start message's geometry the curves hold, and draw, per frame what
    // perImageStats gives on a file run of the frames received (spots, d_min, mean spot
    // intensity); the hit rate is the share of the frames so far at or above the threshold and
    // follows it (kept in QSettings); every frame's latency to the screen is measured.
    void perImageCurvesWithTheStartMessagesGeometry() {
        const QString mixed = mixedSpotsFile();
        QVERIFY(!mixed.isEmpty());
        Publisher pub(
            {mixed, "--compression", "bslz4", "--geometry", "100.5,80.5,0.05,1.0,0.000172"});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        view.resize(1280, 800);
        view.show();
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(requestFor(pub));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        QCOMPARE(view.chart().framesPlotted(), std::size_t(8));
        QVERIFY2(view.chart().note().isEmpty(), qPrintable(view.chart().note()));
        // d_min's axis runs downwards, as the Per image tab and DIALS draw it; the others not.
        for (int g = 0; g < view.chart().plot()->graphCount(); ++g) {
            const QCPGraph* graph = view.chart().plot()->graph(g);
            QCOMPARE(graph->valueAxis()->rangeReversed(), graph->name() == "d_min");
        }
        const QString saved = dir.filePath("received_mixed.h5");
        QString error;
        QVERIFY2(view.saveReceived(saved, &error), qPrintable(error));
        azint::Geometry g; // the start message's, by hand: poni = beam centre × pixel size
        g.pixel1 = g.pixel2 = 172e-6, g.poni1 = 80.5 * 172e-6, g.poni2 = 100.5 * 172e-6;
        g.dist = 0.05, g.wavelength = 1e-10, g.height = 160, g.width = 200;
        const auto want = perImageOfFile(saved, g);
        checkPerImageCurves(view, want);

        const std::vector<double>& spots = want.at("spots");
        const auto [fewest, most] = std::minmax_element(spots.begin(), spots.end());
        QVERIFY(*most > *fewest + 10);                     // frames of 40 and of 8 spots
        const int streamed = view.hitThreshold()->value(); // the default's 20, as drawn live
        QCOMPARE(streamed, 20);
        const QString live = differs(view.chart().drawn("hit rate"), hitsSoFar(spots, streamed));
        QVERIFY2(live.isEmpty(), qPrintable(live));
        const int between = int(*fewest + *most) / 2;
        for (const int threshold : {between, int(*most) + 1, 1}) {
            view.hitThreshold()->setValue(threshold);
            const QString rate =
                differs(view.chart().drawn("hit rate"), hitsSoFar(spots, threshold));
            QVERIFY2(rate.isEmpty(), qPrintable(QString("at %1: %2").arg(threshold).arg(rate)));
            QCOMPARE(QSettings().value("live/hitThreshold").toInt(), threshold);
        }
        const std::vector<double> half = hitsSoFar(spots, between);
        QVERIFY(half.back() > 0 && half.back() < 100);

        QCOMPARE(view.latenciesMs().size(), std::size_t(8));
        for (const double ms : view.latenciesMs())
            QVERIFY(ms >= 0);
        QVERIFY(view.latency()->text().startsWith("receive → plot: "));
        const QString summary = view.summary().join("\n");
        QVERIFY2(summary.contains("live latency receive to plot: latest ") &&
                     summary.contains("live hit rate: ") && summary.contains("d_min [d_min (Å)]"),
                 qPrintable(summary));
        shoot(view, "live-per-image");
    }

    // Issue 53: without one in the start message, d_min takes the Spots panel's experiment list.
    void perImageCurvesWithThePanelsGeometry() {
        const QString mixed = mixedSpotsFile();
        QVERIFY(!mixed.isEmpty());
        const QString expt = dir.filePath("live.expt");
        QFile f(expt);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(exptText());
        f.close();
        Publisher pub({mixed});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        StreamRequest r = requestFor(pub);
        ParamSet params = AlgorithmRegistry::instance().find("spots").defaultParams();
        params.set("expt", expt.toStdString());
        r.context.params["spots"] = params;
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(r);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        QVERIFY2(view.chart().note().isEmpty(), qPrintable(view.chart().note()));
        checkPerImageCurves(view, perImageOfFile(mixed, azint::readExpt(expt.toStdString())));

        // The numbers on screen are those `clscope-cli spots --expt` writes for the frames saved.
        const QString saved = dir.filePath("received_panel.h5"), out = dir.filePath("cli.h5");
        QString error;
        QVERIFY2(view.saveReceived(saved, &error), qPrintable(error));
        const auto cli = test::runCli(
            {"spots", saved, "--device", "cpu", "--variant", "cpu", "--expt", expt, "-o", out});
        QVERIFY2(cli.code == 0, qPrintable(cli.err));
        const H5Reader written(out.toStdString());
        const auto column = [&written](const char* name) {
            const Array a = written.read(std::string("/spots/per_image/") + name);
            return std::vector<double>(a.as<double>().begin(), a.as<double>().end());
        };
        const std::vector<double> dMin = column("estimated_d_min"),
                                  total = column("total_intensity"),
                                  noIce = column("n_spots_no_ice");
        std::vector<double> mean(total.size()), dMinShown(dMin.size());
        for (std::size_t i = 0; i < total.size(); ++i)
            mean[i] = noIce[i] > 0 ? total[i] / noIce[i] : std::nan("");
        for (std::size_t i = 0; i < dMin.size(); ++i)
            dMinShown[i] = dMin[i] > 0 ? dMin[i] : std::nan("");
        QCOMPARE(differs(curveOf(view, "spots"), column("n_spots_total")), QString());
        QCOMPARE(differs(curveOf(view, "d_min"), dMinShown), QString());
        QCOMPARE(differs(curveOf(view, "mean spot intensity"), mean), QString());
    }

    // Issue 53's ROI time series live: the ROI dock's saved regions give a curve each, the
    // mean over the region of every frame received, equal to core/roi on the file's frames
    // (the start message's gap mask left out) and to `clscope-cli roi` on the frames saved.
    void roiCurvesFollowTheSavedRegions() {
        QSettings().setValue("roi/rects", "10,8,30,20");
        QSettings().setValue("roi/rings", "40,32,5,12");
        const auto forget = qScopeGuard([] {
            QSettings().remove("roi/rects");
            QSettings().remove("roi/rings");
        });
        Publisher pub({file});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(requestFor(pub));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        const QString saved = dir.filePath("received_roi.h5"), out = dir.filePath("roi_cli.h5");
        QString error;
        QVERIFY2(view.saveReceived(saved, &error), qPrintable(error));
        const auto cli =
            test::runCli({"roi", saved, "--rects", "10,8,30,20", "--rings", "40,32,5,12",
                          "--pixel-mask", "/entry/instrument/detector/pixel_mask", "-o", out});
        QVERIFY2(cli.code == 0, qPrintable(cli.err));
        const Array means = H5Reader(out.toStdString()).read("/roi/mean");
        for (std::size_t r = 0; r < 2; ++r) {
            const auto row = means.as<double>().subspan(r * frames, frames);
            const std::vector<double> want(row.begin(), row.end());
            const QString name = r == 0 ? "ROI rect 1" : "ROI ring 1";
            QCOMPARE(differs(curveOf(view, name), want), QString());
        }
        QVERIFY(curveOf(view, "ROI rect 1").at(0) > 0);
    }

    // Issue 38: the live spot finder takes the Spots panel's parameters (it ran fixed
    // defaults: 60-80 "spots" a frame where the frames held 12).
    void spotsTakeThePanelsParameters() {
        Publisher pub({file});
        QVERIFY(!pub.endpoint.empty());
        MainWindow window;
        ParamForm* form = nullptr;
        for (ParamForm* f : window.findChildren<ParamForm*>())
            if (f->group() == "spots") form = f;
        QVERIFY(form);
        form->setValue("global_threshold", 100);
        const std::vector<double> expected = spotsPerFrameOfFile(file, form->paramSet());
        QVERIFY(expected != spotsPerFrameOfFile(file)); // the threshold matters here
        LiveView* view =
            openLiveWindow(window.workbench(), QString::fromStdString(pub.endpoint), &window);
        QSignalSpy finished(view, &LiveView::finished);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        QCOMPARE(view->receiver().values().at(0), expected);
        // Issue 52: the view says the thresholds it runs with.
        QVERIFY2(view->settings()->text().contains("global threshold 100"),
                 qPrintable(view->settings()->text()));
        form->resetToDefaults();
    }

    // Issue 52: the live spot finder follows the Spots panel mid-stream: from the frame the Log
    // names on, the spots per frame are those of a file run with the changed parameters, and the
    // view shows them.
    void spotsFollowThePanelMidStream() {
        Publisher pub({file, "--rate", "2"});
        QVERIFY(!pub.endpoint.empty());
        MainWindow window;
        ParamForm* form = nullptr;
        for (ParamForm* f : window.findChildren<ParamForm*>())
            if (f->group() == "spots") form = f;
        QVERIFY(form);
        const std::vector<double> before = spotsPerFrameOfFile(file, form->paramSet());
        LiveView* view =
            openLiveWindow(window.workbench(), QString::fromStdString(pub.endpoint), &window);
        QSignalSpy changed(view, &LiveView::changed);
        QSignalSpy finished(view, &LiveView::finished);
        QTRY_VERIFY_WITH_TIMEOUT(
            !view->receiver().values().empty() && !view->receiver().values().at(0).empty(), 20000);
        form->setValue("global_threshold", 100);
        const std::vector<double> after = spotsPerFrameOfFile(file, form->paramSet());
        QVERIFY(finished.wait(30000));
        QCOMPARE(changed.size(), 1);
        const QString said = changed.front().front().toString();
        const QRegularExpressionMatch m = QRegularExpression("from frame (\\d+)").match(said);
        QVERIFY2(m.hasMatch() && said.contains("global threshold 100"), qPrintable(said));
        const std::size_t from = m.captured(1).toULongLong();
        QVERIFY(from >= 1 && from < frames);
        const std::vector<double> values = view->receiver().values().at(0);
        for (std::size_t i = 0; i < frames; ++i)
            QCOMPARE(values.at(i), i < from ? before.at(i) : after.at(i));
        QVERIFY(view->settings()->text().contains("global threshold 100"));
        QVERIFY(window.findChild<LogPanel*>()->text().contains("Live view: spots runs with"));
        form->resetToDefaults();
    }

    // Issue 38: a publisher that dies after 3 of 6 frames is said within the stream timeout,
    // with the frames received of announced, in the view's status, the Log and the status bar
    // (it was noticed only at the 30 s timeout, as "Series ended: 3 frames", Log empty).
    void deadPublisherIsReportedAtOnce() {
        Publisher pub({file, "--count", "3", "--no-end", "20"});
        QVERIFY(!pub.endpoint.empty());
        MainWindow window;
        QSignalSpy status(&window.workbench(), &Workbench::statusMessage);
        LiveView* view =
            openLiveWindow(window.workbench(), QString::fromStdString(pub.endpoint), &window);
        QElapsedTimer timer;
        timer.start();
        auto* log = window.findChild<LogPanel*>();
        QVERIFY(log);
        QTRY_VERIFY_WITH_TIMEOUT(log->text().contains("3 of 6 frames received"), 10000);
        QVERIFY2(timer.elapsed() < 15000, "reported after the stream's 30 s timeout");
        QVERIFY2(view->status()->text().contains("no frame for"),
                 qPrintable(view->status()->text()));
        QVERIFY(view->status()->text().contains("3 of 6 frames received"));
        QVERIFY(!status.isEmpty() && status.last().at(0).toString().contains("3 of 6 frames"));
        view->close(); // stops the series (deleted on close)
    }

    // The timeout ends the series: "Series ended early: 3 of 6 frames received (no message in
    // 2 s)", not "Series ended: 3 frames".
    void earlyEndSaysFramesOfAnnounced() {
        Publisher pub({file, "--count", "3", "--no-end", "20"});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        QSignalSpy finished(&view, &LiveView::finished), notice(&view, &LiveView::notice);
        StreamRequest r = requestFor(pub);
        r.timeoutSeconds = 2;
        view.open(r);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        const QString ended = "Series ended early: 3 of 6 frames received (no message in 2 s)";
        QVERIFY2(view.status()->text().contains(ended), qPrintable(view.status()->text()));
        QVERIFY(!notice.isEmpty() && notice.last().at(0).toString() == ended);
    }

    // Once the series ended the status line gives its own rate (frames after the first batch
    // over the time to the last), not the last tick's, which covers a part of a second: here
    // 6 frames at 5 a second.
    void seriesRateAtTheEnd() {
        Publisher pub({file, "--rate", "5"});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(requestFor(pub));
        QVERIFY(finished.wait(30000));
        const QString text = view.status()->text();
        const QRegularExpression rate("([0-9.]+) frames/s over the series");
        const QRegularExpressionMatch m = rate.match(text);
        QVERIFY2(m.hasMatch(), qPrintable(text));
        const double r = m.captured(1).toDouble();
        QVERIFY2(r > 2.5 && r < 7.5, qPrintable(text)); // the publisher's 5 a second
    }

    // --screenshot of a series that ends before half the frames announced came: taken at its
    // end (it waited for a halfway point that never came, until the caller's timeout).
    void screenshotOfAShortSeries() {
        Publisher pub({file, "--count", "2"});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        QSignalSpy finished(&view, &LiveView::finished);
        const QString png = dir.filePath("short.png");
        std::optional<bool> saved;
        view.screenshotHalfway(png, [&saved](bool ok) { saved = ok; });
        view.open(requestFor(pub));
        QVERIFY(finished.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(saved.has_value(), 10000);
        QVERIFY(*saved && QImage(png).width() > 0);
    }

    // Past its memory budget the view keeps the newest frames and says which were dropped:
    // Save writes the frames kept (first_frame attribute), reading a dropped one is an error.
    void keepsTheNewestFramesWithinItsBudget() {
        Publisher pub({file});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        QSignalSpy finished(&view, &LiveView::finished);
        StreamRequest request = requestFor(pub);
        request.memoryBudgetBytes = 4 * 64 * 80 * 2 + 100; // 4 frames of uint16
        view.open(request);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        const auto received = view.receiver().frames();
        QCOMPARE(received->frameCount(), frames);
        QCOMPARE(received->firstKept(), frames - 4);
        QCOMPARE(view.frameShown(), frames);
        QVERIFY_THROWS_EXCEPTION(InputError, received->readFrames(1, 1));
        QVERIFY2(view.status()->text().contains("frames 0..1 dropped from memory (keeping the "
                                                "last 4 frames"),
                 qPrintable(view.status()->text()));

        const QString saved = dir.filePath("received_last4.h5");
        QString error;
        QVERIFY2(view.saveReceived(saved, &error), qPrintable(error));
        QVERIFY2(view.status()->text().startsWith("Saved frames 2..5 to"),
                 qPrintable(view.status()->text()));
        const H5Reader in(file.toStdString()), out(saved.toStdString());
        const Array all = readFrames(in), last = readFrames(out);
        QCOMPARE(last.frameCount(), std::size_t(4));
        QVERIFY(std::memcmp(last.bytes(), all.bytes() + 2 * last.byteSize() / 4, last.byteSize()) ==
                0);
        QCOMPARE(out.stringAttribute(paths::frames, "first_frame").value_or(""), std::string("2"));
    }

    // With q-bin labels, the g2 drawn once the series ended is multi-tau over every frame, as
    // a file run of the same frames gives it (bin 1, the lags τ > 0).
    void g2OverEveryFrame() {
        const std::string xpcsFile = test::dataFile("xpcs_small.h5");
        Publisher pub({QString::fromStdString(xpcsFile)});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        view.resize(1500, 900);
        view.show(); // the series' plots are made after: they must show themselves (a window
                     // shown before the stream connected had no g2 on screen until 2026-11-28)
        StreamRequest r = requestFor(pub);
        r.context.labels = std::make_shared<LabelMask>(readLabels(H5Reader(xpcsFile)));
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(r);
        QVERIFY(finished.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(view.seriesCurrent(), 20000);
        QCustomPlot* g2 = seriesPlot(view);
        QVERIFY(g2 && g2->graphCount() > 0);
        QTRY_VERIFY(g2->isVisible());
        QVERIFY2(g2->height() >= 200, qPrintable(QString("g2 plot %1 px high").arg(g2->height())));

        const Algorithm& xpcs = AlgorithmRegistry::instance().find("xpcs");
        InputSources sources;
        sources.file = xpcsFile;
        ParamSet params = xpcs.defaultParams();
        params.set("multitau", true);
        const auto run =
            runAlgorithm(xpcs, {hostDevice(), "cpu", xpcs.read(sources, params), params, {}});
        const xpcs::Result& ref = dynamic_cast<const xpcs::XpcsResult&>(*run).result;
        std::vector<double> expected, drawn;
        for (std::size_t t = 0; t < ref.frames; ++t)
            if (ref.tau[t] > 0 && std::isfinite(ref.g2At(0, t))) expected.push_back(ref.g2At(0, t));
        for (auto it = g2->graph(0)->data()->begin(); it != g2->graph(0)->data()->end(); ++it)
            drawn.push_back(it->value);
        QVERIFY(expected.size() > 10);
        QCOMPARE(drawn, expected);
    }

    // Issue 52: without q-bin labels (a diffraction-only stream) g2 does not apply and the view
    // says nothing of it: no plot, no note (it said why in red).
    void g2WithoutLabelsSaysNothing() {
        const std::string xpcsFile = test::dataFile("xpcs_small.h5");
        Publisher pub({QString::fromStdString(xpcsFile)});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(requestFor(pub));
        QVERIFY(finished.wait(30000));
        QTRY_VERIFY_WITH_TIMEOUT(view.seriesCurrent(), 20000);
        QVERIFY(!seriesPlot(view));
        for (const QLabel* l : view.findChildren<QLabel*>())
            QVERIFY2(!l->text().contains("q-bin labels") && !l->text().contains("g2"),
                     qPrintable(l->text()));
    }

    // Issue 53: with a geometry file on the Azint panel, I(q) of the newest frame drawn once
    // the series ended is the file run's profile of that frame (cpu, the panel's 40 bins).
    void azintProfileOfTheNewestFrame() {
        const QString powder = powderFile();
        QVERIFY(!powder.isEmpty());
        const Algorithm& azint = AlgorithmRegistry::instance().find("azint");
        ParamSet params = azint.defaultParams();
        params.set("poni", writePoni("powder.poni", 0.004, 0.005).toStdString());
        params.set("bins", 40);
        LiveView view;
        streamAzint(view, {powder, "--compression", "bslz4"}, params);
        if (QTest::currentTestFailed()) return;
        // With CLSCOPE_TEST_SHOTS=DIR: the view at 1280×800, DIR/live-azint.png.
        if (const QString shots = qEnvironmentVariable("CLSCOPE_TEST_SHOTS"); !shots.isEmpty()) {
            view.resize(1280, 800);
            view.show();
            QTest::qWait(300);
            view.grab().save(shots + "/live-azint.png");
        }
        checkNewestProfile(view, powder, params);
    }

    // Without a geometry file on the Azint panel the start message's geometry gives I(q) (as
    // it gives the live d_min): the profile a file run with the same geometry as a PONI gives.
    void azintProfileWithTheStartMessagesGeometry() {
        const QString powder = powderFile();
        QVERIFY(!powder.isEmpty());
        const Algorithm& azint = AlgorithmRegistry::instance().find("azint");
        ParamSet params = azint.defaultParams();
        params.set("bins", 40);
        LiveView view;
        view.resize(1280, 800);
        view.show();
        streamAzint(view,
                    {powder, "--compression", "bslz4", "--geometry", "32.5,24.5,0.1,1.0,0.000172"},
                    params);
        if (QTest::currentTestFailed()) return;
        QTRY_VERIFY(seriesPlot(view) && seriesPlot(view)->isVisible());
        // The frames saved keep that geometry: a file run of them naming none draws the same.
        const QString saved = dir.filePath("received_powder.h5");
        QString error;
        QVERIFY2(view.saveReceived(saved, &error), qPrintable(error));
        checkNewestProfile(view, saved, params);
        // poni = beam centre × pixel size (azint::headerGeometry), computed alike here.
        params.set("poni",
                   writePoni("header.poni", 24.5 * 0.000172, 32.5 * 0.000172).toStdString());
        checkNewestProfile(view, powder, params);
    }

    // An analysis over the frames that cannot be made (the Azint panel names a geometry file
    // that is not there) is said in a notice and left out; the series goes on.
    void analysisThatCannotBeMadeIsSaid() {
        const Algorithm& azint = AlgorithmRegistry::instance().find("azint");
        ParamSet params = azint.defaultParams();
        params.set("poni", dir.filePath("missing.poni").toStdString());
        Publisher pub({file, "--compression", "bslz4"});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        StreamRequest r = requestFor(pub);
        r.context.params["azint"] = params;
        QSignalSpy notices(&view, &LiveView::notice);
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(r);
        QVERIFY(finished.wait(30000));
        QVERIFY(finished.front().front().toString().isEmpty());
        QStringList said;
        for (const auto& n : notices)
            said << n.front().toString();
        QVERIFY2(said.join("\n").contains("azint: ") && said.join("\n").contains("missing.poni"),
                 qPrintable(said.join("\n")));
        QVERIFY(!seriesPlot(view));
    }

    // The publisher sends 2 frames a second: Stop after the first ends the series there; the
    // view then opens the next series.
    void stopMidStream() {
        Publisher pub({file, "--rate", "2"});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(requestFor(pub));
        QTRY_VERIFY_WITH_TIMEOUT(view.frameShown() >= 1, 20000);
        view.stop();
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).toString(), QString());
        QCOMPARE(finished.at(0).at(1).toBool(), true);
        QVERIFY(view.receiver().frames()->frameCount() < frames);
        QVERIFY(!view.isReceiving());

        // Opened again (Start): a new series from the start, the last one's plots cleared.
        Publisher next({file});
        view.open(requestFor(next));
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(1).at(0).toString(), QString());
        QCOMPARE(view.receiver().frames()->frameCount(), frames);
        QCOMPARE(view.stripChart()->graph(1)->dataCount(), int(frames));
    }

    // A stream that fails (here: an image before the start message) says why in the status.
    void errorIsShown() {
        Publisher pub({file, "--malformed", "no-start"});
        QVERIFY(!pub.endpoint.empty());
        LiveView view;
        QSignalSpy finished(&view, &LiveView::finished);
        view.open(requestFor(pub));
        QVERIFY(finished.wait(30000));
        const QString error = finished.at(0).at(0).toString();
        QVERIFY2(error.endsWith("expected a start message first"), qPrintable(error));
        QVERIFY2(view.status()->text().contains(error), qPrintable(view.status()->text()));
    }

    // Closing the view while it still waits for the start message does not wait for the
    // timeout (the receiving thread sees the stop within 0.1 s).
    void closeWhileWaiting() {
        Publisher pub({file, "--silent", "30"});
        QVERIFY(!pub.endpoint.empty());
        QElapsedTimer timer;
        timer.start();
        {
            LiveView view;
            view.open(requestFor(pub));
            QTest::qWait(200);
        }
        QVERIFY2(timer.elapsed() < 15000, "closing waited for the 20 s timeout");
    }
};

QTEST_MAIN(TestUiStream)
#include "tst_ui_stream.moc"
