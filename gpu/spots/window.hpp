// What the spots code asks of a variant (its Traits, gpu/variant/variant.hpp): where it finds the
// signal pixels and, on a device, how its kernels get the window sums.
#pragma once
#include <string>

namespace clscope::spots {

enum class Sums {
    Host,     // the host reference (cpu)
    Local,    // dispersion, windows from a tile in local memory (spots_local)
    Direct,   // dispersion, windows read from global memory (spots_direct)
    Sat,      // dispersion, summed-area tables (spots_sat_rows, _cols, _threshold)
    Extended, // dispersion_extended (spots_ext_dispersive, _erode, _final)
};

struct Window {
    Sums sums = Sums::Host;
    std::string name; // the variant's id: its kernel spots_<name> (local, direct) and labels
    bool host() const { return sums == Sums::Host; }
    bool extended() const { return sums == Sums::Extended; }
    bool sat() const { return sums == Sums::Sat; }
    // Reads its windows from a tile in local memory (local, extended).
    bool tiled() const { return sums == Sums::Local || sums == Sums::Extended; }
};

} // namespace clscope::spots
