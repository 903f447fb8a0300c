#include "ui/xpcs/xpcs_presenter.hpp"
#include "core/errors.hpp"
#include "core/number_text.hpp"
#include "ui/base/q_unit.hpp"

#include "core/xpcs/fit_bins.hpp"
#include "ui/xpcs/xpcs_fit_quality.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace clscope::ui {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The shortest text that reads back as the same double ("nan", "inf" as such).
std::string number(double value, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
}

} // namespace

std::vector<double> logSpaced(double lo, double hi, std::size_t n) {
    std::vector<double> out;
    if (!(lo > 0) || !(hi >= lo) || n == 0) return out;
    const double a = std::log(lo), b = std::log(hi);
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(std::exp(
            n == 1 ? a : a + (b - a) * static_cast<double>(i) / static_cast<double>(n - 1)));
    return out;
}

namespace {

// Mean of g2 (and its error) over points [begin, end) of a series, appended to out.
void appendBinMean(const XpcsSeries& in, std::size_t begin, std::size_t end, XpcsSeries& out) {
    bool weighted = true;
    for (std::size_t i = begin; i < end; ++i)
        weighted = weighted && in.err[i] > 0;
    double sumW = 0, sumWY = 0, sumWT = 0, sumY2 = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const double w = weighted ? 1.0 / (in.err[i] * in.err[i]) : 1.0;
        sumW += w, sumWY += w * in.g2[i], sumWT += w * in.tau[i], sumY2 += in.g2[i] * in.g2[i];
    }
    const double n = static_cast<double>(end - begin), mean = sumWY / sumW;
    out.tau.push_back(sumWT / sumW);
    out.g2.push_back(mean);
    if (weighted)
        out.err.push_back(1.0 / std::sqrt(sumW));
    else
        out.err.push_back(n > 1 ? std::sqrt(std::max(0.0, sumY2 / n - mean * mean) / n) : 0.0);
}

} // namespace

XpcsSeries logBinned(const XpcsSeries& series, int perDecade) {
    XpcsSeries out = series;
    out.tau.clear(), out.g2.clear(), out.err.clear();
    std::size_t begin = 0;
    while (begin < series.tau.size()) {
        // Points whose log10 τ falls in the same 1/perDecade slot as the first one.
        const double slot = std::floor(std::log10(series.tau[begin]) * perDecade);
        std::size_t end = begin + 1;
        while (end < series.tau.size() &&
               std::floor(std::log10(series.tau[end]) * perDecade) == slot)
            ++end;
        appendBinMean(series, begin, end, out);
        begin = end;
    }
    return out;
}

double maxAbsDifference(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return nan;
    double most = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::isfinite(a[i]) && std::isfinite(b[i]))
            most = std::max(most, std::abs(a[i] - b[i]));
    return most;
}

void XpcsPresenter::setRuns(std::vector<XpcsRun> runs) {
    runs_ = std::move(runs);
    overlay_.reset();
    if (q_ && (runs_.empty() || q_->size() != binCount())) q_.reset();
    refit();
}

void XpcsPresenter::addRun(XpcsRun run) {
    const bool first = runs_.empty();
    runs_.push_back(std::move(run));
    if (first) refit();
}

void XpcsPresenter::setBinQ(std::optional<std::vector<double>> q) {
    q_ = std::move(q);
    if (q_ && !empty() && q_->size() != binCount()) q_.reset();
    refit();
}

void XpcsPresenter::setFitOptions(const xpcs::FitOptions& options) {
    options_ = options;
    refit();
}

// Every bin through the core's fitBins; a fit that throws (no GSL) fails every bin with why.
void XpcsPresenter::refit() {
    fits_.clear();
    if (empty()) return;
    const xpcs::Result& r = reference();
    xpcs::BinFits all;
    std::string failure;
    try {
        all = xpcs::fitBins(r, options_, q_.value_or(std::vector<double>{}));
    } catch (const std::exception& e) {
        failure = e.what();
    }
    for (std::size_t b = 0; b < r.binCount(); ++b) {
        XpcsBinFit f{r.labels[b], binQ(b), {}, "not converged: " + failure};
        if (failure.empty()) {
            f.fit = all.results[b];
            f.concerns = all.quality[b].concerns, f.grade = all.quality[b].grade;
            f.flags = all.quality[b].flags;
        } else {
            f.fit.message = failure;
        }
        fits_.push_back(std::move(f));
    }
}

std::optional<double> XpcsPresenter::binQ(std::size_t bin) const {
    if (!q_ || bin >= q_->size()) return std::nullopt;
    return (*q_)[bin];
}

std::string XpcsPresenter::tauUnit() const {
    return !empty() && reference().tauInSeconds ? "s" : "frames";
}

std::vector<std::pair<int, double>> XpcsPresenter::levelStarts() const {
    std::vector<std::pair<int, double>> out;
    if (empty() || !reference().multitau) return out;
    const xpcs::Result& r = reference();
    for (std::size_t t = 1; t < r.levels.size() && t < r.tau.size(); ++t)
        if (r.levels[t] != r.levels[t - 1] && r.tau[t] > 0) out.emplace_back(r.levels[t], r.tau[t]);
    return out;
}

std::vector<std::size_t> XpcsPresenter::defaultSelection(std::size_t count) const {
    const std::size_t bins = binCount();
    std::vector<std::size_t> out;
    if (bins == 0 || count == 0) return out;
    if (bins <= count || count == 1) {
        for (std::size_t b = 0; b < std::min(bins, count); ++b)
            out.push_back(b);
        return out;
    }
    for (std::size_t i = 0; i < count; ++i) {
        const auto b = static_cast<std::size_t>(
            std::lround(static_cast<double>(i * (bins - 1)) / (count - 1)));
        if (out.empty() || out.back() != b) out.push_back(b);
    }
    return out;
}

std::string XpcsPresenter::legendText(std::size_t bin) const {
    std::string text = "label " + std::to_string(reference().labels.at(bin));
    if (const auto q = binQ(bin)) text += ", q = " + number(*q, 3) + " " + qUnit.toStdString();
    return text;
}

namespace {

// The plotted points of one bin of r: positive τ, finite g2 (an error that is not: 0).
void addPoints(const xpcs::Result& r, std::size_t bin, XpcsSeries& s) {
    for (std::size_t t = 0; t < r.frames; ++t) {
        const double g2 = r.g2At(bin, t), err = r.g2ErrAt(bin, t);
        if (!(r.tau[t] > 0) || !std::isfinite(g2)) continue;
        s.tau.push_back(r.tau[t]);
        s.g2.push_back(g2);
        s.err.push_back(std::isfinite(err) ? err : 0.0);
    }
}

} // namespace

void XpcsPresenter::setOverlay(std::optional<XpcsRun> overlay) {
    if (overlay && !empty()) {
        const xpcs::Result& o = overlay->result;
        if (o.tauInSeconds != reference().tauInSeconds)
            throw InputError(std::string("its τ is in ") + (o.tauInSeconds ? "s" : "frames") +
                             ", the run's in " + tauUnit());
        const auto& labels = reference().labels;
        const bool shared = std::any_of(o.labels.begin(), o.labels.end(), [&](std::int32_t l) {
            return std::find(labels.begin(), labels.end(), l) != labels.end();
        });
        if (!shared) throw InputError("it has none of the run's bin labels");
    }
    overlay_ = std::move(overlay);
}

std::optional<XpcsSeries> XpcsPresenter::overlaySeries(std::size_t bin) const {
    if (!overlay_ || empty()) return std::nullopt;
    const xpcs::Result& o = overlay_->result;
    const auto at = std::find(o.labels.begin(), o.labels.end(), reference().labels.at(bin));
    if (at == o.labels.end()) return std::nullopt;
    XpcsSeries s;
    s.label = *at;
    s.legend = overlay_->deviceLabel;
    addPoints(o, static_cast<std::size_t>(at - o.labels.begin()), s);
    return s;
}

XpcsSeries XpcsPresenter::series(std::size_t bin) const {
    const xpcs::Result& r = reference();
    XpcsSeries s;
    s.label = r.labels.at(bin);
    s.legend = legendText(bin);
    addPoints(r, bin, s);
    if (bin < fits_.size() && fits_[bin].ok() && !s.tau.empty()) {
        s.fitTau = logSpaced(s.tau.front(), s.tau.back(), 200);
        for (double tau : s.fitTau)
            s.fitG2.push_back(
                xpcs::g2Model(tau, fits_[bin].fit.values, fits_[bin].q.value_or(0.0)));
    }
    return s;
}

namespace {

// The fit table's columns, one row per bin (the export's /xpcs/fits/table and the Fits CSV).
const char* const fitColumns =
    "label,q_1/angstrom,baseline,baseline_err,beta,beta_err,rate,rate_err,alpha,alpha_err,"
    "beta2,beta2_err,rate2,rate2_err,velocity,velocity_err,chi2_red,aic,bic,converged";

std::vector<double> fitRow(const XpcsBinFit& f) {
    std::vector<double> row{static_cast<double>(f.label), f.q.value_or(nan)};
    for (std::size_t i = 0; i < xpcs::G2ParamCount; ++i) {
        row.push_back(f.ok() ? f.fit.values[i] : nan);
        row.push_back(f.ok() ? f.fit.errors[i] : nan);
    }
    for (double v : {f.fit.chiSquaredReduced, f.fit.aic, f.fit.bic})
        row.push_back(v);
    row.push_back(f.fit.converged ? 1.0 : 0.0);
    return row;
}

} // namespace

void writeFits(H5Writer& out, const XpcsPresenter& presenter, const std::string& group) {
    const auto& fits = presenter.fits();
    std::vector<double> table;
    for (const XpcsBinFit& f : fits) {
        const std::vector<double> row = fitRow(f);
        table.insert(table.end(), row.begin(), row.end());
    }
    if (fits.empty()) return;
    out.write(group + "/table",
              makeArray<double>({fits.size(), table.size() / fits.size()}, table));
    out.setAttribute(group + "/table", "columns", fitColumns);
    const xpcs::G2Shape shape = presenter.fitOptions().shape;
    out.setAttribute(group, "model",
                     xpcs::shapeName(shape) + ": g2 = " + xpcs::shapeFormula(shape) +
                         ", weighted by 1/g2_err^2");
    out.setAttribute(group, "stretched", shape == xpcs::G2Shape::Stretched ? "yes" : "no");
}

std::string XpcsPresenter::csv() const {
    std::ostringstream out;
    if (empty()) return {};
    const xpcs::Result& r = reference();
    out << (r.tauInSeconds ? "tau_s" : "tau_frames");
    for (std::int32_t label : r.labels)
        out << ",g2_L" << label << ",g2_err_L" << label;
    out << '\n';
    for (std::size_t t = 0; t < r.frames; ++t) {
        out << shortestText(r.tau[t]);
        for (std::size_t b = 0; b < r.binCount(); ++b)
            out << ',' << shortestText(r.g2At(b, t)) << ',' << shortestText(r.g2ErrAt(b, t));
        out << '\n';
    }
    return out.str();
}

std::string XpcsPresenter::fitsCsv() const {
    std::ostringstream out;
    out << fitColumns << '\n';
    out.precision(10);
    for (const XpcsBinFit& f : fits_) {
        const std::vector<double> row = fitRow(f);
        out << f.label << ',';
        if (f.q) out << *f.q;
        for (std::size_t i = 2; i + 1 < row.size(); ++i)
            out << ',' << row[i];
        out << ',' << (f.fit.converged ? 1 : 0) << '\n';
    }
    return out.str();
}

} // namespace clscope::ui
