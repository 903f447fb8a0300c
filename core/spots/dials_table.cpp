#include "core/spots/dials_table.hpp"

#include "core/msgpack_writer.hpp"

#include <array>
#include <bit>
#include <cstdint>

namespace clscope::spots {

namespace {

static_assert(std::endian::native == std::endian::little, "DIALS' columns are little-endian");

// One column: NAME, then [TYPE, [N, the values' bytes]] (value(spot) of each spot).
template <class Value, class F>
void column(MsgpackWriter& out, const char* name, const char* type, const std::vector<Spot>& spots,
            F value) {
    std::vector<Value> values;
    values.reserve(spots.size());
    for (const Spot& s : spots)
        values.push_back(value(s));
    out.string(name);
    out.array(2);
    out.string(type);
    out.array(2);
    out.unsignedInt(values.size());
    out.binary(values.data(), values.size() * sizeof(Value));
}

using Vec3 = std::array<double, 3>;
using Int6 = std::array<std::int32_t, 6>;

void columns(MsgpackWriter& out, const std::vector<Spot>& spots) {
    out.map(9);
    column<std::int32_t>(out, "id", "int", spots, [](const Spot&) { return 0; });
    column<std::uint64_t>(out, "panel", "std::size_t", spots, [](const Spot&) { return 0; });
    column<std::uint64_t>(out, "flags", "std::size_t", spots,
                          [](const Spot&) { return dialsStrongFlag; });
    column<Int6>(out, "bbox", "int6", spots,
                 [](const Spot& s) { return Int6{s.x0, s.x1, s.y0, s.y1, s.frame, s.frameEnd}; });
    column<Vec3>(out, "xyzobs.px.value", "vec3<double>", spots, [](const Spot& s) {
        return Vec3{s.x, s.y, s.z};
    });
    column<Vec3>(out, "xyzobs.px.variance", "vec3<double>", spots,
                 [](const Spot& s) { return s.centroidVariance; });
    column<double>(out, "intensity.sum.value", "double", spots,
                   [](const Spot& s) { return s.intensity; });
    column<double>(out, "intensity.sum.variance", "double", spots,
                   [](const Spot& s) { return s.intensity; });
    column<std::int32_t>(out, "n_signal", "int", spots, [](const Spot& s) { return s.npix; });
}

} // namespace

std::string dialsReflectionTable(const std::vector<Spot>& spots) {
    MsgpackWriter out;
    out.array(3);
    out.string("dials::af::reflection_table");
    out.unsignedInt(1);
    out.map(3);
    out.string("identifiers");
    out.map(0);
    out.string("nrows");
    out.unsignedInt(spots.size());
    out.string("data");
    columns(out, spots);
    return out.bytes();
}

} // namespace clscope::spots
