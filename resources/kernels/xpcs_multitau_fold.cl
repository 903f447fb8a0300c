// Multi-tau's fold on the device (after xpcs_wide.cl; host side gpu/xpcs/device_fold.cpp): the
// per-row sums of a block (a level's frame sums S_t per bin, sums[at + r·bins + b], and lag
// products N_t, products[at + (r·bins + b)·lags + j], the layout MultitauStats folds on the
// host) folded into running statistics that stay on the device, so that no row's sums come
// back. Per (level, bin, lag) eight words:
//   [0, 1] n Σ N_t (lo, hi: exact, 128 bits), [2, 3] Σ S_t S'_t (the same),
//   [4] the pairs with S_t S'_t != 0, [5] those with a non-zero ratio,
//   [6, 7] the mean and M2 of the non-zero ratios r_t = n N_t / (S_t S'_t) (as_ulong),
// the same as MultitauStats' Lag (core/xpcs/multitau.hpp): the integers are exact in any order,
// and the moments are Welford's running mean over the non-zero ratios in row order, each ratio
// and each step formed by the same operations as the CPU's (RatioMoments::addCounted), with no
// contraction, so g2 and g2_err come out bit for bit. Every product n N_t < 2^126 and every
// S_t S'_t < 2^63 (the host bounds a binned frame's counts by largestProductRoot).
//
// mt_fold: one work-group of MTF_WG work-items per (level, bin, lag) of a block's rows, every
// level's in one launch: each work-item forms one row's terms, a chunk of MTF_WG rows at a time;
// the chunk's non-zero ratios are then taken in row order by the group's first work-item. A
// level's frame sums of the C rows before the block are a ring (slot t % C) per (level, bin),
// two of them in turn: read from one and written whole, with this block's rows, into the other
// (the groups of other lags still read the first).
#pragma OPENCL FP_CONTRACT OFF
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef MTF_WG
#define MTF_WG 64
#endif

// A block's rows, entry e of `entries` (table[8e ..]): its sums' and products' first words, its
// first row and row count, level, ring parity and first work-group (the groups of an entry: its
// lags times the bins). State: ((level · bins + b) · C + j) · 8 words; rings: ((level · 2 +
// parity) · bins + b) · C. Global MTF_WG · (the entries' groups), local MTF_WG.
__kernel void mt_fold(__global const long* sums, __global const long* products,
                      __global const long* table, int entries, int bins, int channels,
                      __global const long* pixelCounts, __global long* rings,
                      __global ulong* state) {
    __local double ratio[MTF_WG];
    __local ulong part[4 * MTF_WG];
    __local int any;
    const int g = get_group_id(0), lane = get_local_id(0);
    int e = 0;
    while (e + 1 < entries && table[8 * (e + 1) + 6] <= g)
        ++e;
    __global const long* row = table + 8 * e;
    const long sumsAt = row[0], productsAt = row[1], first = row[2];
    const int count = (int)row[3], level = (int)row[4], parity = (int)row[5];
    const int lags = level == 0 ? channels : channels / 2, lag0 = level == 0 ? 0 : channels / 2;
    const int local_g = g - (int)row[6];
    const int j = local_g % lags, b = local_g / lags, lag = lag0 + j;
    const long n = pixelCounts[b];
    __global const long* ring = rings + ((long)(2 * level + parity) * bins + b) * channels;
    __global long* ringOut = rings + ((long)(2 * level + 1 - parity) * bins + b) * channels;
    __global ulong* at = state + 8 * (((long)level * bins + b) * channels + j);
    xpcs_wide num = xpcs_wide_make(0, 0), den = xpcs_wide_make(0, 0);
    ulong pairs = 0, nonzero = at[5];
    double mean = as_double(at[6]), m2 = as_double(at[7]);
    for (int r0 = 0; r0 < count; r0 += MTF_WG) {
        const int r = r0 + lane;
        const long t = first + r;
        double x = 0.0;
        if (lane == 0) any = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (r < count && t >= lag) {
            const long s = sums[sumsAt + (long)r * bins + b];
            const long e = r >= lag ? sums[sumsAt + (long)(r - lag) * bins + b]
                                    : ring[(t - lag) % channels];
            const long product = products[productsAt + ((long)r * bins + b) * lags + j];
            const xpcs_wide m = xpcs_wide_mul_fast(n, product);
            const long d = s * e;
            num = xpcs_wide_add(num, m), den = xpcs_wide_add(den, xpcs_wide_make((ulong)d, 0));
            if (d != 0) {
                ++pairs;
                if (product != 0) x = xpcs_wide_double(m) / convert_double(d), any = 1;
            }
        }
        ratio[lane] = x;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane == 0 && any) // Welford over the chunk's non-zero ratios, in row order
            for (int i = 0; i < MTF_WG; ++i) {
                const double v = ratio[i];
                if (v == 0.0) continue;
                ++nonzero;
                const double delta = v - mean;
                mean += delta / convert_double(nonzero);
                m2 += delta * (v - mean);
            }
    }
    // The work-items' exact sums, added in the group (any order: integers).
    part[lane] = num.lo, part[MTF_WG + lane] = (ulong)num.hi;
    part[2 * MTF_WG + lane] = den.lo, part[3 * MTF_WG + lane] = (ulong)den.hi;
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong pairsAll = pairs;
    if (lane == 0) {
        xpcs_wide a = xpcs_wide_make(at[0], (long)at[1]), c = xpcs_wide_make(at[2], (long)at[3]);
        for (int i = 0; i < MTF_WG; ++i) {
            a = xpcs_wide_add(a, xpcs_wide_make(part[i], (long)part[MTF_WG + i]));
            c = xpcs_wide_add(c, xpcs_wide_make(part[2 * MTF_WG + i], (long)part[3 * MTF_WG + i]));
        }
        at[0] = a.lo, at[1] = (ulong)a.hi, at[2] = c.lo, at[3] = (ulong)c.hi;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    part[lane] = pairs;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane == 0) {
        for (int i = 1; i < MTF_WG; ++i)
            pairsAll += part[i];
        at[4] += pairsAll, at[5] = nonzero, at[6] = as_ulong(mean), at[7] = as_ulong(m2);
    }
    // The ring after this block: rows first + count - C .. first + count - 1.
    if (j == 0)
        for (int i = lane; i < channels; i += MTF_WG) {
            const long t = first + count - channels + i;
            if (t < 0) continue;
            ringOut[t % channels] =
                t >= first ? sums[sumsAt + (t - first) * bins + b] : ring[t % channels];
        }
}
