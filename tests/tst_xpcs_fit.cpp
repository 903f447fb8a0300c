// xpcs fits on the pipeline's own g2 and g2_err (the last lag has g2_err = 0): the weighted
// fit leaves that point out and keeps the weights of the others, and agrees with
// scipy.optimize.curve_fit (tests/data/xpcs_fit_scipy.py wrote tests/data/xpcs_fit_fixture.txt);
// correlate --fit writes /xpcs/fit.
#include "core/io.hpp"
#include "core/xpcs/fit_bins.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "test_util.hpp"

#include <QProcess>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace clscope;

namespace {

// Frames whose pixels follow an AR(1) process x_t = rho x_{t-1} + sqrt(1 - rho^2) u_t (u
// uniform, own xorshift generator so the data are the same everywhere): g2 - 1 decays as
// rho^tau = exp(-2 Γ tau) with Γ = -ln(rho) / 2.
Array ar1Frames(std::size_t frames, std::size_t pixels, double rho) {
    std::uint64_t state = 88172645463325252ull;
    auto uniform = [&] {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return (static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1) * std::sqrt(3.0);
    };
    std::vector<double> x(pixels);
    for (double& v : x)
        v = uniform();
    std::vector<std::uint16_t> out(frames * pixels);
    for (std::size_t t = 0; t < frames; ++t)
        for (std::size_t p = 0; p < pixels; ++p) {
            if (t > 0) x[p] = rho * x[p] + std::sqrt(1 - rho * rho) * uniform();
            out[t * pixels + p] =
                static_cast<std::uint16_t>(std::lround(1000.0 * (1.0 + 0.12 * x[p])));
        }
    return makeArray<std::uint16_t>({frames, 1, pixels}, out);
}

// The fixture: lines "tau g2 g2_err" then "fit baseline beta gamma" and "err ..." from scipy.
struct Fixture {
    std::vector<double> tau, g2, err, fit, fitErr;
};
Fixture readFixture() {
    std::ifstream in(test::dataFile("xpcs_fit_fixture.txt"));
    Fixture f;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream s(line);
        std::string head;
        s >> head;
        std::vector<double>* to = head == "fit" ? &f.fit : head == "err" ? &f.fitErr : nullptr;
        if (to) {
            for (double v; s >> v;)
                to->push_back(v);
            continue;
        }
        f.tau.push_back(std::stod(head));
        double g, e;
        s >> g >> e;
        f.g2.push_back(g), f.err.push_back(e);
    }
    return f;
}

// The AR(1) frames as a file: one bin of 400 pixels, 60 frames of 10 ms.
void writeAr1Input(const QString& path) {
    H5Writer w(path.toStdString());
    w.write(paths::frames, ar1Frames(60, 400, 0.9));
    w.write(paths::qmask, labelsArray(LabelMask{1, 400, std::vector<std::int32_t>(400, 1)}));
    w.writeScalar(paths::frameTime, 0.01);
    w.commit();
}

int cliCode(const QStringList& args) {
    return test::runCli(args).code;
}

double first(const H5Reader& file, const std::string& path) {
    return file.read(path, DType::Float64).as<double>()[0];
}

xpcs::Result pipelineResult() {
    const Array frames = ar1Frames(60, 400, 0.9);
    const LabelMask mask{1, 400, std::vector<std::int32_t>(400, 1)};
    xpcs::Params params;
    params.frameTime = 0.01;
    return xpcs::correlateCpu(frames, mask, params);
}

} // namespace

class TestXpcsFit : public QObject {
    Q_OBJECT
  private slots:
    void weightedFitMatchesScipy();
    void correlateWritesFits();
    void correlateWritesEachModelsParameters();
    void brownianDiffusionRecovered();
    void optionsChangeTheFitAsDeclared();
    void qualityFlagsFireOnConstructedCases();
};

void TestXpcsFit::weightedFitMatchesScipy() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    const xpcs::Result r = pipelineResult();
    if (qEnvironmentVariableIsSet("CLSCOPE_WRITE_FIT_FIXTURE")) { // regenerate the input part
        std::ofstream out(qEnvironmentVariable("CLSCOPE_WRITE_FIT_FIXTURE").toStdString());
        out.precision(17);
        for (std::size_t t = 0; t < r.frames; ++t)
            out << r.tau[t] << " " << r.g2[t] << " " << r.g2Err[t] << "\n";
    }
    const Fixture f = readFixture();
    QCOMPARE(f.tau.size(), r.frames);
    for (std::size_t t = 0; t < r.frames; ++t)
        QVERIFY(std::abs(f.g2[t] - r.g2[t]) <= 1e-12 * r.g2[t]);
    QCOMPARE(r.g2Err.back(), 0.0); // one pair at the last lag
    xpcs::G2Model model = xpcs::startingModel(r.tau, r.g2.data(), xpcs::G2Shape::Single);
    const xpcs::FitResult fit = xpcs::fitG2(r.tau, r.g2, r.g2Err, model);
    QVERIFY2(fit.converged, fit.message.c_str());
    QCOMPARE(fit.points, r.frames - 2); // tau = 0 and the zero-sigma last lag left out
    QCOMPARE(f.fit.size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i) {
        QVERIFY2(std::abs(fit.values[i] - f.fit[i]) <= 1e-6 * std::abs(f.fit[i]),
                 qPrintable(QString("parameter %1: %2 vs scipy %3")
                                .arg(i)
                                .arg(fit.values[i], 0, 'g', 12)
                                .arg(f.fit[i], 0, 'g', 12)));
        QVERIFY2(std::abs(fit.errors[i] - f.fitErr[i]) <= 1e-4 * f.fitErr[i],
                 qPrintable(QString("error %1: %2 vs scipy %3")
                                .arg(i)
                                .arg(fit.errors[i], 0, 'g', 12)
                                .arg(f.fitErr[i], 0, 'g', 12)));
    }
    // Γ = -ln(0.9) / 2 per frame, 0.01 s per frame.
    QVERIFY(std::abs(fit.values[2] - (-std::log(0.9) / 2 / 0.01)) < 0.2 * fit.values[2]);
}

void TestXpcsFit::correlateWritesFits() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    QTemporaryDir dir;
    const QString in = dir.filePath("in.h5"), out = dir.filePath("out.h5");
    writeAr1Input(in);
    QProcess p;
    p.start(qEnvironmentVariable("CLSCOPE_CLI"), {"correlate", in, "--device", "cpu", "--fit",
                                                  "single", "--fit-tau-max", "10", "-o", out});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    const H5Reader file(out.toStdString());
    const Fixture f = readFixture();
    const Array gamma = file.read("/xpcs/fit/gamma", DType::Float64);
    QVERIFY(std::abs(gamma.as<double>()[0] - f.fit[2]) <= 1e-6 * f.fit[2]);
    for (const char* name :
         {"baseline", "beta", "alpha", "baseline_err", "beta_err", "gamma_err", "alpha_err"})
        QCOMPARE(file.info(std::string("/xpcs/fit/") + name).shape, (Shape{1}));
    QCOMPARE(file.stringAttribute("/xpcs/fit/gamma", "units").value_or(""), std::string("1/s"));
    QCOMPARE(file.read("/xpcs/fit/alpha", DType::Float64).as<double>()[0], 1.0);
}

// Issue 54: --fit double adds beta2, gamma2 (+ _err), every model chi2_red, aic, bic and the
// model attribute; single writes none of the other models' parameters; flow on an input
// without q is a usage error naming q, with no output. (The AR(1) g2 is one exponential: the
// double fit of its 19 lags does not converge, quality 1; tst_xpcs_fit_models fits double
// on two.)
void TestXpcsFit::correlateWritesEachModelsParameters() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    QTemporaryDir dir;
    const QString in = dir.filePath("in.h5"), single = dir.filePath("single.h5"),
                  both = dir.filePath("double.h5"), flow = dir.filePath("flow.h5");
    writeAr1Input(in);
    QCOMPARE(cliCode({"correlate", in, "--device", "cpu", "--fit", "single", "-o", single}), 0);
    QCOMPARE(cliCode({"correlate", in, "--device", "cpu", "--fit", "double", "-o", both}), 0);
    const H5Reader s(single.toStdString()), d(both.toStdString());
    for (const char* name : {"chi2_red", "aic", "bic", "quality"}) {
        QCOMPARE(s.info(std::string("/xpcs/fit/") + name).shape, (Shape{1}));
        QCOMPARE(d.info(std::string("/xpcs/fit/") + name).shape, (Shape{1}));
    }
    for (const char* name : {"beta2", "beta2_err", "gamma2", "gamma2_err"}) {
        QVERIFY(!s.hasDataset(std::string("/xpcs/fit/") + name));
        QCOMPARE(d.info(std::string("/xpcs/fit/") + name).shape, (Shape{1}));
    }
    QVERIFY(!s.hasDataset("/xpcs/fit/velocity") && !d.hasDataset("/xpcs/fit/velocity"));
    QCOMPARE(d.stringAttribute("/xpcs/fit/gamma2", "units").value_or(""), std::string("1/s"));
    QVERIFY(d.stringAttribute("/xpcs/fit", "model").value_or("").rfind("double: g2 = ", 0) == 0);
    const auto noQ =
        test::runCli({"correlate", in, "--device", "cpu", "--fit", "flow", "-o", flow});
    QCOMPARE(noQ.code, 2);
    QVERIFY2(noQ.err.contains("--fit flow needs the q of each bin"), qPrintable(noQ.err));
    QVERIFY(!QFile::exists(flow));
}

// generate xpcs --model brownian (D known) -> correlate --fit single [--diffusion]: D within
// 5 %, the free exponent within 0.1 of 2 (points with tau <= 0.1 s, a third of the window).
void TestXpcsFit::brownianDiffusionRecovered() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    QTemporaryDir dir;
    const QString in = dir.filePath("in.h5"), params = dir.filePath("p.json");
    const QString withD = dir.filePath("d.h5"), free = dir.filePath("n.h5");
    auto cli = [](const QStringList& args) {
        QProcess p;
        p.start(qEnvironmentVariable("CLSCOPE_CLI"), args);
        return p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit ? p.exitCode()
                                                                                   : -1;
    };
    QCOMPARE(cli({"generate",     "xpcs",        "--model",     "brownian", "--frames",
                  "300",          "--height",    "96",          "--width",  "96",
                  "--ring-width", "6",           "--intensity", "50",       "--dtype",
                  "uint16",       "--diffusion", "1e6",         "-o",       in}),
             0);
    QFile f(params);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"fit_tau_max": 0.1})");
    f.close();
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--params", params, "--fit", "single",
                  "--diffusion", "-o", withD}),
             0);
    QCOMPARE(cli({"correlate", in, "--device", "cpu", "--params", params, "--fit", "single", "-o",
                  free}),
             0);
    // The defaults (τ max auto: the first third of the lags) give D too. The two slowest bins
    // (labels 1 and 2: g2 hardly decays within the fitted lags) trade the baseline against β:
    // baseline ≈ 1.7 and 1.3, label 1 with χ²_red ≈ 0.02: issue 38's fits marked "ok", now
    // flagged. No other bin has any of the new flags.
    const QString defaults = dir.filePath("defaults.h5");
    QCOMPARE(
        cli({"correlate", in, "--device", "cpu", "--fit", "single", "--diffusion", "-o", defaults}),
        0);
    const H5Reader byDefault(defaults.toStdString());
    const double dDefault = byDefault.readScalar("/xpcs/fit/diffusion");
    QVERIFY2(std::abs(dDefault - 1e6) < 0.05e6, qPrintable(QString::number(dDefault)));
    const Array qualityArray = byDefault.read("/xpcs/fit/quality", DType::UInt32);
    const auto quality = qualityArray.as<std::uint32_t>();
    QCOMPARE(quality.size(), std::size_t(11));
    QCOMPARE(quality[0], std::uint32_t(xpcs::FlagBaseline | xpcs::FlagChi2Low));
    QCOMPARE(quality[1], std::uint32_t(xpcs::FlagBaseline));
    for (std::size_t b = 2; b < quality.size(); ++b)
        QCOMPARE(quality[b] & (xpcs::FlagBaseline | xpcs::FlagChi2Low | xpcs::FlagRateLaw), 0u);
    const H5Reader d(withD.toStdString()), n(free.toStdString());
    const double diffusion = d.readScalar("/xpcs/fit/diffusion");
    QVERIFY2(std::abs(diffusion - 1e6) < 0.05e6, qPrintable(QString::number(diffusion)));
    QCOMPARE(d.stringAttribute("/xpcs/fit/diffusion", "units").value_or(""),
             std::string("angstrom^2/s"));
    const double exponent = n.readScalar("/xpcs/fit/gamma_exponent");
    QVERIFY2(std::abs(exponent - 2.0) < 0.1, qPrintable(QString::number(exponent)));
    QVERIFY(!n.hasDataset("/xpcs/fit/diffusion"));
    // q per bin from qmask_q (nm^-1) in 1/Å, increasing with the ring.
    const Array q = n.read("/xpcs/q", DType::Float64);
    QCOMPARE(q.size(), n.info("/xpcs/labels").shape[0]);
    QVERIFY(q.as<double>()[1] > q.as<double>()[0] && q.as<double>()[0] > 0 &&
            q.as<double>()[0] < 0.01);
}

// Each fit option does what it declares: a fixed baseline is that value with no error, a β
// bound binds (and the quality says "at bound"), α fixed in the stretched model, and the τ
// range: the file's /xpcs/fit is xpcs::fitBins of its g2 with those options (default: τ max
// auto). A lower bound above its upper bound is a usage error naming both.
void TestXpcsFit::optionsChangeTheFitAsDeclared() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    QTemporaryDir dir;
    const QString in = dir.filePath("in.h5");
    writeAr1Input(in);
    const auto correlate = [&](const QString& name, const QStringList& options) {
        const QString out = dir.filePath(name + ".h5");
        QStringList args{"correlate", in, "--device", "cpu", "-o", out};
        args << (options.contains("--fit") ? QStringList() : QStringList{"--fit", "single"})
             << options;
        return cliCode(args) == 0 ? std::make_shared<const H5Reader>(out.toStdString())
                                  : std::shared_ptr<const H5Reader>();
    };
    const auto fixedBaseline = correlate("fixed", {"--fit-baseline-fixed", "1"});
    QVERIFY(fixedBaseline);
    QCOMPARE(first(*fixedBaseline, "/xpcs/fit/baseline"), 1.0);
    QCOMPARE(first(*fixedBaseline, "/xpcs/fit/baseline_err"), 0.0);
    const auto bound = correlate("bound", {"--fit-beta-max", "0.01"});
    QVERIFY(bound);
    QVERIFY(std::abs(first(*bound, "/xpcs/fit/beta") - 0.01) < 1e-8);
    QVERIFY(bound->read("/xpcs/fit/quality", DType::UInt32).as<std::uint32_t>()[0] &
            xpcs::FlagAtBound);
    const auto alpha = correlate("alpha", {"--fit", "stretched", "--fit-alpha-fixed", "1.5"});
    QVERIFY(alpha);
    QCOMPARE(first(*alpha, "/xpcs/fit/alpha"), 1.5);
    xpcs::FitOptions range;
    range.tauMin = 0.02, range.tauMax = 0.2;
    const auto ranged = correlate("range", {"--fit-tau-min", "0.02", "--fit-tau-max", "0.2"});
    const auto byDefault = correlate("default", {});
    QVERIFY(ranged && byDefault);
    const xpcs::Result g2 = xpcs::readResult(*ranged);
    const double expected[] = {xpcs::fitBins(g2, range, {}).gamma[0],
                               xpcs::fitBins(g2, xpcs::FitOptions{}, {}).gamma[0]};
    QCOMPARE(first(*ranged, "/xpcs/fit/gamma"), expected[0]);
    QCOMPARE(first(*byDefault, "/xpcs/fit/gamma"), expected[1]);
    QVERIFY(expected[0] != expected[1]);
    const auto bad = test::runCli({"correlate", in, "--device", "cpu", "--fit", "single",
                                   "--fit-beta-min", "3", "-o", dir.filePath("bad.h5")});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("fit_beta_min (3") && bad.err.contains("fit_beta_max (2"),
             qPrintable(bad.err));
}

// Five bins with Γ = D q² (χ²_red ≈ 1: errors the size of the residuals), then one of each
// defect of issue 38: Γ five times D q², a baseline of 1.59 with the data at 1.59 (not 1), and
// noise-free data (χ²_red ≪ 1). Each is flagged with its own bit, the others are 0; the bits
// are written as /xpcs/fit/quality with their legend.
void TestXpcsFit::qualityFlagsFireOnConstructedCases() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    const std::vector<double> q{0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04};
    const double scale[] = {1, 1, 1, 1, 5, 1, 1}, baseline[] = {1, 1, 1, 1, 1, 1.59, 1};
    xpcs::Result r;
    r.frames = 200, r.tauInSeconds = true;
    for (std::size_t t = 0; t < r.frames; ++t)
        r.tau.push_back(0.001 * double(t));
    for (std::size_t b = 0; b < q.size(); ++b) {
        r.labels.push_back(std::int32_t(b + 1)), r.pixels.push_back(100);
        const double rate = 2e5 * q[b] * q[b] * scale[b], noise = b == 6 ? 0.0 : 1e-3;
        for (std::size_t t = 0; t < r.frames; ++t) {
            const double sign = (t * 7 + b) % 2 ? 1.0 : -1.0;
            r.g2.push_back(baseline[b] + 0.3 * std::exp(-2 * rate * r.tau[t]) + sign * noise);
            r.g2Err.push_back(1e-3);
        }
    }
    const xpcs::BinFits fits = xpcs::fitBins(r, {}, q);
    const std::uint32_t expected[] = {
        0, 0, 0, 0, xpcs::FlagRateLaw, xpcs::FlagBaseline, xpcs::FlagChi2Low};
    for (std::size_t b = 0; b < q.size(); ++b)
        QVERIFY2(fits.quality[b].flags == expected[b],
                 qPrintable(QString("bin %1: flags %2 (%3), chi2_red %4")
                                .arg(b)
                                .arg(fits.quality[b].flags)
                                .arg(QString::fromStdString(fits.quality[b].concerns))
                                .arg(fits.chiSquaredReduced[b])));
    QCOMPARE(fits.quality[6].grade, xpcs::FitGrade::Overfit);
    QVERIFY(fits.quality[4].concerns.find("power law") != std::string::npos);
    QTemporaryDir dir;
    const std::string path = dir.filePath("q.h5").toStdString();
    {
        H5Writer out(path);
        xpcs::writeFits(out, fits, "/xpcs", true);
        out.commit();
    }
    const H5Reader back(path);
    const Array quality = back.read("/xpcs/fit/quality", DType::UInt32);
    QCOMPARE(std::vector<std::uint32_t>(quality.as<std::uint32_t>().begin(),
                                        quality.as<std::uint32_t>().end()),
             std::vector<std::uint32_t>(std::begin(expected), std::end(expected)));
    QVERIFY(
        back.stringAttribute("/xpcs/fit/quality", "flags").value_or("").find("16 chi2_red < 0.1") !=
        std::string::npos);
}

QTEST_GUILESS_MAIN(TestXpcsFit)
#include "tst_xpcs_fit.moc"
