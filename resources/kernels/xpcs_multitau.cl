// xpcs multi-tau, streamed (DESIGN.md §5; host side gpu/xpcs/multitau_stream.cpp). Frames
// arrive in blocks, front to back. Each level k keeps a ring of its last R_k rows, one value
// per labelled pixel (pixels in bin order): row t of level k at (t % R_k) * P. A block is
// gathered into level 0's ring, pairs of level k's rows are summed into level k+1's, and
// mt_lags reduces each new row's frame sum and lag products per bin. Sums are 64-bit integers
// (the host refuses data whose sums could leave 64 bits), so every result is exact.
//
// Set by the host (-D):
//   DATA_T    element type of the frames: uchar, ushort, uint, int
//   MT_LAGS   lags of one level, at most (C: level 0)
//   MT_WG     work-group size of mt_lags (a power of two)

#ifndef DATA_T
#define DATA_T uchar
#endif
#ifndef MT_LAGS
#define MT_LAGS 16
#endif
#ifndef MT_WG
#define MT_WG 64
#endif

// ring[(first + f) % rows][p] = frame f of the block at pixel pix[p].
__kernel void mt_gather(__global const DATA_T* raw, __global const int* pix,
                        __global long* ring, int rows, int pixels, long frameSize, long first,
                        int count) {
    const int p = get_global_id(0), f = get_global_id(1);
    if (p >= pixels || f >= count) return;
    const long row = (first + f) % rows;
    ring[row * pixels + p] = (long)raw[(long)f * frameSize + pix[p]];
}

// Level k+1 rows first.. first+count-1: the sums of level k's rows 2j and 2j+1.
__kernel void mt_bin(__global const long* src, int srcRows, __global long* dst, int dstRows,
                     int pixels, long first, int count) {
    const int p = get_global_id(0), j = get_global_id(1);
    if (p >= pixels || j >= count) return;
    const long t = 2 * (first + j);
    dst[((first + j) % dstRows) * pixels + p] =
        src[(t % srcRows) * pixels + p] + src[((t + 1) % srcRows) * pixels + p];
}

// One work-group per (new row, bin): sums[r][b] = S_t, prods[r][b][j] = N_t at lag lag0 + j
// (0 where t < lag0 + j), t = first + r.
__kernel __attribute__((reqd_work_group_size(MT_WG, 1, 1))) void
mt_lags(__global const long* ring, int rows, __global const long* offsets, long first, int lag0,
        int lags, int bins, __global long* sums, __global long* prods) {
    __local long red[(MT_LAGS + 1) * MT_WG];
    const int lid = get_local_id(0), r = get_group_id(0), b = get_global_id(1);
    const long t = first + r;
    const long p0 = offsets[b], p1 = offsets[b + 1], pixels = offsets[bins];
    const __global long* now = ring + (t % rows) * pixels;
    long acc[MT_LAGS + 1];
    const __global long* then[MT_LAGS];
    // Lags whose earlier row exists: j < lags with lag0 + j <= t.
    const int live = (int)min((long)lags, max(t - lag0 + 1, (long)0));
    for (int j = 0; j <= MT_LAGS; ++j)
        acc[j] = 0;
    for (int j = 0; j < MT_LAGS; ++j) // rows past `live` are never read
        then[j] = ring + (max(t - lag0 - j, (long)0) % rows) * pixels;
    for (long p = p0 + lid; p < p1; p += MT_WG) {
        const long v = now[p];
        acc[MT_LAGS] += v;
#pragma unroll
        for (int j = 0; j < MT_LAGS; ++j) // constant bound: the sums stay in registers
            if (j < live) acc[j] += v * then[j][p];
    }
    for (int j = 0; j <= MT_LAGS; ++j)
        red[j * MT_WG + lid] = acc[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = MT_WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            for (int j = 0; j <= MT_LAGS; ++j)
                red[j * MT_WG + lid] += red[j * MT_WG + lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) sums[(long)r * bins + b] = red[MT_LAGS * MT_WG];
    for (int j = lid; j < lags; j += MT_WG)
        prods[((long)r * bins + b) * lags + j] = red[j * MT_WG];
}
