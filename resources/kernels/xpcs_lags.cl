// xpcs lag sums: g2 and g2_err of every (bin, lag) from the Gram diagonals (after
// xpcs_common.cl). Over t = lag..T-1 and the gram slots, N_t = gram[t][t-lag]:
//   g2 = n Σ N_t / Σ S_t S_t-lag,
//   g2_err = population std of r_t = n N_t / (S_t S_t-lag) over the pairs with a non-zero
//            product, divided by sqrt(count); two passes, like the CPU (floating-point data),
//            one pass of moments shifted by one pair's ratio (integer data, below).
// Integer data (SUM_FLOAT 0): n N_t and S_t S_t-lag are formed and summed exactly in 128 bits
// and turned into doubles as hi * 2^64 + lo, the same operations as the CPU reference
// (core/xpcs/xpcs_stats.inl), so g2 is bit-identical to it and constant frames give exactly 1.
// Data whose 64-bit sums could overflow (xpcs::sums64Overflow) never come here: the host
// correlates their value planes and reduces those itself (planeStatistics, gpu/xpcs/runner.hpp),
// so every SUM_T value here is below 2^63 and every 128-bit sum below 2^94.
// Work-group (32 lags, XPCS_LANES); global (frames rounded up to 32, XPCS_LANES * binCount).
// Lane l takes t = T-1-l, T-1-l-8, ... so the 32 lags of a warp read neighbouring entries.

// XPCS_LAG_ORDER 1 (the host's default too): groups over (bins, lag groups), the bins first,
// so that the groups of the shortest lags (the longest loops) start first; 0: over (lag
// groups, bins).
#if XPCS_LAG_ORDER
#define XPCS_LAG_GROUP get_group_id(1)
#define XPCS_LAG_BIN get_group_id(0)
#else
#define XPCS_LAG_GROUP get_group_id(0)
#define XPCS_LAG_BIN get_group_id(1)
#endif

// N(t1, t2) summed over the gram slots.
inline SUM_T xpcs_gram_at(global const GRAM_T* gram, int bin, int binCount, int framePad, int slots,
                          int t1, int t2) {
    SUM_T value = 0;
    for (int slot = 0; slot < slots; ++slot)
        value += (SUM_T)gram[xpcs_gram_index(slot, bin, binCount, framePad, t1, t2)];
    return value;
}

// Sum of the XPCS_LANES partial values of column lx (every work-item gets it).
#define XPCS_LANE_SUM(T, name, value)                                                              \
    local T name[XPCS_LANES][32];                                                                  \
    name[lane][lx] = (value);                                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    T name##Total = 0;                                                                             \
    for (int l = 0; l < XPCS_LANES; ++l)                                                           \
        name##Total += name[l][lx];

#if SUM_FLOAT
kernel void xpcs_lag_sums(global const GRAM_T* gram, global const SUM_T* sums,
                          global const long* pixelCounts, global double* g2, global double* g2Err,
                          int frames, int framePad, int binCount, int slots) {
    const int lx = get_local_id(0), lane = get_local_id(1);
    const int lag = XPCS_LAG_GROUP * 32 + lx, bin = XPCS_LAG_BIN;
    const double n = convert_double(pixelCounts[bin]);
    global const SUM_T* s = sums + (size_t)bin * frames;
    double numerator = 0.0, denominator = 0.0, ratioSum = 0.0;
    int count = 0;
    for (int t = frames - 1 - lane; t >= lag; t -= XPCS_LANES) {
        const double gramValue = xpcs_gram_at(gram, bin, binCount, framePad, slots, t, t - lag);
        const double product = s[t] * s[t - lag];
        numerator += gramValue;
        denominator += product;
        if (product != 0.0) {
            ratioSum += n * gramValue / product;
            ++count;
        }
    }
    XPCS_LANE_SUM(double, numerators, numerator)
    XPCS_LANE_SUM(double, denominators, denominator)
    XPCS_LANE_SUM(double, ratioSums, ratioSum)
    XPCS_LANE_SUM(int, counts, count)
    const double mean = ratioSumsTotal / countsTotal;
    double squares = 0.0;
    for (int t = frames - 1 - lane; t >= lag && countsTotal > 0; t -= XPCS_LANES) {
        const double product = s[t] * s[t - lag];
        if (product == 0.0) continue;
        const double d =
            n * xpcs_gram_at(gram, bin, binCount, framePad, slots, t, t - lag) / product - mean;
        squares += d * d;
    }
    XPCS_LANE_SUM(double, squareSums, squares)
    if (lane != 0 || lag >= frames) return;
    const size_t out = (size_t)bin * frames + lag;
    g2[out] = denominatorsTotal == 0.0 ? NAN : numeratorsTotal * n / denominatorsTotal;
    g2Err[out] = (denominatorsTotal == 0.0 || countsTotal == 0)
                     ? NAN
                     : sqrt(squareSumsTotal / countsTotal) / sqrt((double)countsTotal);
}

#else // integer data: exact 128-bit sums

// The exact pair terms m = n N_t and d = S_t S_t-lag of lag `lag` at frame t.
#define XPCS_PAIR(m, d)                                                                            \
    const xpcs_wide m = xpcs_wide_mul_fast(                                                        \
        n, (long)xpcs_gram_at(gram, bin, binCount, framePad, slots, t, t - lag));                  \
    const xpcs_wide d = xpcs_wide_mul_fast((long)s[t], (long)s[t - lag]);
// Add one pair to the work-item's sums and moments (a pair with d = 0 only to the numerator).
#define XPCS_ADD_PAIR(m, d)                                                                        \
    numerator = xpcs_wide_add(numerator, m);                                                       \
    denominator = xpcs_wide_add(denominator, d);                                                   \
    if (!xpcs_wide_zero(d)) {                                                                      \
        const double x = xpcs_wide_double(m) / xpcs_wide_double(d) - shift;                        \
        s1 += x, s2 += x * x;                                                                      \
        ++count;                                                                                   \
    }

// XPCS_NARROW (the host sets it where the Gram entries are uint and every n N_t and S_t S_t-lag
// lies below 2^53: uint8 frames, bins of at most 66,052 pixels; MMA_LAGS=0 turns it off): the
// products are formed in double, exactly, and N_t summed in 64 bits (n times the sum at the
// end), so every r_t and both g2 sums are the same numbers as the 128-bit path's; S_t S_t-lag
// is added into the 128-bit denominator as one 64-bit integer.
#if XPCS_NARROW && MMA_LAGS
#define XPCS_LAG_LOOP                                                                              \
    const double nd = convert_double(n);                                                           \
    ulong nsum = 0;                                                                                \
    for (int t = frames - 1 - lane; t >= lag; t -= XPCS_LANES) {                                  \
        const ulong value = xpcs_gram_at(gram, bin, binCount, framePad, slots, t, t - lag);        \
        const ulong d = s[t] * s[t - lag];                                                         \
        nsum += value;                                                                             \
        denominator = xpcs_wide_add(denominator, xpcs_wide_make(d, 0));                            \
        if (d != 0) {                                                                              \
            const double x = nd * convert_double(value) / convert_double(d) - shift;               \
            s1 += x, s2 += x * x;                                                                  \
            ++count;                                                                               \
        }                                                                                          \
    }                                                                                              \
    numerator = xpcs_wide_make(nsum, 0); /* times n after the lane sums */
#define XPCS_NUMERATOR(total) xpcs_wide_mul(n, (long)(total).lo)
#else
#define XPCS_LAG_LOOP                                                                              \
    for (int t = frames - 1 - lane; t >= lag; t -= XPCS_LANES) {                                  \
        XPCS_PAIR(m, d)                                                                            \
        XPCS_ADD_PAIR(m, d)                                                                        \
    }
#define XPCS_NUMERATOR(total) (total)
#endif

// Sum of the XPCS_LANES partial 128-bit values of column lx.
#define XPCS_LANE_SUM_WIDE(name, value)                                                            \
    local ulong name##Lo[XPCS_LANES][32];                                                          \
    local long name##Hi[XPCS_LANES][32];                                                           \
    name##Lo[lane][lx] = (value).lo;                                                               \
    name##Hi[lane][lx] = (value).hi;                                                               \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    xpcs_wide name##Total = xpcs_wide_make(0, 0);                                                  \
    for (int l = 0; l < XPCS_LANES; ++l)                                                           \
        name##Total = xpcs_wide_add(name##Total, xpcs_wide_make(name##Lo[l][lx], name##Hi[l][lx]));

// One pass: g2_err from the moments of x_t = r_t - shift (shift: the ratio of the pair
// t = frames-1, 1 where it has none), M2 = sum x^2 - (sum x)^2 / count; constant frames give
// exactly 0 (every x is 0). On the H200's large mma case: 0.80 ms (0.95-0.97 with the loop
// unrolled 2 or 4 times), where two passes, reading the Gram diagonals and dividing twice, took
// 1.72 ms. r_t stays the CPU's quotient: products of reciprocals of the frame sums moved g2_err
// of near-constant frames by more than 1e-12 relative (tst_xpcs_mma flushAtItsBound).
kernel void xpcs_lag_sums(global const GRAM_T* gram, global const SUM_T* sums,
                          global const long* pixelCounts, global double* g2, global double* g2Err,
                          int frames, int framePad, int binCount, int slots) {
    const int lx = get_local_id(0), lane = get_local_id(1);
    const int lag = XPCS_LAG_GROUP * 32 + lx, bin = XPCS_LAG_BIN;
    const long n = pixelCounts[bin];
    global const SUM_T* s = sums + (size_t)bin * frames;
    double shift = 1.0;
    if (lag < frames) {
        const int t = frames - 1;
        XPCS_PAIR(m, d)
        if (!xpcs_wide_zero(d)) shift = xpcs_wide_double(m) / xpcs_wide_double(d);
    }
    xpcs_wide numerator = xpcs_wide_make(0, 0), denominator = xpcs_wide_make(0, 0);
    double s1 = 0.0, s2 = 0.0;
    int count = 0;
    XPCS_LAG_LOOP
    XPCS_LANE_SUM_WIDE(numerators, numerator)
    XPCS_LANE_SUM_WIDE(denominators, denominator)
    XPCS_LANE_SUM(double, firstMoments, s1)
    XPCS_LANE_SUM(double, secondMoments, s2)
    XPCS_LANE_SUM(int, counts, count)
    if (lane != 0 || lag >= frames) return;
    const size_t out = (size_t)bin * frames + lag;
    const int empty = xpcs_wide_zero(denominatorsTotal);
    const double c = (double)countsTotal;
    const double m2 = countsTotal
                          ? max(secondMomentsTotal - firstMomentsTotal * firstMomentsTotal / c, 0.0)
                          : 0.0;
    g2[out] = empty ? NAN
                    : xpcs_wide_double(XPCS_NUMERATOR(numeratorsTotal)) /
                          xpcs_wide_double(denominatorsTotal);
    g2Err[out] = (empty || countsTotal == 0) ? NAN : sqrt(m2 / c) / sqrt(c);
}
#endif
