// An exact integer sum of multi-tau's lag statistics (n Σ N_t, Σ S_t S'_t): 64-bit terms gather
// in a 64-bit partial that moves into the 192-bit WideSum before it would overflow, wider terms
// go to the WideSum directly. An exact integer sum is the same integer in any grouping, so the
// total (and its double) is bit for bit the WideSum of the same terms.
#pragma once
#include "core/xpcs/xpcs.hpp"

#include <cstdint>

namespace clscope::xpcs {

class ExactSum {
  public:
    void add(std::int64_t v) {
        std::int64_t next;
        if (__builtin_add_overflow(partial_, v, &next)) [[unlikely]]
            wide_.add(partial_), next = v;
        partial_ = next;
    }
    void add(Int128 v) { wide_.add(v); }
    bool zero() const { return total().zero(); }
    double toDouble() const { return total().toDouble(); }

  private:
    WideSum total() const {
        WideSum t = wide_;
        t.add(partial_);
        return t;
    }
    WideSum wide_;
    std::int64_t partial_ = 0;
};

// Whether v fits 64 bits, `out` its value then (an int64 always fits).
inline bool asInt64(Int128 v, std::int64_t& out) {
    out = static_cast<std::int64_t>(v);
    return out == v;
}
inline bool asInt64(std::int64_t v, std::int64_t& out) {
    out = v;
    return true;
}

// The 128-bit integer of two words, lo and hi (two's complement: a device's 128-bit sums).
inline Int128 wideOfWords(std::uint64_t lo, std::uint64_t hi) {
    return static_cast<Int128>((static_cast<UInt128>(hi) << 64) | lo);
}

// wideToDouble of a value that fits 64 bits, by the same floating-point operations on the same
// operands: its high word v >> 64 is 0 or -1 and its low word is uint64(v). For v >= 0 that is
// 0.0 * 2^64 + double(uint64(v)), which is double(v) (both conversions round the same integer;
// adding +0.0 changes no double); for v < 0 it is -2^64 + double(uint64(v)) (an FMA gives the
// same: -2^64 is exact).
inline double narrowToDouble(std::int64_t v) {
    return v >= 0 ? static_cast<double>(v)
                  : -0x1p64 + static_cast<double>(static_cast<std::uint64_t>(v));
}

} // namespace clscope::xpcs
