// xpcs multi-tau, streamed (DESIGN.md §5; host side gpu/xpcs/multitau_stream.cpp). Frames
// arrive in blocks, front to back. Each level k keeps a ring of its last R_k rows, one value
// per labelled pixel (pixels in bin order): row t of level k at (t % R_k) * P. A block is
// gathered into level 0's ring, pairs of level k's rows are summed into level k+1's, and
// mt_lags reduces each new row's frame sum and lag products per bin. Every sum is exact: the
// host picks the narrowest types that hold every value (RING_T, ACC_T) and 128-bit sums
// (mt_lags_wide) for 32-bit data only.
//
// Set by the host (-D):
//   DATA_T    element type of the frames: uchar, ushort, uint, int
//   RING_T    element type of the rings: int where every binned value fits, else long
//   MT_WG     work-group size of mt_lags (a power of two)
//   MT_WIDE   1: 128-bit sums (mt_lags_wide, 32-bit data, long rings), else mt_lags
//   mt_lags:  MT_LAG0, MT_LAGS the lags of its level (m = MT_LAG0 .. MT_LAG0 + MT_LAGS - 1),
//             MT_ROWS rows per work-group (each pixel's window read once for all of them),
//             ACC_T  a work-item's partial sums: int where the host proved they fit, else long
//   mt_lags_wide: MT_LAGS the most lags of a level (C)


// ring[(first + f) % rows][p] = frame f of the block at pixel pix[p], for f < count: one
// work-item per pixel, its index read once.
__kernel void mt_gather(__global const DATA_T* raw, __global const int* pix,
                        __global RING_T* ring, int rows, int pixels, long frameSize, long first,
                        int count) {
    const int p = get_global_id(0);
    if (p >= pixels) return;
    const __global DATA_T* from = raw + pix[p];
    int row = (int)(first % rows);
#pragma unroll 4
    for (int f = 0; f < count; ++f, from += frameSize) {
        ring[(long)row * pixels + p] = (RING_T)*from;
        row = row + 1 == rows ? 0 : row + 1;
    }
}

// *largest = max(*largest, |value|) over the labelled pixels of `count` frames (the streaming
// pipeline's frames, decoded on the device: the host never sees their values): one work-item
// per pixel, the group's maximum to the global word.
__kernel void mt_largest(__global const DATA_T* raw, __global const int* pix, int pixels,
                         long frameSize, int count, __global uint* largest) {
    __local uint group;
    const int p = get_global_id(0);
    if (get_local_id(0) == 0) group = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint most = 0;
    if (p < pixels) {
        const __global DATA_T* from = raw + pix[p];
        for (int f = 0; f < count; ++f, from += frameSize) {
            const long v = (long)*from;
            most = max(most, (uint)(v < 0 ? -v : v));
        }
    }
    atomic_max(&group, most);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) atomic_max(largest, group);
}

// Level k+1 rows first.. first+count-1: the sums of level k's rows 2j and 2j+1 (ring slots
// stepped, not divided, per row).
__kernel void mt_bin(__global const RING_T* src, int srcRows, __global RING_T* dst, int dstRows,
                     int pixels, long first, int count) {
    const int p = get_global_id(0);
    if (p >= pixels) return;
    int to = (int)(first % dstRows), from = (int)((2 * first) % srcRows);
#pragma unroll 4
    for (int j = 0; j < count; ++j) {
        const int next = from + 1 == srcRows ? 0 : from + 1;
        dst[(long)to * pixels + p] = src[(long)from * pixels + p] + src[(long)next * pixels + p];
        from = next + 1 == srcRows ? 0 : next + 1;
        to = to + 1 == dstRows ? 0 : to + 1;
    }
}

#if !MT_WIDE
#define MT_OUT (MT_ROWS * (MT_LAGS + 1)) // per row: MT_LAGS products, then the frame sum
#define MT_SPAN (MT_LAG0 + MT_LAGS - 1)  // the longest lag
#define MT_WINDOW (MT_SPAN + MT_ROWS)    // rows t0 - MT_SPAN .. t0 + MT_ROWS - 1

// One work-group per (MT_ROWS new rows, bin): for row t = t0 + r (t - first < count),
// sums[sumsAt + (t - first) * bins + b] = S_t and
// prods[prodsAt + ((t - first) * bins + b) * MT_LAGS + j] = N_t at lag MT_LAG0 + j. Each pixel's
// window of MT_WINDOW rows is read once for all MT_ROWS rows. Rows before 0 are read as row 0:
// those products belong to pairs that do not exist, which the host ignores.
__kernel __attribute__((reqd_work_group_size(MT_WG, 1, 1))) void
mt_lags(__global const RING_T* ring, int rows, __global const long* offsets, long first,
        int count, int bins, __global long* sums, long sumsAt, __global long* prods,
        long prodsAt) {
    const int lid = get_local_id(0), b = get_global_id(1);
    const long t0 = first + (long)get_group_id(0) * MT_ROWS;
    const long p0 = offsets[b], p1 = offsets[b + 1], pixels = offsets[bins];
    const __global RING_T* at[MT_WINDOW];
#pragma unroll
    for (int i = 0; i < MT_WINDOW; ++i)
        at[i] = ring + (max(t0 - MT_SPAN + i, (long)0) % rows) * pixels;
    ACC_T acc[MT_OUT];
#pragma unroll
    for (int o = 0; o < MT_OUT; ++o)
        acc[o] = 0;
    for (long p = p0 + lid; p < p1; p += MT_WG) {
        ACC_T w[MT_WINDOW];
#pragma unroll
        for (int i = 0; i < MT_WINDOW; ++i)
            w[i] = at[i][p];
#pragma unroll
        for (int r = 0; r < MT_ROWS; ++r) {
            const ACC_T v = w[MT_SPAN + r];
            acc[r * (MT_LAGS + 1) + MT_LAGS] += v;
#pragma unroll
            for (int j = 0; j < MT_LAGS; ++j) // row t0 + r - MT_LAG0 - j
                acc[r * (MT_LAGS + 1) + j] += v * w[MT_SPAN + r - MT_LAG0 - j];
        }
    }
#if MT_WG == 1
#define MT_TOTAL(o) acc[o]
#else
    // Tree reduction over the work-group; the upper half's sums land first.
    __local long red[MT_OUT * (MT_WG / 2)];
    const int upper = MT_WG / 2;
    if (lid >= upper)
#pragma unroll
        for (int o = 0; o < MT_OUT; ++o)
            red[o * upper + lid - upper] = acc[o];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < upper)
#pragma unroll
        for (int o = 0; o < MT_OUT; ++o)
            red[o * upper + lid] += acc[o];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = upper / 2; s > 0; s >>= 1) {
        if (lid < s)
            for (int o = 0; o < MT_OUT; ++o)
                red[o * upper + lid] += red[o * upper + lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#define MT_TOTAL(o) red[(o) * upper]
#endif
#pragma unroll
    for (int o = 0; o < MT_OUT; ++o) {
        const int r = o / (MT_LAGS + 1), j = o % (MT_LAGS + 1);
        const long row = t0 + r - first;
        if (o % MT_WG != lid || row >= count) continue;
        if (j == MT_LAGS)
            sums[sumsAt + row * bins + b] = MT_TOTAL(o);
        else
            prods[prodsAt + (row * bins + b) * MT_LAGS + j] = MT_TOTAL(o);
    }
}
#else
// 32-bit data: the same sums in 128 bits, two words each (lo unsigned, hi signed, two's
// complement), so every value of uint32 and int32 data is exact. Output words lo, hi.
inline void add128(ulong* lo, long* hi, ulong plo, long phi) {
    const ulong s = *lo + plo;
    *hi += phi + (s < plo ? 1 : 0);
    *lo = s;
}

__kernel __attribute__((reqd_work_group_size(MT_WG, 1, 1))) void
mt_lags_wide(__global const long* ring, int rows, __global const long* offsets, long first,
             int lag0, int lags, int bins, __global long* sums, long sumsAt, __global long* prods,
             long prodsAt) {
    __local ulong redLo[(MT_LAGS + 1) * MT_WG];
    __local long redHi[(MT_LAGS + 1) * MT_WG];
    const int lid = get_local_id(0), r = get_group_id(0), b = get_global_id(1);
    const long t = first + r;
    const long p0 = offsets[b], p1 = offsets[b + 1], pixels = offsets[bins];
    const __global long* now = ring + (t % rows) * pixels;
    ulong lo[MT_LAGS + 1];
    long hi[MT_LAGS + 1];
    const __global long* then[MT_LAGS];
    const int live = (int)min((long)lags, max(t - lag0 + 1, (long)0));
    for (int j = 0; j <= MT_LAGS; ++j)
        lo[j] = 0, hi[j] = 0;
    for (int j = 0; j < MT_LAGS; ++j)
        then[j] = ring + (max(t - lag0 - j, (long)0) % rows) * pixels;
    for (long p = p0 + lid; p < p1; p += MT_WG) {
        const long v = now[p];
        add128(&lo[MT_LAGS], &hi[MT_LAGS], (ulong)v, v < 0 ? -1 : 0);
#pragma unroll
        for (int j = 0; j < MT_LAGS; ++j)
            if (j < live) {
                const long w = then[j][p];
                add128(&lo[j], &hi[j], (ulong)(v * w), mul_hi(v, w));
            }
    }
    for (int j = 0; j <= MT_LAGS; ++j)
        redLo[j * MT_WG + lid] = lo[j], redHi[j * MT_WG + lid] = hi[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = MT_WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            for (int j = 0; j <= MT_LAGS; ++j) {
                ulong l = redLo[j * MT_WG + lid];
                long h = redHi[j * MT_WG + lid];
                add128(&l, &h, redLo[j * MT_WG + lid + s], redHi[j * MT_WG + lid + s]);
                redLo[j * MT_WG + lid] = l, redHi[j * MT_WG + lid] = h;
            }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const long at = (long)r * bins + b;
    sums += sumsAt, prods += prodsAt;
    if (lid == 0)
        sums[2 * at] = (long)redLo[MT_LAGS * MT_WG], sums[2 * at + 1] = redHi[MT_LAGS * MT_WG];
    for (int j = lid; j < lags; j += MT_WG)
        prods[2 * (at * lags + j)] = (long)redLo[j * MT_WG],
                               prods[2 * (at * lags + j) + 1] = redHi[j * MT_WG];
}
#endif
