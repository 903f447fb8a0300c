// The g2 models of clscope-cli correlate --fit (DESIGN.md §5 "Fit models"). One function
// covers them all, b + β·exp(−2(Γτ)^α)·sinc²(vqτ) + β₂·exp(−2Γ₂τ), each model freeing its
// own parameters and fixing the others where the term vanishes (α = 1, β₂ = 0, v = 0):
//   single     b + β·exp(−2Γτ)
//   stretched  b + β·exp(−2(Γτ)^α)
//   double     b + β·exp(−2Γτ) + β₂·exp(−2Γ₂τ)   (Γ ≥ Γ₂: the first component the faster)
//   flow       b + β·exp(−2Γτ)·sinc²(vqτ)        (sinc x = sin x / x; v ≥ 0; needs q)
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace clscope::xpcs {

enum class G2Shape { Single, Stretched, Double, Flow };

// Parameter positions in FitResult::values of a g2 fit (always all of them, in this order).
enum G2Param : std::size_t {
    ParamBaseline,
    ParamBeta,
    ParamRate,
    ParamAlpha,
    ParamBeta2,
    ParamRate2,
    ParamVelocity,
    G2ParamCount
};

// "single", "stretched", "double", "flow" (the --fit choices besides "none").
std::string shapeName(G2Shape shape);
std::vector<std::string> shapeNames();
// UsageError naming the choices for any other name.
G2Shape shapeFrom(const std::string& name);
// Whether the model has the parameter (single has baseline, β, Γ; α only stretched; ...).
bool shapeUses(G2Shape shape, G2Param param);
// The model as a formula, for notes and the GUI ("b + β·exp(−2Γτ)").
std::string shapeFormula(G2Shape shape);

// sin(x)/x, 1 at 0.
double sinc(double x);

} // namespace clscope::xpcs
