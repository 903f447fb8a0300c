#include "core/xpcs/fit_model.hpp"

#include "core/errors.hpp"

#include <cmath>

namespace clscope::xpcs {

namespace {

struct ShapeInfo {
    G2Shape shape;
    const char* name;
    const char* formula;
    std::vector<G2Param> uses; // besides baseline, β and Γ
};

const std::vector<ShapeInfo>& shapes() {
    static const std::vector<ShapeInfo> all{
        {G2Shape::Single, "single", "b + β·exp(−2Γτ)", {}},
        {G2Shape::Stretched, "stretched", "b + β·exp(−2(Γτ)^α)", {ParamAlpha}},
        {G2Shape::Double, "double", "b + β·exp(−2Γτ) + β₂·exp(−2Γ₂τ)", {ParamBeta2, ParamRate2}},
        {G2Shape::Flow, "flow", "b + β·exp(−2Γτ)·sinc²(vqτ)", {ParamVelocity}}};
    return all;
}

const ShapeInfo& info(G2Shape shape) {
    for (const ShapeInfo& s : shapes())
        if (s.shape == shape) return s;
    return shapes().front();
}

} // namespace

std::string shapeName(G2Shape shape) {
    return info(shape).name;
}

std::vector<std::string> shapeNames() {
    std::vector<std::string> names;
    for (const ShapeInfo& s : shapes())
        names.push_back(s.name);
    return names;
}

G2Shape shapeFrom(const std::string& name) {
    std::string known;
    for (const ShapeInfo& s : shapes()) {
        if (name == s.name) return s.shape;
        known += (known.empty() ? "" : ", ") + std::string(s.name);
    }
    throw UsageError("unknown fit model '" + name + "' (known: " + known + ")");
}

bool shapeUses(G2Shape shape, G2Param param) {
    if (param == ParamBaseline || param == ParamBeta || param == ParamRate) return true;
    for (G2Param p : info(shape).uses)
        if (p == param) return true;
    return false;
}

std::string shapeFormula(G2Shape shape) {
    return info(shape).formula;
}

double sinc(double x) {
    return std::abs(x) < 1e-4 ? 1.0 - x * x / 6.0 : std::sin(x) / x;
}

} // namespace clscope::xpcs
