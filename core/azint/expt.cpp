#include "core/azint/expt.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_parse.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>

namespace clscope::azint {

namespace {

using Vec = std::array<double, 3>;

double dot(const Vec& a, const Vec& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

Vec cross(const Vec& a, const Vec& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

Vec scaled(const Vec& a, double s) {
    return {a[0] * s, a[1] * s, a[2] * s};
}

Vec normalised(const Vec& a) {
    return scaled(a, 1.0 / std::sqrt(dot(a, a)));
}

// Reads the JSON entries of one experiment list, naming the source in errors.
class ExptReader {
  public:
    ExptReader(const std::string& text, const std::string& source) : source_(source) {
        root_ = parseJson(text, source); // nested past the limit: InputError naming it
        if (root_.is_discarded()) fail("not JSON");
    }

    // The model `kind` ("beam", "detector") that the first experiment names.
    const nlohmann::json& model(const char* kind) const {
        const auto& experiments = member(root_, "experiment");
        if (!experiments.is_array() || experiments.empty()) fail("no experiment");
        const auto& index = member(experiments[0], kind);
        const auto& models = member(root_, kind);
        if (!index.is_number_unsigned() || !models.is_array() ||
            index.get<std::size_t>() >= models.size())
            fail(std::string("the experiment's ") + kind + " is not in the list");
        return models[index.get<std::size_t>()];
    }
    // Whether the first experiment names a model of this kind.
    bool has(const char* kind) const {
        const auto& experiments = member(root_, "experiment");
        return experiments.is_array() && !experiments.empty() && experiments[0].is_object() &&
               experiments[0].contains(kind) && root_.contains(kind);
    }
    const nlohmann::json& member(const nlohmann::json& object, const char* key) const {
        if (!object.is_object() || !object.contains(key))
            fail(std::string("missing entry '") + key + "'");
        return object[key];
    }
    double number(const nlohmann::json& object, const char* key) const {
        const auto& v = member(object, key);
        if (!v.is_number()) fail(std::string("entry '") + key + "' is not a number");
        return v.get<double>();
    }
    std::array<double, 3> vector(const nlohmann::json& object, const char* key) const {
        const auto& v = member(object, key);
        if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() ||
            !v[2].is_number())
            fail(std::string("entry '") + key + "' is not 3 numbers");
        return {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
    }
    std::array<double, 2> pair(const nlohmann::json& object, const char* key) const {
        const auto& v = member(object, key);
        if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
            fail(std::string("entry '") + key + "' is not 2 numbers");
        return {v[0].get<double>(), v[1].get<double>()};
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(source_ + ": DIALS experiment list: " + what);
    }

  private:
    nlohmann::json root_;
    std::string source_;
};

// pyFAI's lab axes (t1, t2, t3) in DIALS' lab frame, for a beam along -direction.
std::array<Vec, 3> pyfaiAxes(const Vec& direction, const ExptReader& r) {
    const Vec e3 = normalised(scaled(direction, -1.0));
    const Vec x{1.0, 0.0, 0.0};
    const Vec across{x[0] - e3[0] * dot(x, e3), -e3[1] * dot(x, e3), -e3[2] * dot(x, e3)};
    if (!(dot(across, across) > 1e-12)) r.fail("the beam runs along the lab x axis");
    const Vec e2 = normalised(across);
    return {cross(e3, e2), e2, e3};
}

Vec inFrame(const Vec& v, const std::array<Vec, 3>& axes) {
    return {dot(v, axes[0]), dot(v, axes[1]), dot(v, axes[2])};
}

// The panel's axes (columns of pyFAI's rotation) and origin give the PONI parameters.
void setPanel(Geometry& g, const nlohmann::json& panel, const std::array<Vec, 3>& axes,
              const ExptReader& r) {
    const Vec fast = inFrame(normalised(r.vector(panel, "fast_axis")), axes);
    const Vec slow = inFrame(normalised(r.vector(panel, "slow_axis")), axes);
    if (std::abs(dot(fast, slow)) > 1e-9) r.fail("the panel's fast and slow axes are not normal");
    const Vec normal = cross(slow, fast);
    const Vec origin = scaled(inFrame(r.vector(panel, "origin"), axes), 1e-3); // mm -> m
    g.dist = dot(normal, origin);
    g.poni1 = -dot(slow, origin);
    g.poni2 = -dot(fast, origin);
    // Rotation columns: slow = (c2 c3, c2 s3, s2), fast's t3 = -c2 s1, normal's t3 = c1 c2.
    g.rot2 = std::asin(slow[2]);
    g.rot3 = std::atan2(slow[1], slow[0]);
    g.rot1 = std::atan2(-fast[2], normal[2]);
    const auto size = r.pair(panel, "pixel_size"), image = r.pair(panel, "image_size");
    g.pixel2 = size[0] * 1e-3, g.pixel1 = size[1] * 1e-3; // fast, slow; mm -> m
    if (image[0] < 1 || image[1] < 1 || image[0] != std::floor(image[0]) ||
        image[1] != std::floor(image[1]))
        r.fail("image_size must be two whole numbers >= 1");
    g.width = static_cast<std::size_t>(image[0]), g.height = static_cast<std::size_t>(image[1]);
}

} // namespace

Geometry parseExpt(const std::string& text, const std::string& source) {
    const ExptReader r(text, source);
    const auto& beam = r.model("beam");
    const auto& panels = r.member(r.model("detector"), "panels");
    if (!panels.is_array() || panels.size() != 1)
        r.fail("azint reads a detector of one panel, found " +
               std::to_string(panels.is_array() ? panels.size() : 0));
    Geometry g;
    g.wavelength = r.number(beam, "wavelength") * 1e-10; // angstrom -> m
    setPanel(g, panels[0], pyfaiAxes(r.vector(beam, "direction"), r), r);
    try {
        validate(g);
    } catch (const UsageError& e) {
        r.fail(e.what());
    }
    return g;
}

Geometry readExpt(const std::string& fileName) {
    return parseExpt(readWholeFile(fileName), fileName);
}

std::optional<ExptGrid> parseExptGrid(const std::string& text, const std::string& source) {
    const ExptReader r(text, source);
    if (!r.has("imageset")) return std::nullopt;
    const auto& set = r.model("imageset");
    if (!set.is_object() || set.value("__id__", std::string()) != "ImageGrid") return std::nullopt;
    const auto size = r.pair(set, "grid_size");
    if (size[0] < 1 || size[1] < 1 || size[0] != std::floor(size[0]) ||
        size[1] != std::floor(size[1]))
        r.fail("grid_size must be two whole numbers >= 1");
    return ExptGrid{static_cast<std::size_t>(size[0]), static_cast<std::size_t>(size[1])};
}

std::optional<ExptGrid> readExptGrid(const std::string& fileName) {
    return parseExptGrid(readWholeFile(fileName), fileName);
}

} // namespace clscope::azint
