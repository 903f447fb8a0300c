// Issue 54 item 2: the fit models single, stretched, double and flow (core/xpcs/fit_model.hpp).
// Each recovers its synthetic parameters over 100 noise seeds (fixed seeds, 80 log-spaced lags,
// one bin per seed through xpcs::fitBins), and scipy's curve_fit on the same points from the
// same start (tests/xpcs_fit_models_scipy.py) finds the same values and errors.
// "Within 2σ" (σ the fitted error) has a nominal coverage of 95.4 % (94.9 % with errors
// scaled by χ²_red, t with n − k degrees of freedom): a correct fit gives 95 ± 2 of 100, so
// "≥ 95 of 100" for every parameter holds only half of the time. What is asserted instead is what
// a correct fit gives with ≥ 99 % probability: per parameter ≥ 90 of 100, per model ≥ 93 % of
// all its (seed, parameter) pairs, and the pulls (fit − truth)/σ with |mean| < 0.35 and
// standard deviation in [0.8, 1.25]. The counts are printed. Flow without q is a usage error naming
// q; AIC and BIC are χ² + 2k and χ² + k·ln n and pick the double exponential on its data; a
// covariance with a parameter the data do not determine is flagged singular.
#include "core/errors.hpp"
#include "core/xpcs/fit_bins.hpp"
#include "scipy_script.hpp"
#include "test_util.hpp"

#include <QProcess>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

using namespace clscope;
using xpcs::G2Shape;

namespace {

constexpr std::size_t seeds = 100, lags = 80;
constexpr double noise = 0.002; // g2_err of every lag
constexpr double q = 0.01;      // 1/Å (flow)

struct Case {
    G2Shape shape;
    std::vector<double> truth; // G2Param order
};

// Parameters a fit can resolve from 80 lags from 1 ms to 1 s with g2_err 0.002.
std::vector<Case> cases() {
    return {{G2Shape::Single, {1.0, 0.3, 20.0, 1.0, 0.0, 1.0, 0.0}},
            {G2Shape::Stretched, {1.0, 0.3, 20.0, 0.7, 0.0, 1.0, 0.0}},
            {G2Shape::Double, {1.0, 0.2, 100.0, 1.0, 0.1, 5.0, 0.0}},
            {G2Shape::Flow, {1.0, 0.3, 10.0, 1.0, 0.0, 1.0, 3000.0}}};
}

// One bin per seed: the model plus Gaussian noise of σ = noise (seed = the bin's index).
xpcs::Result synthetic(const Case& c) {
    xpcs::Result r;
    r.frames = lags, r.tauInSeconds = true;
    r.tau.push_back(0.0);
    for (std::size_t t = 1; t < lags; ++t)
        r.tau.push_back(1e-3 * std::pow(1000.0, double(t - 1) / double(lags - 2)));
    for (std::size_t s = 0; s < seeds; ++s) {
        std::mt19937_64 random(1000 + s);
        std::normal_distribution<double> gauss(0.0, noise);
        r.labels.push_back(std::int32_t(s + 1)), r.pixels.push_back(100);
        for (double tau : r.tau) {
            r.g2.push_back(xpcs::g2Model(tau, c.truth, q) + gauss(random));
            r.g2Err.push_back(noise);
        }
    }
    return r;
}

// Every lag fitted (τ max not auto).
xpcs::FitOptions optionsFor(G2Shape shape) {
    xpcs::FitOptions o;
    o.shape = shape;
    o.tauMax = INFINITY;
    return o;
}

std::vector<double> qFor(const xpcs::Result& r, G2Shape shape) {
    return shape == G2Shape::Flow ? std::vector<double>(r.binCount(), q) : std::vector<double>{};
}

// The pulls (value − truth) / error of one parameter over the converged bins.
std::vector<double> pulls(const xpcs::BinFits& fits, std::size_t param, double truth) {
    std::vector<double> out;
    for (const xpcs::FitResult& f : fits.results)
        if (f.converged) out.push_back((f.values[param] - truth) / f.errors[param]);
    return out;
}

struct PullStats {
    std::size_t within2 = 0; // |pull| ≤ 2
    double mean = 0, std = 0;
};

PullStats stats(const std::vector<double>& pull) {
    PullStats s;
    for (double p : pull)
        s.within2 += std::abs(p) <= 2, s.mean += p / double(pull.size());
    for (double p : pull)
        s.std += (p - s.mean) * (p - s.mean) / double(pull.size());
    s.std = std::sqrt(s.std);
    return s;
}

// The fits of every case as the script's input: start values, free parameters, points.
nlohmann::json scipyInput(const std::vector<Case>& all) {
    nlohmann::json in = nlohmann::json::array();
    for (const Case& c : all) {
        const xpcs::Result r = synthetic(c);
        const xpcs::FitOptions o = optionsFor(c.shape);
        for (std::size_t b = 0; b < r.binCount(); ++b) {
            const xpcs::G2Model m =
                o.model(r.tau, &r.g2[b * lags], qFor(r, c.shape).empty() ? 0 : q);
            nlohmann::json fit{{"model", xpcs::shapeName(c.shape)}, {"q", m.q}};
            std::vector<double> start;
            std::vector<std::size_t> free;
            for (const xpcs::FitParameter& p : m.parameters()) {
                if (!p.fixed) free.push_back(start.size());
                start.push_back(p.value);
            }
            fit["start"] = start, fit["free"] = free;
            fit["tau"] = std::vector<double>(r.tau.begin() + 1, r.tau.end());
            fit["g2"] =
                std::vector<double>(r.g2.begin() + b * lags + 1, r.g2.begin() + (b + 1) * lags);
            fit["sigma"] = std::vector<double>(lags - 1, noise);
            in.push_back(fit);
        }
    }
    return in;
}

} // namespace

class TestXpcsFitModels : public QObject {
    Q_OBJECT
  private slots:
    void eachModelRecoversItsParameters();
    void scipyCurveFitAgrees();
    void flowWithoutQIsAUsageError();
    void informationCriteriaPickTheModel();
    void singularCovarianceIsFlagged();
};

void TestXpcsFitModels::eachModelRecoversItsParameters() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    const char* const names[] = {"baseline", "β", "Γ", "α", "β₂", "Γ₂", "v"};
    for (const Case& c : cases()) {
        const xpcs::Result r = synthetic(c);
        const xpcs::BinFits fits = xpcs::fitBins(r, optionsFor(c.shape), qFor(r, c.shape));
        std::size_t within = 0, pairs = 0;
        for (std::size_t p = 0; p < xpcs::G2ParamCount; ++p) {
            if (!xpcs::shapeUses(c.shape, xpcs::G2Param(p))) continue;
            const std::vector<double> pull = pulls(fits, p, c.truth[p]);
            const PullStats s = stats(pull);
            const QString line = QString("%1 %2: %3 of 100 within 2σ, pull mean %4, std %5")
                                     .arg(QString::fromStdString(xpcs::shapeName(c.shape)))
                                     .arg(names[p])
                                     .arg(s.within2)
                                     .arg(s.mean, 0, 'f', 2)
                                     .arg(s.std, 0, 'f', 2);
            qInfo("%s", qPrintable(line));
            QVERIFY2(pull.size() == seeds && s.within2 >= 90, qPrintable(line));
            QVERIFY2(std::abs(s.mean) < 0.35 && s.std > 0.8 && s.std < 1.25, qPrintable(line));
            within += s.within2, pairs += seeds;
        }
        QVERIFY2(double(within) >= 0.93 * double(pairs),
                 qPrintable(QString("%1 of %2 within 2σ").arg(within).arg(pairs)));
    }
}

// The same values to 1 % of their error and the same errors to 1 %, every fit of every model.
void TestXpcsFitModels::scipyCurveFitAgrees() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    const QString python = test::pythonWithScipy();
    if (python.isEmpty()) QSKIP("no python3 with scipy");
    const std::vector<Case> all = cases();
    const nlohmann::json in = scipyInput(all);
    const nlohmann::json scipy = test::runScipyScript(python, "xpcs_fit_models_scipy.py", in);
    QCOMPARE(scipy.size(), in.size());
    std::size_t index = 0;
    double worstValue = 0, worstError = 0;
    for (const Case& c : all) {
        const xpcs::Result r = synthetic(c);
        const xpcs::BinFits fits = xpcs::fitBins(r, optionsFor(c.shape), qFor(r, c.shape));
        for (const xpcs::FitResult& f : fits.results) {
            const auto values = scipy[index]["values"].get<std::vector<double>>();
            const auto errors = scipy[index++]["errors"].get<std::vector<double>>();
            QVERIFY(f.converged);
            for (std::size_t p = 0; p < xpcs::G2ParamCount; ++p) {
                if (!(f.errors[p] > 0)) continue; // fixed
                worstValue = std::max(worstValue, std::abs(f.values[p] - values[p]) / f.errors[p]);
                worstError = std::max(worstError, std::abs(f.errors[p] / errors[p] - 1));
            }
        }
    }
    qInfo("largest difference to curve_fit: values %.2g of their error, errors %.2g relative",
          worstValue, worstError);
    QVERIFY2(worstValue < 0.01, qPrintable(QString::number(worstValue)));
    QVERIFY2(worstError < 0.01, qPrintable(QString::number(worstError)));
}

void TestXpcsFitModels::flowWithoutQIsAUsageError() {
    const xpcs::Result r = synthetic(cases()[3]);
    try {
        xpcs::fitBins(r, optionsFor(G2Shape::Flow), {});
        QFAIL("flow without q fitted");
    } catch (const UsageError& e) {
        QVERIFY2(std::string(e.what()).find("q of each bin") != std::string::npos, e.what());
    }
    // A bin without a positive q fails alone, saying why.
    if (!xpcs::fitAvailable()) return;
    std::vector<double> someQ(r.binCount(), q);
    someQ[3] = NAN;
    const xpcs::BinFits fits = xpcs::fitBins(r, optionsFor(G2Shape::Flow), someQ);
    QVERIFY(!fits.results[3].converged && fits.results[2].converged);
    QVERIFY(fits.results[3].message.find("q") != std::string::npos);
}

// On double-exponential data: AIC and BIC from χ² and k, lower for double than for single.
void TestXpcsFitModels::informationCriteriaPickTheModel() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    const xpcs::Result r = synthetic(cases()[2]);
    const xpcs::BinFits single = xpcs::fitBins(r, optionsFor(G2Shape::Single), {});
    const xpcs::BinFits both = xpcs::fitBins(r, optionsFor(G2Shape::Double), {});
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        const xpcs::FitResult& s = single.results[b];
        const double n = double(s.points), chi2 = s.chiSquaredReduced * (n - 3);
        QVERIFY(std::abs(s.aic - (chi2 + 6)) < 1e-9 * s.aic);
        QVERIFY(std::abs(s.bic - (chi2 + 3 * std::log(n))) < 1e-9 * s.bic);
        QVERIFY(both.aic[b] < single.aic[b] && both.bic[b] < single.bic[b]);
    }
}

// β fixed at 0: Γ does not change g2, its covariance is singular.
void TestXpcsFitModels::singularCovarianceIsFlagged() {
    if (!xpcs::fitAvailable()) QSKIP("built without GSL");
    const xpcs::Result r = synthetic(cases()[0]);
    xpcs::G2Model m;
    m.beta = {0.0, true};
    const std::vector<double> tau(r.tau.begin(), r.tau.begin() + lags),
        g2(r.g2.begin(), r.g2.begin() + lags), err(r.g2Err.begin(), r.g2Err.begin() + lags);
    const xpcs::FitResult fit = xpcs::fitG2(tau, g2, err, m);
    QVERIFY(fit.singular && std::isnan(fit.errors[xpcs::ParamRate]));
    QVERIFY(xpcs::assessG2Fit(fit, m).flags & xpcs::FlagSingular);
    const xpcs::FitResult fine =
        xpcs::fitG2(tau, g2, err, xpcs::startingModel(tau, g2.data(), G2Shape::Single));
    QVERIFY(!fine.singular && !(xpcs::assessG2Fit(fine, {}).flags & xpcs::FlagSingular));
}

QTEST_GUILESS_MAIN(TestXpcsFitModels)
#include "tst_xpcs_fit_models.moc"
