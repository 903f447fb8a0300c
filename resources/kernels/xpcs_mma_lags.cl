// ---- variant mma, lag sums fused into the Gram kernel (after xpcs_lags.cl, xpcs_mma.cl) ----
//
// MMA_FUSE = 1 (the host sets it under --tune MMA_FUSE_LAGS=1 when a run has one chunk, one
// slot, no two-time map and no bin long enough for a mid flush): the Gram kernel never writes
// its tile. Its final s32 sums
// (< 2^31: no flush happened) go to local memory, and each work-item takes diagonals of the
// tile (lag = row - column), summing in a fixed order:
//   - the exact 64-bit sum of N_t over the diagonal's valid entries (t < frames), and
//   - the moments of r_t = n N_t / (S_t S_t-lag) over its pairs with a non-zero product:
//     count, mean and M2 (sum of squared deviations), from sums shifted by the ratio of the
//     diagonal's first entry (1 where its product is 0; no cancellation when the ratios sit far
//     from 0, as g2 near 1 does), in a loop without branches; r_t is formed as the CPU forms
//     it (from reciprocals of the frame sums it would differ from the CPU's g2_err).
// One partial of 4 words per (bin, lower tile, diagonal d = lag - tile offset + MMA_TILE - 1):
// N sum, count, mean and M2 (as_ulong). xpcs_mma_lags reduces them per (bin, lag) in tile
// order (deterministic, no atomics), merging the moments pairwise (Chan et al.), and forms the
// denominators sum S_t S_t-lag exactly in 128 bits: g2 = n sum N_t / sum S_t S_t-lag is the
// same exact integers as the CPU reference's, so the same double; g2_err differs in the last
// bits (the CPU takes two passes over t).

#if MMA_FUSE

#define MMA_DIAGONALS (2 * MMA_TILE - 1)
// n N_t / (S_t S_t-lag) as the CPU reference forms it: the exact products rounded to double,
// then divided.
inline double xpcs_mma_ratio(long n, uint value, ulong sr, ulong sc) {
    const double den = (sr | sc) >> 32 ? xpcs_wide_double(xpcs_wide_mul((long)sr, (long)sc))
                                       : convert_double(sr * sc);
    return convert_double((ulong)n * value) / den;
}

// Diagonal partials of the tile whose first row and column are origin (frames); s: S_t of its
// rows (0 .. MMA_TILE-1) then of its columns. Every
// work-item of the group calls it.
inline void xpcs_mma_diagonals(local const uint* tile, local const ulong* s, int2 origin, long n,
                               int frames, global ulong* part) {
    for (int d = get_local_id(0); d < MMA_DIAGONALS; d += MMA_THREADS) {
        const int delta = d - (MMA_TILE - 1);            // row - column inside the tile
        if (origin.x == origin.y && delta < 0) continue; // above a diagonal tile's diagonal
        const int first = max(delta, 0), last = min(MMA_TILE + min(delta, 0), frames - origin.x);
        // Shift: the first entry's ratio where it has one (1 else). The loop has no branch: a
        // ratio of a zero product (inf or NaN) is computed and dropped.
        double shift = 1.0;
        if (first < last && s[first] != 0 && s[MMA_TILE + first - delta] != 0)
            shift = xpcs_mma_ratio(n, tile[first * MMA_LDS + first - delta], s[first],
                                   s[MMA_TILE + first - delta]);
        ulong nsum = 0;
        uint count = 0;
        double s1 = 0.0, s2 = 0.0;
#pragma unroll 4
        for (int lr = first; lr < last; ++lr) {
            const int lc = MMA_TILE + lr - delta;
            const uint value = tile[lr * MMA_LDS + lr - delta];
            const int valid = s[lr] != 0 && s[lc] != 0;
            const double r = xpcs_mma_ratio(n, value, s[lr], s[lc]);
            const double x = valid ? r - shift : 0.0;
            nsum += value, count += valid;
            s1 += x, s2 += x * x;
        }
        const double c = (double)count;
        global ulong* p = part + 4 * (size_t)d;
        p[0] = nsum, p[1] = count;
        p[2] = as_ulong(count ? shift + s1 / c : 0.0);
        p[3] = as_ulong(count ? max(s2 - s1 * s1 / c, 0.0) : 0.0);
    }
}

// The end of xpcs_mma under MMA_FUSE, its tile in local memory: the diagonal partials.
void xpcs_mma_fused_end(local const uint* tile, local ulong* s, int2 origin, int bin,
                        global const ulong* sums, global const long* pixelCounts,
                        global ulong* partials, int frames) {
    for (int i = get_local_id(0); i < 2 * MMA_TILE; i += MMA_THREADS) {
        const int t = (i < MMA_TILE ? origin.x : origin.y - MMA_TILE) + i;
        s[i] = sums[(size_t)bin * frames + min(t, frames - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const size_t first = ((size_t)bin * get_num_groups(0) + get_group_id(0)) * MMA_DIAGONALS;
    xpcs_mma_diagonals(tile, s, origin, pixelCounts[bin], frames, partials + 4 * first);
}

// Moments (count, mean, M2) += (cb, mb, m2b), pairwise (Chan, Golub and LeVeque).
inline void xpcs_moments_merge(double* c, double* mean, double* m2, double cb, double mb,
                               double m2b) {
    const double total = *c + cb, delta = mb - *mean;
    *mean += delta * cb / total;
    *m2 += m2b + delta * delta * *c * cb / total;
    *c = total;
}

// g2 and g2_err of (lag, bin) from the partials of `tiles` x `tiles` lower tiles per bin.
// Global (frames rounded up to 64, binCount); work-group (64, 1).
kernel void xpcs_mma_lags(global const ulong* partials, global const ulong* sums,
                          global const long* pixelCounts, global double* g2, global double* g2Err,
                          int frames, int tiles) {
    const int lag = get_global_id(0), bin = get_global_id(1);
    if (lag >= frames) return;
    const size_t lower = (size_t)tiles * (tiles + 1) / 2;
    ulong nsum = 0;
    double c = 0.0, mean = 0.0, m2 = 0.0;
    for (int D = lag / MMA_TILE; D <= lag / MMA_TILE + 1 && D < tiles; ++D) {
        const int delta = lag - D * MMA_TILE; // row - column inside the tiles D below the diagonal
        if (delta <= -MMA_TILE) continue;
        for (int col = 0; col + D < tiles; ++col) {
            const int row = col + D;
            global const ulong* p =
                partials +
                4 * (((size_t)bin * lower + (size_t)row * (row + 1) / 2 + col) * MMA_DIAGONALS +
                     delta + MMA_TILE - 1);
            nsum += p[0];
            if (p[1] != 0)
                xpcs_moments_merge(&c, &mean, &m2, (double)p[1], as_double(p[2]), as_double(p[3]));
        }
    }
    global const ulong* s = sums + (size_t)bin * frames;
    xpcs_wide den = xpcs_wide_make(0, 0);
    for (int t = lag; t < frames; ++t) {
        const ulong a = s[t], b = s[t - lag];
        den = xpcs_wide_add(den, (a | b) >> 32 ? xpcs_wide_mul((long)a, (long)b)
                                               : xpcs_wide_make(a * b, 0)); // < 2^64
    }
    const size_t out = (size_t)bin * frames + lag;
    const int empty = xpcs_wide_zero(den);
    g2[out] = empty ? NAN
                    : xpcs_wide_double(xpcs_wide_mul(pixelCounts[bin], (long)nsum)) /
                          xpcs_wide_double(den);
    g2Err[out] = (empty || c == 0.0) ? NAN : sqrt(m2 / c) / sqrt(c);
}

#endif
