// rbf panel: the presenter's planes equal core's reference at the seed's plane coordinates; one
// colour range spans the three planes (and the plot's three maps share it); Helmholtz displays
// (magnitude, real, imaginary, phase) against hand values; sources projected onto each plane;
// the profile is the plane's row / column; the difference map is |a − b|; changing σ
// re-evaluates live, several quick changes in one run; the exports read back; `--demo rbf` is
// ok only when its run succeeded; the panel base's Run contract (busy, runFinished once, a failed
// run keeps the planes shown) and its typed results (another type is refused).
#include "core/errors.hpp"
#include "core/rbf/rbf_io.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "ui/app/main_window.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/rbf/rbf_panel.hpp"
#include "ui_test_helpers.hpp"

#include <QComboBox>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <complex>

using namespace clscope;
using namespace clscope::ui;

namespace {

rbf::Problem problemOf(std::vector<double> sources, std::vector<double> weights, std::size_t n,
                       bool complexWeights = false) {
    rbf::Problem p;
    p.sources = std::move(sources);
    p.weights = std::move(weights);
    p.complexWeights = complexWeights;
    p.targets.planes = n;
    return p;
}

// A result made by hand on n x n planes (real, or complex as [re, im]).
rbf::Result resultOf(std::vector<double> values, bool complex) {
    rbf::Result r;
    r.potential = std::move(values);
    r.complex = complex;
    return r;
}

// Grid point (a, b) of plane p written out independently of core: xy, xz, yz.
std::array<double, 3> gridPoint(std::size_t p, std::size_t a, std::size_t b, std::size_t n) {
    const double u = double(a) / double(n - 1), v = double(b) / double(n - 1);
    if (p == 0) return {u, v, 0};
    if (p == 1) return {u, 0, v};
    return {0, u, v};
}

double gaussianSum(const rbf::Problem& p, const std::array<double, 3>& x, double sigma) {
    double sum = 0;
    for (std::size_t j = 0; j < p.sourceCount(); ++j) {
        double r2 = 0;
        for (int d = 0; d < 3; ++d)
            r2 += std::pow(x[d] - p.sources[3 * j + d], 2);
        sum += std::exp(-r2 / (2 * sigma * sigma)) * p.weights[j];
    }
    return sum;
}

std::optional<std::size_t> hostIndex(DevicePicker& picker) {
    const auto& devices = picker.presenter().devices();
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (devices[i].isHost()) return i;
    return std::nullopt;
}

} // namespace

class TestUiRbf : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void initTestCase() { test::useTemporarySettings(dir_); }

    // Asymmetric sources: a transposed or mis-ordered plane would not match.
    void presenterPlanesEqualReference() {
        const std::size_t n = 5;
        const auto problem =
            problemOf({0.1, 0.7, 0.2, 0.8, 0.3, 0.05, 0.4, 0.1, 0.9}, {1.0, -0.5, 2.0}, n);
        rbf::Params params;
        params.sigma = 0.3;
        RbfPresenter p;
        p.setRun(problem, rbf::evaluateCpu(problem, params), params);
        QCOMPARE(p.gridSize(), n);
        QCOMPARE(p.displays(), std::vector<RbfDisplay>{RbfDisplay::Value});
        for (std::size_t plane = 0; plane < 3; ++plane) {
            const std::vector<double> values = p.planeValues(plane);
            for (std::size_t a = 0; a < n; ++a)
                for (std::size_t b = 0; b < n; ++b) {
                    const double want = gaussianSum(problem, gridPoint(plane, a, b, n), 0.3);
                    QVERIFY(std::abs(p.value(plane, a, b) - want) < 1e-12);
                    QCOMPARE(values[a * n + b], p.value(plane, a, b));
                }
        }
        QVERIFY(p.colourLabel().find("σ = 0.3") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(InputError, p.setRun(problem, resultOf({1, 2}, false), params));
    }

    void sharedColourRangeSpansAllPlanes() {
        // n = 2: plane 0 holds the minimum, plane 2 the maximum.
        auto result = resultOf({-3, 1, 2, 1, 0.5, 1, 2, 1, 1, 2, 7, 0.25}, false);
        RbfPresenter p;
        p.setRun(problemOf({0.5, 0.5, 0.5}, {1}, 2), result, {});
        QCOMPARE(p.colourRange().lower, -3.0);
        QCOMPARE(p.colourRange().upper, 7.0);
        p.setScale(RbfScale::Log); // the log range: the positive values of all planes
        QCOMPARE(p.colourRange().lower, 0.25);
        QCOMPARE(p.colourRange().upper, 7.0);
        QVERIFY(std::isnan(p.value(0, 0, 0)));
        QVERIFY(p.note().find("1 of 12") != std::string::npos);
        RbfPlanesPlot plot;
        plot.setImage(planesImage(p));
        for (std::size_t plane = 0; plane < 3; ++plane) {
            QCOMPARE(plot.map(plane)->colorScale(), plot.colourScale());
            QCOMPARE(plot.map(plane)->dataRange(), QCPRange(0.25, 7.0));
        }
        QCOMPARE(plot.colourScale()->dataScaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(plot.colourScale()->axis()->label(), QString("f (Gaussian σ = 0.1)"));
        QCOMPARE(plot.map(2)->data()->cell(1, 0), 7.0); // (a, b) = (1, 0) of plane 2
        QCOMPARE(plot.map(2)->data()->cell(0, 1), 2.0);
    }

    // One source at (0, 0, 0.5), weight 1, k = π: at the xy plane's origin r = 0.5 and
    // f = e^{iπ/2} / (4π·0.5) = i / (2π).
    void helmholtzDisplaysAgainstHandValues() {
        const auto problem = problemOf({0, 0, 0.5}, {1, 0}, 2, true);
        rbf::Params params;
        params.kernel = rbf::Kernel::Helmholtz;
        params.wavenumber = M_PI;
        RbfPresenter p;
        p.setRun(problem, rbf::evaluateCpu(problem, params), params);
        QCOMPARE(p.displays().size(), std::size_t(4));
        const double want = 1 / (2 * M_PI);
        const auto at = [&](RbfDisplay d) { return p.setDisplay(d), p.value(0, 0, 0); };
        QVERIFY(std::abs(at(RbfDisplay::Magnitude) - want) < 1e-14);
        QVERIFY(std::abs(at(RbfDisplay::Real)) < 1e-14);
        QVERIFY(std::abs(at(RbfDisplay::Imag) - want) < 1e-14);
        QVERIFY(std::abs(at(RbfDisplay::Phase) - M_PI / 2) < 1e-12);
        // Hand-made values on n = 1 planes: (3, 4), (−1, 0), (0, −2).
        RbfPresenter h;
        h.setRun(problemOf({0.5, 0.5, 0.5}, {1, 0}, 1, true), resultOf({3, 4, -1, 0, 0, -2}, true),
                 params);
        const auto all = [&](RbfDisplay d) {
            h.setDisplay(d);
            return std::vector<double>{h.value(0, 0, 0), h.value(1, 0, 0), h.value(2, 0, 0)};
        };
        QCOMPARE(all(RbfDisplay::Magnitude), (std::vector<double>{5, 1, 2}));
        QCOMPARE(all(RbfDisplay::Real), (std::vector<double>{3, -1, 0}));
        QCOMPARE(all(RbfDisplay::Imag), (std::vector<double>{4, 0, -2}));
        QCOMPARE(all(RbfDisplay::Phase), (std::vector<double>{std::atan2(4, 3), M_PI, -M_PI / 2}));
        QCOMPARE(h.colourRange().lower, -M_PI); // the phase range is the full circle
        QCOMPARE(h.colourLabel(), std::string("arg f [rad] (Helmholtz k = 3.14159)"));
        h.setDisplay(RbfDisplay::Imag);
        QCOMPARE(h.colourLabel().substr(0, 4), std::string("Im f"));
        QCOMPARE(h.colourRange().lower, -2.0);
        QCOMPARE(h.colourRange().upper, 4.0);
    }

    void sourcesProjectOntoEachPlane() {
        RbfPresenter p;
        p.setRun(problemOf({0.1, 0.2, 0.3, 0.7, 0.8, 0.9}, {3, 4, -1, 0}, 2, true),
                 resultOf(std::vector<double>(24, 1.0), true), {});
        const std::vector<std::array<double, 3>> want[3] = {{{0.1, 0.2, 5}, {0.7, 0.8, 1}},
                                                            {{0.1, 0.3, 5}, {0.7, 0.9, 1}},
                                                            {{0.2, 0.3, 5}, {0.8, 0.9, 1}}};
        RbfPlanesPlot plot;
        plot.setMarkers({p.markers(0), p.markers(1), p.markers(2)}, p.largestWeight());
        for (std::size_t plane = 0; plane < 3; ++plane) {
            const auto m = p.markers(plane);
            QCOMPARE(m.size(), std::size_t(2));
            for (std::size_t j = 0; j < 2; ++j) {
                QCOMPARE(m[j].u, want[plane][j][0]);
                QCOMPARE(m[j].v, want[plane][j][1]);
                QCOMPARE(m[j].weight, want[plane][j][2]);
            }
            QCOMPARE(plot.markerCount(plane), 2);
        }
        QCOMPARE(p.largestWeight(), 5.0);
    }

    void profileIsThePlaneRowOrColumn() {
        const std::size_t n = 6;
        const auto problem = problemOf({0.2, 0.6, 0.1, 0.9, 0.3, 0.4}, {1.5, 0.7}, n);
        rbf::Params params;
        RbfPresenter p;
        p.setRun(problem, rbf::evaluateCpu(problem, params), params);
        const RbfProfile row = p.profile(1, true, 2);
        QCOMPARE(row.axis, std::string("x"));
        QCOMPARE(row.fixedAxis, std::string("z"));
        QCOMPARE(row.fixedCoordinate, 0.4);
        const RbfProfile column = p.profile(2, false, 4);
        QCOMPARE(column.axis, std::string("z"));
        for (std::size_t i = 0; i < n; ++i) {
            QCOMPARE(row.coordinate[i], double(i) / 5);
            QCOMPARE(row.value[i], p.value(1, i, 2));
            QCOMPARE(column.value[i], p.value(2, 4, i));
        }
        QVERIFY(std::abs(row.value[3] - gaussianSum(problem, {0.6, 0, 0.4}, 0.1)) < 1e-12);
        QVERIFY_THROWS_EXCEPTION(InputError, p.profile(0, true, n));
    }

    void differenceIsAbsoluteDifference() {
        const auto a = resultOf({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, false);
        const auto b = resultOf({1, 2.5, 3, 3, 5, 6, 7, 8, 9, 10, 11, -1}, false);
        const RbfDifference d = planeDifference(a, b);
        QCOMPARE(d.n, std::size_t(2));
        QCOMPARE(d.planes[0], (std::vector<double>{0, 0.5, 0, 1}));
        QCOMPARE(d.planes[2], (std::vector<double>{0, 0, 0, 13}));
        QCOMPARE(d.largest, 13.0);
        QCOMPARE(d.largestReference, 11.0);
        const auto ca = resultOf({1, 1, 0, 0, 2, 2}, true), cb = resultOf({4, 5, 0, 0, 2, 2}, true);
        QCOMPARE(planeDifference(ca, cb).planes[0], std::vector<double>{5});
        QVERIFY_THROWS_EXCEPTION(InputError, planeDifference(a, ca));
        // The Compare dock's view of two runs.
        const AlgorithmPanelSpec* spec = AlgorithmPanelRegistry::instance().find("rbf");
        QVERIFY(spec && spec->differenceView);
        rbf::RbfResult ra, rb;
        ra.result = a, rb.result = b;
        std::unique_ptr<QWidget> view(spec->differenceView(ra, rb));
        auto* diff = qobject_cast<RbfDifferenceView*>(view.get());
        QVERIFY(diff && diff->planes());
        QCOMPARE(diff->planes()->map(0)->data()->cell(1, 1), 1.0);
        QCOMPARE(diff->planes()->colourScale()->axis()->label(), QString("|f − f_ref|"));
        // Two results of another type: refused with the reason (typedAs), never a bad cast.
        xpcs::XpcsResult other;
        QVERIFY_THROWS_EXCEPTION(UsageError, spec->differenceView(ra, other));
    }

    // The panel base's contract (ui/kit/algorithm_panel.hpp), through the rbf panel on the
    // host: a second Run while one is in flight is refused (Run greyed, nothing more
    // submitted); the end of the run enables Run again and emits runFinished once; a run that
    // fails (an unknown variant) ends with false and leaves the previous planes shown.
    void panelBaseRunContract() {
        MainWindow window;
        auto* picker = window.findChild<DevicePicker*>();
        const auto host = hostIndex(*picker);
        QVERIFY(host);
        picker->selectDevice(*host);
        auto* panel = window.findChild<RbfPanel*>();
        QVERIFY(panel && panel->runButton());
        panel->setLive(false); // the Runs below only
        panel->setGeneratedSources(true, 7, 3);
        panel->setGrid(9);
        panel->setVariant("cpu");
        QTRY_VERIFY(!window.workbench().jobs().isBusy());
        QSignalSpy finished(panel, &RbfPanel::runFinished);
        QSignalSpy started(&window.workbench().jobs(), &JobRunner::started);
        QVERIFY(panel->run());
        QVERIFY(panel->isRunning());
        QVERIFY(!panel->runButton()->isEnabled());
        QVERIFY(!panel->run());
        QCOMPARE(started.size(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
        QCOMPARE(finished.front().front().toBool(), true);
        QVERIFY(!panel->isRunning());
        QVERIFY(panel->runButton()->isEnabled());
        QTest::qWait(300);
        QCOMPARE(finished.size(), 1);
        const QPointer<RbfPlanesView> shown = panel->planesView();
        QVERIFY(shown);
        const int delivered = panel->runsDelivered();
        panel->setVariant("nosuch");
        QVERIFY(panel->run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 20000);
        QCOMPARE(finished.back().front().toBool(), false);
        QVERIFY(panel->runButton()->isEnabled());
        QCOMPARE(panel->runsDelivered(), delivered);
        QVERIFY(shown && panel->planesView() == shown);
        const auto& tabs = window.workbench().results().tabs();
        QVERIFY(std::ranges::any_of(tabs, [&](const ResultTab& t) { return t.widget == shown; }));
    }

    // The panel on the host: registered, live σ changes coalesce into one run whose planes are
    // the reference's, variants greyed with the reason, and the exports read back.
    void panelLiveRunsAndExports() {
        MainWindow window;
        auto* picker = window.findChild<DevicePicker*>();
        const auto host = hostIndex(*picker);
        QVERIFY(host);
        picker->selectDevice(*host);
        auto* panel = window.findChild<RbfPanel*>();
        QVERIFY(panel);
        QVERIFY(window.dock("AlgorithmPanel_rbf")->isAncestorOf(panel));
        panel->setGeneratedSources(true, 7, 3);
        panel->setGrid(9);
        panel->setVariant("cpu");
        QCOMPARE(panel->runsDelivered(), 0); // nothing runs before the first Run
        QVERIFY(panel->run());
        QTRY_VERIFY_WITH_TIMEOUT(panel->runsDelivered() >= 1 && !panel->live().isPending() &&
                                     !window.workbench().jobs().isBusy(),
                                 20000);
        const int before = panel->runsDelivered();
        QSignalSpy started(&window.workbench().jobs(), &JobRunner::started);
        for (double sigma : {0.11, 0.12, 0.13, 0.14})
            panel->setSigma(sigma);
        QTRY_COMPARE_WITH_TIMEOUT(panel->runsDelivered(), before + 1, 20000);
        QTest::qWait(400);
        QCOMPARE(started.size(), 1);
        QCOMPARE(panel->runsDelivered(), before + 1);
        const RbfPresenter& p = panel->presenter();
        QCOMPARE(p.params().sigma, 0.14);
        const RbfRunRequest request = panel->request();
        for (std::size_t plane = 0; plane < 3; ++plane)
            QVERIFY(std::abs(p.value(plane, 3, 7) - gaussianSum(request.sources->problem,
                                                                gridPoint(plane, 3, 7, 9), 0.14)) <
                    1e-12);
        QVERIFY(panel->planesView() && panel->planesView()->planes()->markerCount(0) == 7);
        checkVariantsGreyed(*panel);
        checkExports(*panel);
    }

    // Issue 23, defect 5: a new grid n keeps the profile line at its coordinate (y = 0.50 stays
    // 0.50), not at its row index (which moved it to 0.25 when n doubled).
    void profileKeepsItsPlaceWhenTheGridChanges() {
        MainWindow window;
        auto* panel = window.findChild<RbfPanel*>();
        QVERIFY(panel);
        panel->setGrid(401);
        panel->setProfile({0, true, 200}); // y = 200 / 400 = 0.50
        panel->setGrid(801);
        QCOMPARE(panel->profileChoice().index, std::size_t(400));
        panel->setGrid(101);
        QCOMPARE(panel->profileChoice().index, std::size_t(50));
        QCOMPARE(panel->runsDelivered(), 0);
    }

    void demoIsOkOnlyWhenItsRunSucceeded_data() {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("default") << "" << 0;
        QTest::newRow("unknown variant") << "nosuch" << 4;
    }

    void demoIsOkOnlyWhenItsRunSucceeded() {
        QFETCH(QString, variant);
        QFETCH(int, exitCode);
        const QString png = dir_.filePath("demo-rbf-" + variant + ".png");
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("CLSCOPE_DEMO_VARIANT", variant);
        process.setProcessEnvironment(env);
        process.start(guiBinary(), {"--demo", "rbf", "--screenshot", png});
        QVERIFY(process.waitForFinished(300000));
        QVERIFY2(process.exitCode() == exitCode, process.readAllStandardError().constData());
        QVERIFY(!QImage(png).isNull());
    }

  private:
    static QString guiBinary() {
        return QFileInfo(qEnvironmentVariable("CLSCOPE_CLI")).absoluteDir().filePath("clscope");
    }

    // On the host only the cpu variant; on an OpenCL device separable is greyed for Laplace
    // with supports()'s reason and offered for the Gaussian.
    void checkVariantsGreyed(RbfPanel& panel) {
        auto* model = qobject_cast<QStandardItemModel*>(panel.variantBox()->model());
        const int separable = panel.variantBox()->findData(QString("separable"));
        QVERIFY(!model->item(separable)->isEnabled());
        QVERIFY(model->item(separable)->toolTip().contains("needs an OpenCL device"));
        if (openclDevices().empty()) return;
        RbfRunRequest r = panel.request();
        r.device = openclDevices().front();
        const auto option = [&](rbf::Kernel kernel) {
            r.kernel = kernel;
            for (const RbfVariantOption& o : rbfVariantOptions(r))
                if (o.id == "separable") return o;
            return RbfVariantOption{};
        };
        QVERIFY(option(rbf::Kernel::Gaussian).enabled);
        const RbfVariantOption laplace = option(rbf::Kernel::Laplace);
        QVERIFY(!laplace.enabled);
        QVERIFY2(laplace.reason.find("Gaussian only") != std::string::npos, laplace.reason.c_str());
    }

    void checkExports(RbfPanel& panel) {
        const QString h5 = dir_.filePath("planes.h5");
        panel.exportHdf5(h5);
        const H5Reader in(h5.toStdString());
        const rbf::Result back = rbf::readPotential(in);
        QCOMPARE(back.count(), std::size_t(3 * 9 * 9));
        QCOMPARE(back.potential, panel.presenter().result().potential);
        QCOMPARE(back.variant, std::string("cpu"));
        const std::string parameters = in.stringAttribute("/rbf", "parameters").value_or("");
        QVERIFY2(parameters.find("\"planes\":9") != std::string::npos, parameters.c_str());
        const QString png = dir_.filePath("planes.png");
        panel.exportPng(png, 900, 340);
        QCOMPARE(QImage(png).size(), QSize(900, 340));
    }
};

QTEST_MAIN(TestUiRbf)
#include "tst_ui_rbf.moc"
