// spots: DIALS dispersion and dispersion_extended signal masks (DESIGN.md §5).
//
// One work-item per pixel of a (T,H,W) stack, global size (W, H, T); frames are independent.
// Window sums are exact integers (long) for integer data; the tests are evaluated in double in
// DIALS' expression order (core/spots/tests.hpp says the same in C++: keep them identical).
// FP contraction is off so that a*b - c is never fused into an fma that rounds differently.
//
// Set by the host (-D):
//   DATA_T       element type: uchar, ushort, uint, int, float
//   DATA_FLOAT   1 for float data (sums in double / float, not exact)
//   VALID_LIMIT  values >= it are invalid (2^bits - 2 for unsigned data); 0 = none
//   KX, KY       window half-widths
//   USE_GAIN     0: DIALS' formulas without gain (gain 1), 1: with the gain
//   EROSION      erosion distance of dispersion_extended, min(KX, KY)
//   MASKED_DISPERSIVE 1: masked pixels count as dispersive (DIALS >= 2025), 0: older DIALS
//   TILE_X, TILE_Y work-group size of spots_local (its tile is (TILE_Y+2KY) x (TILE_X+2KX))
#pragma OPENCL FP_CONTRACT OFF
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real_t;
#else
typedef float real_t; // no fp64: the tests are approximate (the variant says so)
#endif

#ifndef DATA_T
#define DATA_T ushort
#endif
#ifndef DATA_FLOAT
#define DATA_FLOAT 0
#endif
#ifndef VALID_LIMIT
#define VALID_LIMIT 65534
#endif
#ifndef KX
#define KX 3
#endif
#ifndef KY
#define KY 3
#endif
#ifndef USE_GAIN
#define USE_GAIN 0
#endif
#ifndef EROSION
#define EROSION (KX < KY ? KX : KY)
#endif
#ifndef MASKED_DISPERSIVE
#define MASKED_DISPERSIVE 1
#endif
#ifndef TILE_X
#define TILE_X 16
#endif
#ifndef TILE_Y
#define TILE_Y 16
#endif

#if DATA_FLOAT
typedef real_t sum_t;  // sums of float data
typedef float tile_t;
#else
typedef long sum_t;    // exact sums: in-sum values are below 2^24
typedef int tile_t;
#endif

#define SUM_LIMIT 16777216 // DIALS' BIG: values >= 2^24 are left out of the sums

// Parameters of the tests, passed as one struct by value.
typedef struct {
    real_t gain, sigma_b, sigma_s, threshold;
    int min_count;
} spots_params;

inline bool spots_valid(DATA_T v, uchar bad) {
#if VALID_LIMIT > 0
    return !bad && (ulong)v < (ulong)VALID_LIMIT;
#else
    return !bad;
#endif
}

inline bool spots_in_sum(DATA_T v, uchar bad) {
    return spots_valid(v, bad) && (real_t)v < SUM_LIMIT; // exact: integers < 2^24 are exact
}

// Index of dispersion above its Poisson bound (DIALS' a > c).
inline bool spots_background_test(real_t m, real_t x, real_t y, spots_params p) {
#if USE_GAIN
    const real_t a = m * y - x * x;
    const real_t c = p.gain * x * (m - 1 + p.sigma_b * sqrt(2 * (m - 1)));
#else
    const real_t a = m * y - x * x - x * (m - 1);
    const real_t c = x * p.sigma_b * sqrt(2 * (m - 1));
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

// The whole `dispersion` decision of one pixel from its window sums.
inline uchar spots_dispersion(int m, sum_t x, sum_t y, DATA_T v, uchar bad, spots_params p) {
    const real_t rm = (real_t)m, rx = (real_t)x, ry = (real_t)y, rv = (real_t)v;
    return spots_valid(v, bad) && m >= p.min_count && rx >= 0 && rv > p.threshold &&
           spots_background_test(rm, rx, ry, p) && spots_strong_test(rm, rx, rv, p);
}

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
                         spots_params p, global uchar* signal) {
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= w || j >= h) return;
    const size_t base = (size_t)get_global_id(2) * w * h;
    int m;
    sum_t x, y;
    spots_window(frames + base, bad, 0, w, h, i, j, KX, KY, &m, &x, &y);
    const int k = j * w + i;
    signal[base + k] = spots_dispersion(m, x, y, frames[base + k], bad[k], p);
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

kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void spots_local(global const DATA_T* frames, global const uchar* bad, int w, int h,
                 spots_params p, global uchar* signal) {
    SPOTS_TILE_LOCALS;
    int m;
    sum_t x, y;
    spots_tile_sums(frames, bad, w, h, value, counted, colM, colX, colY, &m, &x, &y);
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= w || j >= h) return;
    const size_t base = (size_t)get_global_id(2) * w * h;
    const int k = j * w + i;
    signal[base + k] = spots_dispersion(m, x, y, frames[base + k], bad[k], p);
}

// extended, step 1: dispersive pixels (masked pixels count as dispersive unless legacy), the
// window sums from the tile in local memory as in spots_local.
kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void spots_ext_dispersive(global const DATA_T* frames, global const uchar* bad, int w, int h,
                          spots_params p, global uchar* dispersive) {
    SPOTS_TILE_LOCALS;
    int m;
    sum_t x, y;
    spots_tile_sums(frames, bad, w, h, value, counted, colM, colX, colY, &m, &x, &y);
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= w || j >= h) return;
    const size_t base = (size_t)get_global_id(2) * w * h;
    const int k = j * w + i;
    uchar result = MASKED_DISPERSIVE;
    if (spots_valid(frames[base + k], bad[k]))
        result = m >= p.min_count && (real_t)x >= 0 &&
                 spots_background_test((real_t)m, (real_t)x, (real_t)y, p);
    dispersive[base + k] = result;
}

// extended, step 2: erosion. Class 2 (core): valid, dispersive and no non-dispersive pixel
// within Chebyshev distance EROSION - 1 inside the frame; 1: other valid pixels
// (background); 0: invalid.
kernel void spots_ext_erode(global const DATA_T* frames, global const uchar* bad, int w, int h,
                            global const uchar* dispersive, global uchar* classes) {
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= w || j >= h) return;
    const size_t base = (size_t)get_global_id(2) * w * h;
    const int k = j * w + i;
    uchar result = 0;
    if (spots_valid(frames[base + k], bad[k])) {
        bool core = dispersive[base + k];
        const int r = EROSION - 1;
        for (int jj = max(0, j - r); core && jj <= min(h - 1, j + r); ++jj)
            for (int ii = max(0, i - r); ii <= min(w - 1, i + r); ++ii)
                core = core && dispersive[base + jj * w + ii];
        result = core ? 2 : 1;
    }
    classes[base + k] = result;
}

// extended, step 3: background mean over the window widened by 2, then the strong test.
kernel void spots_ext_final(global const DATA_T* frames, global const uchar* bad, int w, int h,
                            spots_params p, global const uchar* classes, global uchar* signal) {
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= w || j >= h) return;
    const size_t base = (size_t)get_global_id(2) * w * h;
    const int k = j * w + i;
    uchar result = 0;
    if (classes[base + k] == 2) {
        int m;
        sum_t x, y;
        spots_window(frames + base, bad, classes + base, w, h, i, j, KX + 2, KY + 2, &m, &x, &y);
        const real_t rm = (real_t)m, rx = (real_t)x, v = (real_t)frames[base + k];
        const real_t mean = (rm >= 2 ? (rx / rm) : 0);
#if USE_GAIN
        const bool strong = v >= (mean + p.sigma_s * sqrt(p.gain * mean));
#else
        const bool strong = v >= (mean + p.sigma_s * sqrt(mean));
#endif
        result = rx >= 0 && v > p.threshold && strong;
    }
    signal[base + k] = result;
}

// sat: summed-area tables of count, sum and sum of squares, then four corners per pixel.
// Integer tables wrap modulo 2^64 (ulong): a window's difference is still exact because the
// window's own sums fit in a long.
#if DATA_FLOAT
typedef real_t sat_t;
#else
typedef ulong sat_t;
#endif

// Pass 1: inclusive prefix sums along each row (one work-item per row and frame).
kernel void spots_sat_rows(global const DATA_T* frames, global const uchar* bad, int w, int h,
                           global int* tm, global sat_t* tx, global sat_t* ty) {
    const int j = get_global_id(0);
    if (j >= h) return;
    const size_t row = (size_t)get_global_id(1) * w * h + (size_t)j * w;
    int m = 0;
    sat_t x = 0, y = 0;
    for (int i = 0; i < w; ++i) {
        const DATA_T v = frames[row + i];
        if (spots_in_sum(v, bad[j * w + i])) {
            m += 1;
            x += (sat_t)v;
            y += (sat_t)v * (sat_t)v;
        }
        tm[row + i] = m, tx[row + i] = x, ty[row + i] = y;
    }
}

// Pass 2: down each column (one work-item per column and frame: neighbours read neighbours).
kernel void spots_sat_cols(int w, int h, global int* tm, global sat_t* tx, global sat_t* ty) {
    const int i = get_global_id(0);
    if (i >= w) return;
    const size_t column = (size_t)get_global_id(1) * w * h + i;
    int m = 0;
    sat_t x = 0, y = 0;
    for (int j = 0; j < h; ++j) {
        const size_t k = column + (size_t)j * w;
        m += tm[k], x += tx[k], y += ty[k];
        tm[k] = m, tx[k] = x, ty[k] = y;
    }
}

// Window [j0+1, j1] x [i0+1, i1] of one table; rows or columns at -1 read as 0.
#define SAT_WINDOW(T, table, zero)                                                            \
    ((T)table[k11] - (j0 >= 0 ? (T)table[k01] : zero) - (i0 >= 0 ? (T)table[k10] : zero) +    \
     (j0 >= 0 && i0 >= 0 ? (T)table[k00] : zero))

kernel void spots_sat_threshold(global const DATA_T* frames, global const uchar* bad, int w,
                                int h, spots_params p, global const int* tm,
                                global const sat_t* tx, global const sat_t* ty,
                                global uchar* signal) {
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= w || j >= h) return;
    const size_t base = (size_t)get_global_id(2) * w * h;
    const int i0 = max(i - KX, 0) - 1, i1 = min(i + KX, w - 1);
    const int j0 = max(j - KY, 0) - 1, j1 = min(j + KY, h - 1);
    const size_t k11 = base + (size_t)j1 * w + i1;
    const size_t k01 = base + (size_t)max(j0, 0) * w + i1, k10 = base + (size_t)j1 * w + max(i0, 0);
    const size_t k00 = base + (size_t)max(j0, 0) * w + max(i0, 0);
    const int m = SAT_WINDOW(int, tm, 0);
    const sum_t x = (sum_t)SAT_WINDOW(sat_t, tx, (sat_t)0);
    const sum_t y = (sum_t)SAT_WINDOW(sat_t, ty, (sat_t)0);
    const int k = j * w + i;
    signal[base + k] = spots_dispersion(m, x, y, frames[base + k], bad[k], p);
}
