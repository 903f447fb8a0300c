// Whether an XPCS fit can be trusted, and numbers printed with the digits their errors justify
// (Qt-free; the fits table, the Γ-vs-q tab and the tests use them).
#pragma once
#include "core/xpcs/fit.hpp"

#include <exception>
#include <string>
#include <vector>

namespace clscope::ui {

// The grade of a fit, from χ²_red and the parameters' bounds, with the thresholds the Fits
// tab shows (fitGradeLegend): ok χ²_red ≤ 2, poor ≤ 10, bad above (or not finite); "at bound"
// when a free parameter sits at one of its bounds; "failed" when it did not converge.
inline constexpr double chi2RedOk = 2.0, chi2RedPoor = 10.0;
enum class FitGrade { Ok, Poor, Bad, AtBound, Failed };
FitGrade fitGrade(const xpcs::FitResult& fit, const std::vector<xpcs::FitParameter>& params);
std::string gradeName(FitGrade grade); // "ok", "poor", "bad", "at bound", "failed"
std::string fitGradeLegend();

// Why the fit is not to be trusted, "; "-separated; empty when it is. Flags: not converged
// (with the fitter's reason), a free parameter at one of its bounds, a free parameter whose
// error is larger than its magnitude or not finite. (χ²_red: fitGrade.) params and names are in fit
// order.
std::string fitConcerns(const xpcs::FitResult& fit, const std::vector<xpcs::FitParameter>& params,
                        const std::vector<std::string>& names);

// "1.000400 ± 0.000041": the error to two significant digits, the value to the same decimal
// place; values far from 1 share a power of ten: "(1.234 ± 0.056)e6". Without a usable error
// the value to 4 significant digits and "± —"; non-finite values as "—".
std::string valueWithError(double value, double error);

} // namespace clscope::ui

namespace clscope::ui {

// Fits that throw (no GSL, too few points) come back as not converged with the reason.
template <class F> xpcs::FitResult fitOrReason(F&& fit) {
    try {
        return fit();
    } catch (const std::exception& e) {
        xpcs::FitResult failed;
        failed.message = e.what();
        return failed;
    }
}

} // namespace clscope::ui
