// Numbers printed with the digits their errors justify
// (Qt-free; the fits table, the Γ-vs-q tab and the tests use them).
#pragma once
#include "core/xpcs/fit.hpp"
#include "core/xpcs/fit_quality.hpp"

#include <exception>
#include <string>
#include <vector>

namespace clscope::ui {

// The grade and concerns of a fit are the core's (core/xpcs/fit_quality.hpp: the thresholds,
// the /xpcs/fit/quality bits), named here for the views.
using xpcs::chi2RedOk;
using xpcs::chi2RedPoor;
using xpcs::fitConcerns;
using xpcs::FitGrade;
using xpcs::fitGrade;
using xpcs::fitGradeLegend;
using xpcs::gradeName;

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
