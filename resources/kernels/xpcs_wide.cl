// Exact signed 128-bit integers for the integer sums of xpcs' lag statistics (xpcs_lags.cl,
// xpcs_mma_lags.cl, xpcs_multitau_fold.cl): two's complement hi * 2^64 + lo, formed and added
// exactly and turned into doubles as hi * 2^64 + lo, the same operations as the CPU reference's
// wideToDouble (core/xpcs/xpcs_stats.inl), so every g2 formed from them is the CPU's double.
#ifndef XPCS_WIDE_CL
#define XPCS_WIDE_CL

// A signed 128-bit integer, two's complement: hi * 2^64 + lo.
typedef struct {
    ulong lo;
    long hi;
} xpcs_wide;

inline xpcs_wide xpcs_wide_make(ulong lo, long hi) {
    xpcs_wide w;
    w.lo = lo, w.hi = hi;
    return w;
}

inline xpcs_wide xpcs_wide_add(xpcs_wide a, xpcs_wide b) {
    const ulong lo = a.lo + b.lo;
    return xpcs_wide_make(lo, a.hi + b.hi + (lo < a.lo ? 1 : 0));
}

// a * b exactly, |a|, |b| < 2^63.
inline xpcs_wide xpcs_wide_mul(long a, long b) {
    const ulong ua = a < 0 ? (ulong)(-a) : (ulong)a, ub = b < 0 ? (ulong)(-b) : (ulong)b;
    xpcs_wide r = xpcs_wide_make(ua * ub, (long)mul_hi(ua, ub));
    if ((a < 0) != (b < 0)) r = xpcs_wide_make(~r.lo + 1, ~r.hi + (r.lo == 0 ? 1 : 0));
    return r;
}

// a * b exactly, as xpcs_wide_mul; one 64-bit multiply when both lie in [0, 2^31) (frame sums
// and Gram entries of uint8/uint16 data do), the same value.
inline xpcs_wide xpcs_wide_mul_fast(long a, long b) {
    return ((ulong)a | (ulong)b) >> 31 ? xpcs_wide_mul(a, b) : xpcs_wide_make((ulong)(a * b), 0);
}

// hi * 2^64 + lo; hi = 0 gives 0.0 + lo, i.e. lo itself, so the short path is the same double.
inline double xpcs_wide_double(xpcs_wide v) {
    return v.hi == 0 ? convert_double(v.lo) : convert_double(v.hi) * 0x1p64 + convert_double(v.lo);
}

inline int xpcs_wide_zero(xpcs_wide v) {
    return v.lo == 0 && v.hi == 0;
}

#endif
