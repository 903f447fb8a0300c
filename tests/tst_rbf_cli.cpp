// tst_rbf (2/2): particle files, the Algorithm object (bench cases, a reference on a sample
// of targets) and clscope-cli rbf (layout, provenance, exit codes).
#include "tst_rbf.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "core/rbf/rbf_io.hpp"
#include "core/rbf/synthetic.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "test_util.hpp"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <cmath>

using namespace clscope;

void TestRbf::fileRoundTrip() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("p.h5").toStdString();
    synthetic::ParticlesParams gp;
    gp.sources = 11;
    gp.gridPoints = 4;
    gp.complexWeights = true;
    {
        H5Writer out(path);
        Particles particles = synthetic::generateParticles(gp);
        writeParticles(out, particles);
        out.commit();
    }
    const H5Reader in(path);
    const rbf::Problem listed = rbf::readProblem(in);
    const rbf::Problem planes = rbf::readProblem(in, rbf::particlesGroup, 4);
    QCOMPARE(listed.targetCount(), std::size_t(48));
    QVERIFY(listed.complexWeights);
    const rbf::Params params = kernelParams(rbf::Kernel::Gaussian);
    const rbf::Result a = rbf::evaluateCpu(listed, params), b = rbf::evaluateCpu(planes, params);
    QCOMPARE(a.potential, b.potential); // the generated targets are the planes
    const std::string outPath = dir.filePath("o.h5").toStdString();
    {
        H5Writer out(outPath);
        rbf::writePotential(out, a);
        out.commit();
    }
    const rbf::Result back = rbf::readPotential(H5Reader(outPath));
    QVERIFY(back.complex);
    QCOMPARE(back.potential, a.potential);
}

void TestRbf::rejectsBadInputs() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("bad.h5").toStdString();
    {
        H5Writer out(path);
        out.write("/particles/sources", makeArray<double>({4, 3}, std::vector<double>(12, 0.5)));
        out.write("/particles/weights", makeArray<double>({3}, {1, 2, 3}));
        out.write("/particles/targets", makeArray<double>({2, 2}, {1, 2, 3, 4}));
        out.commit();
    }
    const H5Reader in(path);
    EXPECT_ERROR(InputError, rbf::readProblem(in, rbf::particlesGroup, 3), "/particles/weights",
                 "(4,)");
    EXPECT_ERROR(InputError, rbf::readProblem(in, "/nothing", 3), "/nothing/sources");
    rbf::Params bad;
    bad.sigma = 0;
    EXPECT_ERROR(UsageError, bad.check(), "sigma");
    EXPECT_ERROR(UsageError, rbf::parseKernel("coulomb"), "gaussian, laplace or helmholtz");
    rbf::Problem nan = namedProblem("1x1 coincident");
    nan.weights[0] = NAN;
    EXPECT_ERROR(InputError, rbf::evaluateCpu(nan, {}), "finite");
}

void TestRbf::algorithmOnSample() {
    // The bench cases' shapes; the large one's reference covers 1000 of its 10^6 targets.
    const rbf::Algorithm algorithm;
    const BenchCase seed = algorithm.benchCase("seed");
    QCOMPARE(seed.work, 480000.0 * 50);
    QCOMPARE(seed.params.integer("planes"), 400LL);
    const BenchCase large = algorithm.benchCase("large-helmholtz");
    const auto& sample = dynamic_cast<const rbf::RbfInput&>(*large.referenceInput);
    QCOMPARE(dynamic_cast<const rbf::RbfInput&>(*large.input).problem.targetCount(),
             std::size_t(1000000));
    QCOMPARE(sample.problem.targetCount(), std::size_t(1000));
    QVERIFY(sample.problem.complexWeights);
    EXPECT_ERROR(UsageError, algorithm.benchCase("huge"), "huge");
    // A reference on a sample of the targets against a full run, through the interface.
    const rbf::Problem& full = namedProblem("4097x1000");
    auto input = rbf::makeInput(full);
    auto part = rbf::makeInput({});
    part->targetIndex = rbf::sampleIndices(full.targetCount(), 300);
    part->problem = rbf::subsetTargets(full, part->targetIndex);
    ParamSet params = algorithm.defaultParams();
    params.set("kernel", "laplace");
    const DeviceInfo device = testDevice();
    const bool host = device.isHost();
    const auto got = runAlgorithm(algorithm, {device, host ? "cpu" : "tiled", input, params, {}});
    const auto want = runAlgorithm(algorithm, {hostDevice(), "cpu", part, params, {}});
    const Deviation d = algorithm.compare(*got, *want);
    QVERIFY2(d.pass, d.note.c_str());
    QCOMPARE(d.compared, std::size_t(300));
    QVERIFY(d.note.find("300 of 4097") != std::string::npos);
    QCOMPARE(d.tolerance, host ? rbf::toleranceFp64 : rbf::toleranceFp32);
    QVERIFY(got->info.kernelMs > 0);
    // The variant's support depends on the input: separable needs plane targets.
    QVERIFY(!algorithm.supports(algorithm.variant("separable"), device, input.get(), &params).ok);
}

void TestRbf::splitOverDevices() {
    // Three host "devices" give the same result as one; so do two PoCL queues (planes too).
    const rbf::Algorithm algorithm;
    ParamSet params = algorithm.defaultParams();
    params.set("kernel", "helmholtz");
    params.set("planes", 33);
    const auto input = rbf::makeInput(namedProblem("planes 33 x50 complex"));
    const RunRequest one{hostDevice(), "cpu", input, params, {}, {}, SplitRule::Always};
    const auto whole = runAlgorithm(algorithm, one);
    const auto split = runOnDevices(algorithm, one, {hostDevice(), hostDevice(), hostDevice()});
    const auto& a = dynamic_cast<const rbf::RbfResult&>(*whole).result;
    const auto& b = dynamic_cast<const rbf::RbfResult&>(*split).result;
    QCOMPARE(b.potential, a.potential);
    QVERIFY(algorithm.compare(*split, *whole).pass);
    const DeviceInfo device = testDevice();
    if (device.isHost()) return;
    const auto gpu = runOnDevices(
        algorithm, {device, "tiled", input, params, {}, {}, SplitRule::Always}, {device, device});
    const Deviation d = algorithm.compare(*gpu, *whole);
    QVERIFY2(d.pass, qPrintable(QString::number(d.maxDeviation)));
    QCOMPARE(d.compared, a.count());
    // separable needs the whole plane grid: on several devices it runs whole on the first
    // (the split's parts are target lists it refuses), and says so.
    ParamSet gaussian = algorithm.defaultParams();
    gaussian.set("planes", 33);
    const auto separable =
        runOnDevices(algorithm, {device, "separable", input, gaussian, {}}, {device, device});
    QVERIFY2(separable->info.deviceName.find("whole on " + device.spec) != std::string::npos,
             separable->info.deviceName.c_str());
    const auto reference = runAlgorithm(algorithm, {hostDevice(), "cpu", input, gaussian, {}});
    QVERIFY(algorithm.compare(*separable, *reference).pass);
}

// Run clscope-cli; returns its exit code (its stderr in `err` when given).
static int cli(const QStringList& args, QString* err = nullptr) {
    QProcess p;
    p.start(qEnvironmentVariable("CLSCOPE_CLI"), args);
    if (!p.waitForFinished(120000)) return -1;
    const QString text = QString::fromUtf8(p.readAllStandardError());
    if (err)
        *err = text;
    else if (p.exitCode() != 0)
        qInfo().noquote() << text;
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

void TestRbf::commandLine() {
    QTemporaryDir dir;
    const QString in = dir.filePath("in.h5"), cplx = dir.filePath("complex.h5");
    const QString out = dir.filePath("out.h5"), other = dir.filePath("other.h5");
    QCOMPARE(cli({"generate", "particles", "--sources", "13", "--grid-points", "6", "-o", in}), 0);
    QCOMPARE(cli({"rbf", in, "--device", "cpu", "--sigma", "0.2", "-o", out}), 0);
    const H5Reader file(out.toStdString());
    QCOMPARE(file.info("/rbf/potential").shape, (Shape{108}));
    QCOMPARE(*file.info("/rbf/potential").dtype, DType::Float64);
    QCOMPARE(file.stringAttribute("/rbf", "variant").value_or(""), std::string("cpu"));
    QVERIFY(file.stringAttribute("/rbf", "kernel_ms").has_value());
    const auto parameters =
        nlohmann::json::parse(file.stringAttribute("/rbf", "parameters").value());
    QCOMPARE(parameters.at("kernel").get<std::string>(), std::string("gaussian"));
    QCOMPARE(parameters.at("sigma").get<double>(), 0.2);
    const rbf::Result want = rbf::readPotential(file);
    // The file's targets are the seed's planes: separable on --planes 6 gives the same sums.
    if (!openclDevices().empty()) {
        QCOMPARE(cli({"rbf", in, "--device", "ocl:0", "--variant", "separable", "--planes", "6",
                      "--sigma", "0.2", "-o", other}),
                 0);
        expectClose(rbf::readPotential(H5Reader(other.toStdString())), want, rbf::toleranceFp32);
        QVERIFY(H5Reader(other.toStdString()).stringAttribute("/rbf", "sample_deviation"));
    }
    // Helmholtz (and complex weights): (M, 2) as [re, im].
    QCOMPARE(cli({"generate", "particles", "--sources", "7", "--grid-points", "4", "--complex",
                  "-o", cplx}),
             0);
    const QString helmholtz = dir.filePath("helmholtz.h5");
    QCOMPARE(cli({"rbf", cplx, "--device", "cpu", "--kernel", "helmholtz", "--wavenumber", "3",
                  "-o", helmholtz}),
             0);
    QCOMPARE(H5Reader(helmholtz.toStdString()).info("/rbf/potential").shape, (Shape{48, 2}));
    // Usage errors (exit 2) and bad input (exit 3) leave no output behind.
    const QString failed = dir.filePath("failed.h5");
    QString err;
    QCOMPARE(cli({"rbf", in, "--device", "cpu", "--kernel", "coulomb", "-o", failed}), 2);
    QCOMPARE(cli({"rbf", in, "--device", "cpu", "--sigma", "0", "-o", failed}), 2);
    if (!openclDevices().empty()) {
        QCOMPARE(
            cli({"rbf", in, "--device", "ocl:0", "--variant", "separable", "-o", failed}, &err), 2);
        QVERIFY2(err.contains("plane grid"), qPrintable(err));
    }
    QCOMPARE(cli({"rbf", in, "--particles", "/nothing", "--device", "cpu", "-o", failed}, &err), 3);
    QVERIFY2(err.contains("/nothing/sources"), qPrintable(err));
    QVERIFY(!QFile::exists(failed));
}
