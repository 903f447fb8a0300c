// rbf: what every direct rbf kernel shares (prepended by the host to rbf_tiled.cl and
// rbf_seed.cl): the real type, targets (explicit or the seed's planes), the pair function
// g(x, y) c and compensated accumulation. Tunables (every one passed by the host, declared in
// gpu/rbf/recipes.cpp):
//   RBF_KERNEL     0 Gaussian exp(-r^2/(2 sigma^2)), 1 Laplace 1/(4 pi r), 2 Helmholtz e^{ikr}/(4 pi r)
//   RBF_COMPLEX_W  1: complex weights (a second array of imaginary parts)
//   RBF_DOUBLE     1: double throughout (needs cl_khr_fp64)
//   RBF_FAST       1: native_exp2 / native_rsqrt / native_sin / native_cos; Gaussian with
//                  coordinates pre-scaled so that the exponent is -r^2 in base 2
#define RBF_COMPLEX_OUT (RBF_KERNEL == 2 || RBF_COMPLEX_W)

#if RBF_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
#define RBF_INV_4PI 0.07957747154594767
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
#define RBF_INV_4PI 0.07957747154594767f
#endif

// One potential value: [re, im] when the output is complex.
#if RBF_COMPLEX_OUT
typedef real2 rbf_val;
#else
typedef real rbf_val;
#endif

// Target i as (x, y, z, 0) scaled by coordScale: from the (M,3) list (already relative to
// the run's origin), or on the seed's planes (index p*n*n + a*n + b at (a, b) * step on plane
// p: xy, xz, yz), minus origin. Positions relative to the centre of the data keep fp32
// differences accurate when the coordinates are large.
inline real4 rbf_target(__global const real* targets, uint i, uint planes, real step,
                        real4 origin, real coordScale) {
    if (planes == 0)
        return (real4)(targets[3 * i], targets[3 * i + 1], targets[3 * i + 2], 0) * coordScale;
    const uint area = planes * planes, plane = i / area, rest = i - plane * area;
    const real a = (real)(rest / planes) * step, b = (real)(rest % planes) * step;
    const real4 t = plane == 0 ? (real4)(a, b, 0, 0) : plane == 1 ? (real4)(a, 0, b, 0)
                                                                  : (real4)(0, a, b, 0);
    return (t - origin) * coordScale;
}

// g(t, s) c for source s = (x, y, z, re c) and im c (RBF_COMPLEX_W); the 1/(4 pi) of
// Laplace and Helmholtz is applied once per target (rbf_finish). scale: 1/(2 sigma^2)
// (Gaussian, not RBF_FAST); k: wavenumber (RBF_FAST: k / (2 pi)).
// checked: a pair at r = 0 contributes nothing (Laplace, Helmholtz). Unchecked (a constant
// false, so the compare and select vanish from the inner loop) such a pair gives inf or NaN,
// which the caller detects in the sum and then redoes the sum checked: the same result.
inline rbf_val rbf_pair(real4 t, real4 s, real wi, real scale, real k, bool checked) {
    const real dx = t.x - s.x, dy = t.y - s.y, dz = t.z - s.z;
    const real r2 = dx * dx + dy * dy + dz * dz;
#if RBF_KERNEL == 0
#if RBF_FAST
    const real g = native_exp2(-r2);
#else
    const real g = exp(-r2 * scale);
#endif
#else
#if RBF_FAST
    const real inv = native_rsqrt(r2);
#else
    const real inv = rsqrt(r2);
#endif
    const real g = checked && !(r2 > 0) ? (real)0 : inv; // r = 0 contributes nothing
#endif
#if RBF_KERNEL == 2
    const real r = r2 * g;
#if RBF_FAST
    real turns = r * k; // phase in turns, reduced to [-1/2, 1/2] for the native functions
    turns -= rint(turns);
    const real phase = turns * (real)6.283185307179586;
    const real sn = native_sin(phase) * g, cs = native_cos(phase) * g;
#else
    real cs;
    real sn = sincos(k * r, &cs);
    sn *= g, cs *= g;
#endif
#if RBF_COMPLEX_W
    return (real2)(cs * s.w - sn * wi, sn * s.w + cs * wi);
#else
    return (real2)(cs * s.w, sn * s.w);
#endif
#elif RBF_COMPLEX_W
    return (real2)(g * s.w, g * wi);
#else
    return g * s.w;
#endif
}

// Add a tile's partial sum into (sum, compensation): Kahan, so that fp32 sums over 10^5
// sources keep ~1e-7 relative accuracy (plain addition in double).
inline void rbf_add(rbf_val* sum, rbf_val* comp, rbf_val part) {
#if RBF_DOUBLE
    *sum += part;
#else
    const rbf_val y = part - *comp;
    const rbf_val t = *sum + y;
    *comp = (t - *sum) - y;
    *sum = t;
#endif
}

// Whether a sum is finite (an unchecked sum over a pair at r = 0 is not).
inline bool rbf_finite(rbf_val f) {
#if RBF_COMPLEX_OUT
    return isfinite(f.x) && isfinite(f.y);
#else
    return isfinite(f);
#endif
}

// Store f at target i (the 1/(4 pi) of Laplace and Helmholtz applied here).
inline void rbf_store(__global real* out, uint i, rbf_val f) {
#if RBF_KERNEL != 0
    f *= RBF_INV_4PI;
#endif
#if RBF_COMPLEX_OUT
    vstore2(f, i, out);
#else
    out[i] = f;
#endif
}

// Source j staged for a tile: (x, y, z) * coordScale and re c; im c apart.
inline real4 rbf_source(__global const real4* sources, uint j, real coordScale) {
    const real4 s = sources[j];
    return (real4)(s.xyz * coordScale, s.w);
}
