#include "core/xpcs/rate_law.hpp"

#include "core/errors.hpp"

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace clscope::xpcs {

namespace {

struct LawInfo {
    RateLaw law;
    const char* name;
    const char* formula;
    double exponent; // NaN: free
};

const LawInfo laws[] = {
    {RateLaw::Power, "power", "Γ = A·qⁿ", std::numeric_limits<double>::quiet_NaN()},
    {RateLaw::Diffusion, "diffusion", "Γ = D·q²", 2.0},
    {RateLaw::Ballistic, "ballistic", "Γ = v·q", 1.0}};

const LawInfo& info(RateLaw law) {
    for (const LawInfo& l : laws)
        if (l.law == law) return l;
    return laws[0];
}

// One side of "LO,HI": empty is unbounded (NaN).
double bound(const std::string& text, const std::string& what, const std::string& whole) {
    std::size_t b = text.find_first_not_of(' '), e = text.find_last_not_of(' ');
    if (b == std::string::npos) return std::numeric_limits<double>::quiet_NaN();
    const std::string t = text.substr(b, e - b + 1);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v) || v < 0)
        throw UsageError(what + " '" + whole + "': '" + t +
                         "' is not a q ≥ 0 in 1/Å (expected LO,HI, e.g. 0.002,0.01)");
    return v;
}

} // namespace

std::vector<std::string> rateLawNames() {
    std::vector<std::string> names;
    for (const LawInfo& l : laws)
        names.push_back(l.name);
    return names;
}

std::string rateLawName(RateLaw law) {
    return info(law).name;
}

std::string rateLawFormula(RateLaw law) {
    return info(law).formula;
}

RateLaw rateLawFrom(const std::string& name) {
    for (const LawInfo& l : laws)
        if (name == l.name) return l.law;
    throw UsageError("unknown rate law '" + name + "' (power, diffusion or ballistic)");
}

QRange parseQRange(const std::string& text, const std::string& what) {
    if (text.empty() || text == "all") return {};
    const std::size_t comma = text.find(',');
    if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos)
        throw UsageError(what + " '" + text + "': expected LO,HI in 1/Å (e.g. 0.002,0.01)");
    QRange r{bound(text.substr(0, comma), what, text), bound(text.substr(comma + 1), what, text)};
    if (r.lower >= r.upper) throw UsageError(what + " '" + text + "': LO must be below HI");
    return r;
}

std::string qRangeText(const QRange& range) {
    if (!range.bounded()) return "";
    const auto side = [](double v) {
        return std::isnan(v) ? std::string() : nlohmann::json(v).dump();
    };
    return side(range.lower) + "," + side(range.upper);
}

RateLawFit fitRateLaw(const std::vector<double>& q, const std::vector<double>& gamma,
                      const std::vector<double>& gammaErr, RateLaw law, const QRange& range) {
    RateLawFit out{law, range, {}, std::vector<std::uint8_t>(q.size(), 0)};
    const double fixedExponent = info(law).exponent;
    PowerLawModel model;
    model.exponent = {std::isnan(fixedExponent) ? 2.0 : fixedExponent, !std::isnan(fixedExponent)};
    std::vector<double> rate(q.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t b = 0; b < q.size() && b < gamma.size(); ++b) {
        if (!(q[b] > 0) || !range.contains(q[b]) || !(gamma[b] > 0) || !std::isfinite(gamma[b]))
            continue;
        rate[b] = gamma[b], out.used[b] = 1;
        // Started from the bin with the largest q (the last one in range).
        const double qn = model.exponent.value == 1.0 ? q[b] : q[b] * q[b];
        model.prefactor.value = gamma[b] / qn;
    }
    out.fit = fitRateVsQ(q, rate, gammaErr, model);
    return out;
}

} // namespace clscope::xpcs
