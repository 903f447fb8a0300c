// spots: DIALS dispersion and dispersion_extended signal masks (DESIGN.md §5).
//
// One work-item per pixel of a (T,H,W) stack, global size (W, H, T); frames are independent.
// Window sums are exact integers (long) for integer data; the tests are evaluated in double in
// DIALS' expression order (core/spots/tests.hpp says the same in C++: keep them identical).
// FP contraction is off so that a*b - c is never fused into an fma that rounds differently.
//
// Set by the host (-D), every one always (gpu/spots/recipes.cpp declares them with their
// defaults and allowed values; this file keeps no defaults):
//   DATA_T       element type: uchar, ushort, uint, int, float
//   DATA_FLOAT   1 for float data (sums in double / float, not exact)
//   VALID_LIMIT  values >= it are invalid (2^bits - 2 for unsigned data); 0 = none; a plain
//                integer (its UL suffix is added below)
//   KX, KY       window half-widths
//   USE_GAIN     0: DIALS' formulas without gain (gain 1), 1: with the gain
//   EROSION      erosion distance of dispersion_extended, min(KX, KY)
//   MASKED_DISPERSIVE 1: masked pixels count as dispersive (DIALS >= 2025), 0: older DIALS
//   TILE_X, TILE_Y work-group size of the per-pixel kernels and of spots_ext_dispersive (its
//                tile is (TILE_Y+2KY) x (TILE_X+2KX)); also of spots_local without SPOTS_STRIP
//   SPOTS_STRIP  1: spots_local is the strip kernel (uchar/ushort data, window <= 64 pixels)
//   STRIP_X, STRIP_Y, STRIP_ROWS  its work-group (STRIP_X x STRIP_Y) and rows per work-item
//   STRIP_VEC    pixels its work-items load at once (a vector; 1, 2, 4 or 8, dividing STRIP_X)
//   STRIP_RUN    0: each rows' sum of the tile form made alone; n: slid along runs of n columns
//   STRIP_QSPLIT 1: the tile form's rows' sums of squares as 32 bits and a byte; 0: 64 bits
//   STRIP_SHARED_ROWS 1: its rows' horizontal sums made once in local memory; 0: each
//                work-item sums the rows of its strip from the tile (less local memory)
//   STRIP_FRAMES frames of the chunk each of its work-groups makes (the bad flags read once)
//   STRIP_WALK   1: the strip form walks (spots_walk.cl): each work-item holds the window sums
//                of WALK_COLS columns in registers down WALK_ROWS rows, staging up to WALK_STAGE
//                signal pixels of its group in local memory; 0: the local-memory tile
//   SIGNAL_MASK_ALWAYS 1: every launch writes the dense signal mask; 0: only a launch with
//                mask_out set (the host's relaunch when the list overflowed)
//
// Every kernel that makes the final mask also appends its signal pixels (flat index within
// the chunk) to `list`: a work-group counts them in local memory and reserves its range with
// ONE global atomic on `count` (zeroed by the host before the launch). `count` ends as the
// number of signal pixels even past `capacity` (then only `capacity` entries are written and
// the host fetches the mask). The dense mask `signal` is written only when the launch's
// mask_out is set or SIGNAL_MASK_ALWAYS is 1: the host needs it only when the list overflowed,
// and then launches the kernel again with mask_out set (spots_store).
#pragma OPENCL FP_CONTRACT OFF
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real_t;
#else
typedef float real_t; // no fp64: the tests are approximate (the variant says so)
#endif

// No defaults here: a tunable the host does not pass fails the build (an undefined name in #if
// would silently read as 0).
#if !defined(DATA_T) || !defined(DATA_FLOAT) || !defined(VALID_LIMIT) || !defined(KX) ||          \
    !defined(KY) || !defined(USE_GAIN) || !defined(EROSION) || !defined(MASKED_DISPERSIVE) ||    \
    !defined(SPOTS_STRIP) || !defined(TILE_X) || !defined(TILE_Y) || !defined(STRIP_X) ||        \
    !defined(STRIP_Y) || !defined(STRIP_ROWS) || !defined(STRIP_FRAMES) ||                      \
    !defined(STRIP_VEC) || !defined(STRIP_SHARED_ROWS) || !defined(SIGNAL_MASK_ALWAYS) ||     \
    !defined(STRIP_WALK) || !defined(WALK_COLS) || !defined(WALK_ROWS) || !defined(WALK_STAGE) || \
    !defined(STRIP_RUN) || !defined(STRIP_QSPLIT)
#error "spots: a tunable of the spots recipe is missing (gpu/spots/recipes.cpp declares them)"
#endif

#if DATA_FLOAT
typedef real_t sum_t;  // sums of float data
typedef float tile_t;
#else
typedef long sum_t;    // exact sums: in-sum values are below 2^24
typedef int tile_t;
#endif

#define SUM_LIMIT 16777216 // DIALS' BIG: values with |v| >= 2^24 are left out of the sums

// Parameters of the tests, passed as one struct by value.
typedef struct {
    real_t gain, sigma_b, sigma_s, threshold;
    int min_count;
} spots_params;

#define SPOTS_UL_(n) n##UL
#define SPOTS_UL(n) SPOTS_UL_(n)
inline bool spots_valid(DATA_T v, uchar bad) {
#if VALID_LIMIT > 0
    return !bad && (ulong)v < (ulong)SPOTS_UL(VALID_LIMIT);
#else
    return !bad;
#endif
}

inline bool spots_in_sum(DATA_T v, uchar bad) {
    // exact: integers of |v| < 2^24 are exact; -2^31 (int32) or -inf would overflow the sums
    return spots_valid(v, bad) && (real_t)v < SUM_LIMIT && (real_t)v > -SUM_LIMIT;
}

// sqrt(2 (m - 1)) for every window count m <= ROOTS_N, made once per work-group (OpenCL's
// double sqrt is correctly rounded: the same bits as computing it per pixel, and as the host).
#define SWIN ((2 * KX + 1) * (2 * KY + 1))
#define ROOTS_N (SWIN < 256 ? SWIN : 256)
inline void spots_fill_roots(local real_t* roots) {
    const int n = get_local_size(0) * get_local_size(1);
    for (int t = get_local_id(1) * get_local_size(0) + get_local_id(0); t <= ROOTS_N; t += n)
        roots[t] = sqrt(2 * ((real_t)t - 1));
}
inline real_t spots_root(int m, local const real_t* roots) {
    return m <= ROOTS_N ? roots[m] : sqrt(2 * ((real_t)m - 1));
}

// Index of dispersion above its Poisson bound (DIALS' a > c); root = sqrt(2 * (m - 1)).
inline bool spots_background_test(real_t m, real_t x, real_t y, real_t root, spots_params p) {
#if USE_GAIN
    const real_t a = m * y - x * x;
    const real_t c = p.gain * x * (m - 1 + p.sigma_b * root);
#else
    const real_t a = m * y - x * x - x * (m - 1);
    const real_t c = x * p.sigma_b * root;
#endif
    return a > c;
}

// Pixel above the local mean (DIALS' b > d).
inline bool spots_strong_test(real_t m, real_t x, real_t v, spots_params p) {
    const real_t b = m * v - x;
#if USE_GAIN
    const real_t d = p.sigma_s * sqrt(p.gain * x * m);
#else
    const real_t d = p.sigma_s * sqrt(x * m);
#endif
    return b > d;
}

// The whole `dispersion` decision of one pixel from its window sums (the double tests only
// once the cheap ones passed).
inline uchar spots_decide(int m, real_t rx, real_t ry, real_t rv, bool valid, spots_params p,
                          local const real_t* roots) {
    const real_t rm = (real_t)m;
    return valid && m >= p.min_count && rx >= 0 && rv > p.threshold &&
           spots_background_test(rm, rx, ry, spots_root(m, roots), p) &&
           spots_strong_test(rm, rx, rv, p);
}
inline uchar spots_dispersion(int m, sum_t x, sum_t y, DATA_T v, uchar bad, spots_params p,
                              local const real_t* roots) {
    return spots_decide(m, (real_t)x, (real_t)y, (real_t)v, spots_valid(v, bad), p, roots);
}

// The list of signal pixels: every work-item of the group calls it (barriers) with its number
// n of signal pixels; returns the list slot of its first one (meaningless when n is 0).
inline uint spots_reserve(uint n, local uint* total, local uint* first,
                          volatile global uint* count) {
    const bool lead = get_local_id(0) == 0 && get_local_id(1) == 0;
    if (lead) *total = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint slot = 0;
    if (n) slot = atomic_add((volatile local uint*)total, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lead && *total) *first = atomic_add(count, *total);
    barrier(CLK_LOCAL_MEM_FENCE);
    return n ? *first + slot : 0;
}
// One pixel per work-item: its flat index into the list when `on`.
inline void spots_list_one(bool on, uint index, global uint* list, uint capacity,
                           volatile global uint* count, local uint* total, local uint* first) {
    const uint slot = spots_reserve(on, total, first, count);
    if (on && slot < capacity) list[slot] = index;
}
// The dense mask: pixel k's decision when this launch writes the mask (see the top).
inline void spots_store(global uchar* signal, size_t k, uchar on, int mask_out) {
    if (SIGNAL_MASK_ALWAYS || mask_out) signal[k] = on;
}
#define SPOTS_SIGNAL_ARGS global uchar *signal, int mask_out
#define SPOTS_LIST_ARGS global uint *list, uint capacity, volatile global uint *count
#define SPOTS_LIST_LOCALS                                                                      \
    local uint total, first;                                                                   \
    local real_t roots[ROOTS_N + 1]

// Window sums of pixel (i, j) read straight from global memory; `classes` (may be null)
// restricts them to pixels whose class is 1 (dispersion_extended's background).
inline void spots_window(global const DATA_T* frame, global const uchar* bad,
                         global const uchar* classes, int w, int h, int i, int j, int kx, int ky,
                         int* m, sum_t* x, sum_t* y) {
    int mm = 0;
    sum_t xx = 0, yy = 0;
    for (int jj = max(0, j - ky); jj <= min(h - 1, j + ky); ++jj)
        for (int ii = max(0, i - kx); ii <= min(w - 1, i + kx); ++ii) {
            const int k = jj * w + ii;
            const DATA_T v = frame[k];
            if (!spots_in_sum(v, bad[k]) || (classes && classes[k] != 1)) continue;
            mm += 1;
            xx += (sum_t)v;
            yy += (sum_t)v * (sum_t)v;
        }
    *m = mm, *x = xx, *y = yy;
}

// direct: every work-item sums its own window from global memory.
kernel void spots_direct(global const DATA_T* frames, global const uchar* bad, int w, int h,
                         spots_params p, SPOTS_SIGNAL_ARGS, SPOTS_LIST_ARGS) {
    SPOTS_LIST_LOCALS;
    spots_fill_roots(roots);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int i = get_global_id(0), j = get_global_id(1);
    const size_t base = (size_t)get_global_id(2) * w * h;
    const size_t k = base + (size_t)j * w + i;
    uchar on = 0;
    if (i < w && j < h) {
        int m;
        sum_t x, y;
        spots_window(frames + base, bad, 0, w, h, i, j, KX, KY, &m, &x, &y);
        on = spots_dispersion(m, x, y, frames[k], bad[j * w + i], p, roots);
        spots_store(signal, k, on, mask_out);
    }
    spots_list_one(on, (uint)k, list, capacity, count, &total, &first);
}

// local: the seed's tile-in-local-memory kernel, fixed: every work-item copies part of the
// tile (values of pixels outside the sums stored as 0 with a 0 flag), sums are 64-bit.
#define TW (TILE_X + 2 * KX)
// Sums of in-sum values (|v| < 2^24) over a window: 32 bits while the window has < 128 pixels.
#if (2 * KX + 1) * (2 * KY + 1) < 128
typedef int win_t;
#else
typedef long win_t;
#endif
#define TH (TILE_Y + 2 * KY)
// Window sums of this work-item's pixel from the work-group's tile in local memory (every
// work-item of the group calls it: it holds barriers; those past the image get sums too, unused).
// Integer data (exact in any order): separable sums, 2KY+1 then 2KX+1 terms instead of
// (2KY+1)(2KX+1): column sums of the work-group's rows over the whole tile width first. Float
// data: the 2-D window in the reference's order (sums of floats round by order).
inline void spots_tile_sums(global const DATA_T* frames, global const uchar* bad, int w, int h,
                            local tile_t* value, local uchar* counted, local int* colM,
                            local win_t* colX, local long* colY, int* m, sum_t* x, sum_t* y) {
    const int li = get_local_id(0), lj = get_local_id(1);
    const int i0 = get_group_id(0) * TILE_X - KX, j0 = get_group_id(1) * TILE_Y - KY;
    const size_t base = (size_t)get_global_id(2) * w * h;
    for (int t = lj * TILE_X + li; t < TH * TW; t += TILE_X * TILE_Y) {
        const int ii = i0 + t % TW, jj = j0 + t / TW;
        bool in = ii >= 0 && ii < w && jj >= 0 && jj < h;
        DATA_T v = 0;
        if (in) {
            v = frames[base + jj * w + ii];
            in = spots_in_sum(v, bad[jj * w + ii]);
        }
        value[t] = in ? (tile_t)v : 0;
        counted[t] = in;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int mm = 0;
    sum_t xx = 0, yy = 0;
#if DATA_FLOAT
    for (int dj = 0; dj <= 2 * KY; ++dj)
        for (int di = 0; di <= 2 * KX; ++di) {
            const int t = (lj + dj) * TW + li + di;
            const sum_t v = (sum_t)value[t];
            mm += counted[t];
            xx += v;
            yy += v * v;
        }
#else
    for (int c = li; c < TW; c += TILE_X) {
        int cm = 0;
        win_t cx = 0;
        long cy = 0;
        for (int dj = 0; dj <= 2 * KY; ++dj) {
            const int t = (lj + dj) * TW + c;
            const int v = value[t];
            cm += counted[t];
            cx += v;
            cy += (long)v * (long)v;
        }
        colM[lj * TW + c] = cm, colX[lj * TW + c] = cx, colY[lj * TW + c] = cy;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    win_t xs = 0;
    for (int di = 0; di <= 2 * KX; ++di) {
        const int t = lj * TW + li + di;
        mm += colM[t];
        xs += colX[t];
        yy += colY[t];
    }
    xx = xs;
#endif
    *m = mm, *x = xx, *y = yy;
}

// The local memory of spots_tile_sums, declared at kernel scope (OpenCL 1.2).
#define SPOTS_TILE_LOCALS                                                                        \
    local tile_t value[TH * TW];                                                                 \
    local uchar counted[TH * TW];                                                                \
    local int colM[TILE_Y * TW];                                                                 \
    local win_t colX[TILE_Y * TW];                                                               \
    local long colY[TILE_Y * TW]

#if !SPOTS_STRIP
kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void spots_local(global const DATA_T* frames, global const uchar* bad, int w, int h,
                 spots_params p, SPOTS_SIGNAL_ARGS, SPOTS_LIST_ARGS) {
    SPOTS_TILE_LOCALS;
    SPOTS_LIST_LOCALS;
    spots_fill_roots(roots); // spots_tile_sums' barriers order it before the tests
    int m;
    sum_t x, y;
    spots_tile_sums(frames, bad, w, h, value, counted, colM, colX, colY, &m, &x, &y);
    const int i = get_global_id(0), j = get_global_id(1);
    const size_t k = (size_t)get_global_id(2) * w * h + (size_t)j * w + i;
    uchar on = 0;
    if (i < w && j < h) {
        on = spots_dispersion(m, x, y, frames[k], bad[j * w + i], p, roots);
        spots_store(signal, k, on, mask_out);
    }
    spots_list_one(on, (uint)k, list, capacity, count, &total, &first);
}
#endif
