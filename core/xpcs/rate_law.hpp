// τ(q) laws on the bins' rates Γ(q) (DESIGN.md §5 "Fit models"): `power` Γ = A·qⁿ (A and n
// free), `diffusion` Γ = D·q² (n fixed at 2: A = D), `ballistic` Γ = v·q (n fixed at 1: A = v),
// fitted over the bins whose q lies in a range (default: every bin with q).
#pragma once
#include "core/xpcs/fit.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace clscope::xpcs {

enum class RateLaw { Power, Diffusion, Ballistic };

std::vector<std::string> rateLawNames(); // power, diffusion, ballistic
std::string rateLawName(RateLaw law);
std::string rateLawFormula(RateLaw law);      // "Γ = D·q²"
RateLaw rateLawFrom(const std::string& name); // UsageError naming the choices

// The q range of the law's fit, 1/Å, inclusive; NaN: no bound on that side.
struct QRange {
    double lower = std::numeric_limits<double>::quiet_NaN();
    double upper = std::numeric_limits<double>::quiet_NaN();
    bool contains(double q) const {
        return !(q < lower) && !(q > upper); // NaN bounds are open
    }
    bool bounded() const { return lower == lower || upper == upper; }
};

// "LO,HI" (either side may be empty: unbounded); UsageError naming `what` when it is not two
// numbers with 0 ≤ LO < HI. "" or "all": unbounded.
QRange parseQRange(const std::string& text, const std::string& what = "rate_q_range");
std::string qRangeText(const QRange& range); // "LO,HI" with empty unbounded sides; "" unbounded

struct RateLawFit {
    RateLaw law = RateLaw::Power;
    QRange range;
    FitResult fit;                  // prefactor, exponent (fixed at 2 or 1 for the fixed laws)
    std::vector<std::uint8_t> used; // per bin: 1 when its Γ entered the fit
};

// Fit the law to the bins' Γ (weighted by their errors) over the bins with q > 0 in range and
// Γ > 0 finite. The prefactor starts from the in-range bin with the largest q (Γ/q^n).
RateLawFit fitRateLaw(const std::vector<double>& q, const std::vector<double>& gamma,
                      const std::vector<double>& gammaErr, RateLaw law, const QRange& range);

} // namespace clscope::xpcs
