// tst_rbf (1/2): every variant against the CPU reference on awkward sizes, coincident points,
// complex weights and large coordinates; GPU tunings forced on PoCL; the reference against an
// independent numpy/scipy computation (tests/data/make_rbf_fixture.py); semantics; support.
#include "tst_rbf.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/rbf/rbf_io.hpp"
#include "core/rbf/synthetic.hpp"
#include "gpu/rbf/rbf_gpu.hpp"
#include "gpu/runtime/devices.hpp"
#include "test_util.hpp"
#include "typed_runs.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <random>

using namespace clscope;

DeviceInfo testDevice() {
    const auto& devices = openclDevices();
    return devices.empty() ? hostDevice() : devices.front();
}

// Uniform values in [lo, hi).
static std::vector<double> uniform(std::size_t count, double lo, double hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<double> v(count);
    for (double& x : v)
        x = dist(rng);
    return v;
}

// m random targets (or planes n) and n sources in the unit cube, signed weights; every
// `coincide`-th target sits exactly on a source.
static rbf::Problem makeProblem(std::size_t targets, std::size_t sources, bool complexWeights,
                                std::size_t planes, std::size_t coincide, unsigned seed) {
    rbf::Problem p;
    p.sources = uniform(3 * sources, 0.0, 1.0, seed);
    p.weights = uniform(sources * (complexWeights ? 2 : 1), -0.5, 1.0, seed + 1);
    p.complexWeights = complexWeights;
    p.targets.planes = planes;
    if (!planes) p.targets.points = uniform(3 * targets, -0.1, 1.1, seed + 2);
    for (std::size_t i = 0; coincide && !planes && i < targets; i += coincide)
        for (int a = 0; a < 3; ++a)
            p.targets.points[3 * i + a] = p.sources[3 * (i % sources) + a];
    return p;
}

// The same problem moved by `by` along every axis (large coordinates, small separations).
static rbf::Problem offset(rbf::Problem p, double by) {
    for (double& v : p.sources)
        v += by;
    for (double& v : p.targets.points)
        v += by;
    return p;
}

// The named problems of the variant rows (built once, with their reference results).
const rbf::Problem& namedProblem(const std::string& name) {
    static std::map<std::string, rbf::Problem> problems{
        {"1x1 coincident", makeProblem(1, 1, false, 0, 1, 1)},
        {"4097x1000", makeProblem(4097, 1000, false, 0, 97, 2)},
        {"7x4097", makeProblem(7, 4097, false, 0, 3, 3)},
        {"1000x7 complex", makeProblem(1000, 7, true, 0, 5, 4)},
        {"planes 7 x13", makeProblem(0, 13, false, 7, 0, 5)},
        {"planes 33 x50 complex", makeProblem(0, 50, true, 33, 0, 6)},
        {"no sources", makeProblem(9, 0, false, 0, 0, 7)},
        {"offset 1000x300", offset(makeProblem(1000, 300, false, 0, 7, 8), 100.0)},
    };
    return problems.at(name);
}

const rbf::Result& reference(const std::string& name, const rbf::Params& params) {
    static std::map<std::string, rbf::Result> cache;
    const std::string key = name + "|" + rbf::kernelName(params.kernel) + "|" +
                            std::to_string(params.sigma) + "|" + std::to_string(params.wavenumber);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, rbf::evaluateCpu(namedProblem(name), params)).first;
    return it->second;
}

// Fail with the compared count, the worst target and the largest error when beyond tolerance.
void expectClose(const rbf::Result& got, const rbf::Result& want, double tolerance) {
    const rbf::Comparison c = rbf::compareResults(got, want);
    QVERIFY2(c.valid, "result does not cover the reference's targets or is not as complex");
    if (std::getenv("RBF_VERBOSE")) qInfo("relative deviation %.3g", c.relative);
    if (c.relative > tolerance)
        QFAIL(qPrintable(QString("max|f - f_ref| / max|f_ref| = %1 > %2 over %3 targets, worst at "
                                 "target %4 (max|f_ref| = %5)")
                             .arg(c.relative)
                             .arg(tolerance)
                             .arg(c.compared)
                             .arg(c.worstIndex)
                             .arg(c.maxReference)));
}

rbf::Params kernelParams(rbf::Kernel kernel, double sigma, double k) {
    rbf::Params p;
    p.kernel = kernel;
    p.sigma = sigma;
    p.wavenumber = k;
    return p;
}

void TestRbf::variantsMatchReference_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<int>("kernel");
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("wavenumber");
    QTest::addColumn<QString>("tuning"); // NAME=VALUE,...
    const std::vector<std::string> problems{
        "1x1 coincident",        "4097x1000", "7x4097", "1000x7 complex", "planes 7 x13",
        "planes 33 x50 complex", "no sources"};
    const char* kernels[] = {"gaussian", "laplace", "helmholtz"};
    for (const char* variant : {"seed", "tiled", "tiled-fast", "fp64"})
        for (const std::string& problem : problems)
            for (int k = 0; k < 3; ++k) {
                if (std::string(variant) == "seed" &&
                    (problem == "4097x1000" || problem == "7x4097" || problem == "planes 7 x13"))
                    continue; // beyond the seed kernel's source limit (supportReasons), or
                              // one program less to build
                QTest::addRow("%s %s %s", variant, problem.c_str(), kernels[k])
                    << variant << QString::fromStdString(problem) << k << 0.1 << 10.0 << "";
            }
    // The tuning a GPU takes (defaultTuning) and odd ones, forced on the test device.
    for (int k = 0; k < 3; ++k)
        QTest::addRow("tiled gpu tuning %s", kernels[k])
            << "tiled"
            << "4097x1000" << k << 0.1 << 10.0 << "RBF_WG=128,RBF_TPW=4,RBF_UNROLL=8";
    QTest::addRow("tiled-fast gpu tuning")
        << "tiled-fast"
        << "1000x7 complex" << 2 << 0.1 << 10.0 << "RBF_WG=128,RBF_TPW=4,RBF_UNROLL=8";
    QTest::addRow("tiled 256x8 unroll 1")
        << "tiled"
        << "4097x1000" << 2 << 0.1 << 10.0 << "RBF_WG=256,RBF_TPW=8,RBF_UNROLL=1";
    QTest::addRow("tiled 32x1 unroll 3")
        << "tiled"
        << "4097x1000" << 1 << 0.1 << 10.0 << "RBF_WG=32,RBF_TPW=1,RBF_UNROLL=3";
    QTest::addRow("fp64 gpu tuning")
        << "fp64"
        << "1000x7 complex" << 2 << 0.1 << 10.0 << "RBF_WG=128,RBF_TPW=2,RBF_UNROLL=4";
    // Coordinates around 100 with unit-cube separations: fp32 needs positions relative to the
    // data's centre.
    for (const char* variant : {"tiled", "tiled-fast", "fp64"})
        for (int k = 0; k < 3; ++k)
            QTest::addRow("%s offset 100 %s", variant, kernels[k])
                << variant << "offset 1000x300" << k << 0.1 << 10.0 << "";
    // sigma small and large, k = 0 and large.
    for (const char* variant : {"tiled", "tiled-fast", "fp64"}) {
        QTest::addRow("%s sigma 0.02", variant) << variant << "4097x1000" << 0 << 0.02 << 0.0 << "";
        QTest::addRow("%s sigma 10", variant) << variant << "4097x1000" << 0 << 10.0 << 0.0 << "";
        QTest::addRow("%s k 0", variant) << variant << "1000x7 complex" << 2 << 0.1 << 0.0 << "";
        QTest::addRow("%s k 200", variant)
            << variant << "1000x7 complex" << 2 << 0.1 << 200.0 << "";
    }
    // separable: Gaussian on planes; CPU-device tiles (default here), the GPU's, odd ones.
    const std::pair<const char*, const char*> separableRows[] = {
        {"planes 7 x13", "SEP_TS=16,SEP_WPT=4,SEP_KT=16"},
        {"planes 7 x13", "SEP_TS=4,SEP_WPT=1,SEP_KT=32"},
        {"planes 33 x50 complex", ""},
        {"planes 33 x50 complex", "SEP_TS=16,SEP_WPT=4,SEP_KT=16"}};
    for (const auto& [problem, tuning] : separableRows)
        for (double sigma : {0.1, 0.03, 3.0})
            QTest::addRow("separable %s [%s] sigma %g", problem, tuning, sigma)
                << "separable" << problem << 0 << sigma << 0.0 << tuning;
    QTest::addRow("seed sigma 0.03") << "seed"
                                     << "planes 33 x50 complex" << 0 << 0.03 << 0.0 << "";
}

void TestRbf::variantsMatchReference() {
    QFETCH(QString, variant);
    QFETCH(QString, problem);
    QFETCH(int, kernel);
    QFETCH(double, sigma);
    QFETCH(double, wavenumber);
    QFETCH(QString, tuning);
    rbf::Params params = kernelParams(static_cast<rbf::Kernel>(kernel), sigma, wavenumber);
    for (const QString& item : tuning.split(',', Qt::SkipEmptyParts))
        params.tuning[item.section('=', 0, 0).toStdString()] = item.section('=', 1).toInt();
    const DeviceInfo device = testDevice();
    if (device.isHost()) QSKIP("no OpenCL device");
    if (variant == "fp64" && !device.fp64) QSKIP("the device has no fp64");
    const rbf::Problem& p = namedProblem(problem.toStdString());
    const rbf::Result got = test::runRbf(device, variant.toStdString(), p, params);
    QCOMPARE(got.variant, variant.toStdString());
    QCOMPARE(got.count(), p.targetCount());
    expectClose(got, reference(problem.toStdString(), params),
                rbf::tolerance(variant.toStdString(), params.kernel));
    // The run's own check against double on a sample of targets.
    QCOMPARE(got.sampleCount, std::min<std::size_t>(p.targetCount(), 64));
    if (got.sampleCount)
        QVERIFY(got.sampleDeviation <= rbf::tolerance(variant.toStdString(), params.kernel));
}

void TestRbf::referenceMatchesScipy() {
    // tests/data/rbf_fixture.h5 from make_rbf_fixture.py (numpy + scipy.spatial.distance).
    const H5Reader file(test::dataFile("rbf_fixture.h5"));
    const rbf::Problem real = rbf::readProblem(file, "/real");
    const rbf::Problem cplx = rbf::readProblem(file, "/complex");
    for (const char* kernel : {"gaussian", "laplace", "helmholtz"}) {
        rbf::Params params = kernelParams(rbf::parseKernel(kernel), file.readScalar("/sigma"),
                                          file.readScalar("/wavenumber"));
        for (const auto& [group, problem] :
             {std::pair{"real", &real}, std::pair{"complex", &cplx}}) {
            const rbf::Result want =
                rbf::readPotential(file, "/expected/" + std::string(group) + "/" + kernel);
            const rbf::Result got = rbf::evaluateCpu(*problem, params);
            expectClose(got, want, 1e-13);
            if (QTest::currentTestFailed()) qWarning("kernel %s, %s weights", kernel, group);
        }
    }
}

// The seed notebook's plane targets and Gaussian sums (its numpy code, run once).
void TestRbf::planesMatchTheSeedNotebook() {
    const H5Reader file(test::dataFile("rbf_fixture.h5"));
    const std::size_t n = static_cast<std::size_t>(file.readScalar("/planes/n"));
    const rbf::Problem planes = rbf::readProblem(file, "/planes", n);
    const rbf::Result want = rbf::readPotential(file, "/planes/expected");
    const rbf::Params params = kernelParams(rbf::Kernel::Gaussian, 0.1);
    expectClose(rbf::evaluateCpu(planes, params), want, 1e-13);
    const DeviceInfo device = testDevice();
    if (device.isHost()) return;
    for (const char* variant : {"seed", "separable", "tiled"})
        expectClose(test::runRbf(device, variant, planes, params), want, rbf::toleranceFp32);
}

void TestRbf::referenceSemantics() {
    // One pair: the kernels' closed forms; r = 0 contributes nothing to Laplace/Helmholtz.
    rbf::Problem p;
    p.sources = {0.25, 0.5, 0.5};
    p.weights = {2.0};
    p.targets.points = {0.75, 0.5, 0.5, 0.25, 0.5, 0.5};
    const double pi = 3.14159265358979323846;
    const rbf::Result g = rbf::evaluateCpu(p, kernelParams(rbf::Kernel::Gaussian, 0.2));
    QCOMPARE(g.potential[0], 2.0 * std::exp(-0.25 / (2 * 0.04)));
    QCOMPARE(g.potential[1], 2.0);
    const rbf::Result l = rbf::evaluateCpu(p, kernelParams(rbf::Kernel::Laplace));
    QCOMPARE(l.potential[0], 2.0 / (4 * pi * 0.5));
    QCOMPARE(l.potential[1], 0.0);
    const rbf::Result h = rbf::evaluateCpu(p, kernelParams(rbf::Kernel::Helmholtz, 0.1, 3.0));
    QVERIFY(h.complex);
    QCOMPARE(h.potential[0], 2.0 * std::cos(1.5) / (4 * pi * 0.5));
    QCOMPARE(h.potential[1], 2.0 * std::sin(1.5) / (4 * pi * 0.5));
    QCOMPARE(h.potential[2], 0.0);
    // k = 0: Helmholtz equals Laplace, componentwise for complex weights.
    const rbf::Problem& c = namedProblem("1000x7 complex");
    const rbf::Result h0 = rbf::evaluateCpu(c, kernelParams(rbf::Kernel::Helmholtz, 0.1, 0.0));
    const rbf::Result l0 = rbf::evaluateCpu(c, kernelParams(rbf::Kernel::Laplace));
    QVERIFY(l0.complex);
    expectClose(h0, l0, 1e-15);
    // sigma much larger than the cube: every Gaussian term tends to its weight.
    const rbf::Problem& b = namedProblem("planes 7 x13");
    const rbf::Result wide = rbf::evaluateCpu(b, kernelParams(rbf::Kernel::Gaussian, 1e4));
    double total = 0;
    for (double w : b.weights)
        total += w;
    for (double f : wide.potential)
        QVERIFY(std::abs(f - total) < 1e-6);
}

void TestRbf::planeTargetsFollowTheSeed() {
    // np.mgrid[0:1:n*1j, 0:1:n*1j] raveled: xy, then xz, then yz (the seed's targets).
    const std::size_t n = 5;
    rbf::Targets t;
    t.planes = n;
    QCOMPARE(t.count(), 3 * n * n);
    const std::vector<double> seed = synthetic::planeTargets(n);
    for (std::size_t i = 0; i < t.count(); ++i)
        for (int a = 0; a < 3; ++a)
            QCOMPARE(t.at(i)[a], seed[3 * i + a]);
    QCOMPARE(t.at(1)[1], 0.25); // xy: second index runs fastest along y
    QCOMPARE(t.at(n * n + n)[0], 0.25);
    QCOMPARE(t.at(2 * n * n + 1)[2], 0.25);
    rbf::Targets one;
    one.planes = 1;
    QCOMPARE(one.at(2)[0], 0.0);
}

void TestRbf::supportReasons() {
    const DeviceInfo device = testDevice();
    if (device.isHost()) QSKIP("no OpenCL device");
    const rbf::Problem& many = namedProblem("7x4097");
    const rbf::Params gaussian = kernelParams(rbf::Kernel::Gaussian);
    const Support seed = rbf::supports("seed", device, &many, &gaussian);
    QVERIFY(!seed.ok);
    QVERIFY2(seed.reason.find("4097 sources exceed") != std::string::npos, seed.reason.c_str());
    EXPECT_ERROR(UsageError, test::runRbf(device, "seed", many, gaussian), "4097 sources exceed");
    const rbf::Problem& planes = namedProblem("planes 7 x13");
    QVERIFY(rbf::supports("separable", device, &planes, &gaussian).ok);
    const rbf::Params laplace = kernelParams(rbf::Kernel::Laplace);
    QVERIFY(rbf::supports("separable", device, &planes, &laplace).reason.find("Gaussian only") !=
            std::string::npos);
    QVERIFY(rbf::supports("separable", device, &many, &gaussian).reason.find("plane grid") !=
            std::string::npos);
    DeviceInfo noFp64 = device;
    noFp64.fp64 = false;
    QVERIFY(rbf::supports("fp64", noFp64).reason.find("fp64") != std::string::npos);
    QVERIFY(!rbf::supports("cpu", device).ok);
    QVERIFY(rbf::supports("cpu", hostDevice()).ok);
    EXPECT_ERROR(UsageError, test::runRbf(device, "bogus", many, gaussian), "no variant 'bogus'");
}

// What fp32 cannot hold: Helmholtz phases k r beyond the float variants' tolerance, and pairs
// so far apart that r^2 overflows. Those refuse with the reason, and a run with no variant
// named takes fp64, within its own tolerance of cpu (before, tiled ran and missed its 1e-5 by
// 240x at k r ~ 1.7e5, and Laplace at 1e20 apart gave 0).
void TestRbf::floatVariantsRefuseWhatFp32CannotHold() {
    const DeviceInfo device = testDevice();
    if (device.isHost() || !device.fp64) QSKIP("no OpenCL device with fp64");
    rbf::Problem wide = makeProblem(40, 9, false, 0, 0, 31);
    for (std::vector<double>* v : {&wide.sources, &wide.targets.points})
        for (double& x : *v)
            x *= 1e4; // k r up to about 1.7e5 at k = 10
    const rbf::Params helmholtz = kernelParams(rbf::Kernel::Helmholtz);
    for (const char* variant : {"seed", "tiled", "tiled-fast"}) {
        const Support s = rbf::supports(variant, device, &wide, &helmholtz);
        QVERIFY2(!s.ok && s.reason.find("Helmholtz phase k·r up to") != std::string::npos,
                 (std::string(variant) + ": " + s.reason).c_str());
    }
    QVERIFY(rbf::supports("fp64", device, &wide, &helmholtz).ok);
    const rbf::Params laplace = kernelParams(rbf::Kernel::Laplace);
    QVERIFY(rbf::supports("tiled", device, &wide, &laplace).ok); // no phase
    const rbf::Result chosen = test::runRbf(device, "", wide, helmholtz);
    QCOMPARE(chosen.variant, std::string("fp64"));
    expectClose(chosen, test::runRbf(hostDevice(), "cpu", wide, helmholtz), 1e-9);
    rbf::Problem far = makeProblem(40, 9, false, 0, 0, 32);
    for (double& x : far.sources)
        x *= 1e20;
    const Support s = rbf::supports("tiled", device, &far, &laplace);
    QVERIFY2(!s.ok && s.reason.find("r² overflows fp32") != std::string::npos, s.reason.c_str());
    QCOMPARE(test::runRbf(device, "", far, laplace).variant, std::string("fp64"));
}

void TestRbf::compareOnTargetSubset() {
    const rbf::Problem& full = namedProblem("planes 33 x50 complex");
    const rbf::Params params = kernelParams(rbf::Kernel::Helmholtz);
    const std::vector<std::size_t> sample = rbf::sampleIndices(full.targetCount(), 100);
    QCOMPARE(sample.size(), std::size_t(100));
    QCOMPARE(sample.back(), full.targetCount() - 1);
    rbf::Result sub = rbf::evaluateCpu(rbf::subsetTargets(full, sample), params);
    sub.targetIndex = sample;
    const rbf::Result all = rbf::evaluateCpu(full, params);
    const rbf::Comparison c = rbf::compareResults(all, sub);
    QCOMPARE(c.compared, sample.size());
    QCOMPARE(c.relative, 0.0);
    rbf::Result changed = all;
    changed.potential[2 * sample[7] + 1] += 1.0;
    QCOMPARE(rbf::compareResults(changed, sub).worstIndex, static_cast<long long>(sample[7]));
    rbf::Result shorter = all;
    shorter.potential.resize(10);
    QVERIFY(!rbf::compareResults(shorter, sub).valid);
}

QTEST_GUILESS_MAIN(TestRbf)
