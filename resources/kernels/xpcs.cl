// xpcs: dense intensity autocorrelation per q bin (DESIGN.md §5).
//
// Every variant fills the lower triangle of one Gram matrix per bin,
//   gram[slot][bin][t1][t2] = sum_p I_t1(p) I_t2(p)   (t1 >= t2, summed over slots),
// and the frame sums S[bin][t] = sum_p I_t(p); xpcs_lag_sums then reduces the diagonals to
// g2 and g2_err. The sums over pixels are additive, so frames larger than the device are
// processed in pixel chunks: `accumulate` = 0 stores the first chunk, 1 adds the next ones.
//
// Set by the host (-D):
//   DATA_T   element type of the frames: uchar, ushort, uint, int, float
//   SUM_T    exact sum type of gram and S: ulong (unsigned data), long (int), double (float)
//   LAYOUT   how a chunk is stored: 0 raw frames (pixel index list), 1 frame-major
//            (pixels of a bin contiguous inside each frame), 2 pixel-major (frames contiguous)
//   DATA_UCHAR 1 for uint8 data (allows gemm's fp32 fast path, GEMM_FAST_U8)
//   XPCS_CPU 1 on CPU devices (PoCL): kernels without local-memory tiles and barriers where
//            those cost more than they save (a work-group there is a loop over its items)
// Values of DATA_T are converted, never reinterpreted: uchar stays 0..255 (the seed's
// `char` read made values above 127 negative).

#ifndef DATA_T
#define DATA_T uchar
#endif
#ifndef SUM_T
#define SUM_T ulong
#endif
#ifndef LAYOUT
#define LAYOUT 0
#endif
#ifndef XPCS_CPU
#define XPCS_CPU 0
#endif
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define XPCS_CAT_(a, b) a##b
#define XPCS_CAT(a, b) XPCS_CAT_(a, b)

// Element (frame t, chunk pixel q) of a chunk in the layout of this build; `stride` is the
// raw frame size (layout 0), the padded pixel count (1) or the padded frame count (2).
inline SUM_T xpcs_pixel(global const DATA_T* data, global const int* pixels, int stride, int t,
                        int q) {
#if LAYOUT == 0
    return (SUM_T)data[(size_t)t * stride + pixels[q]];
#elif LAYOUT == 1
    return (SUM_T)data[(size_t)t * stride + q];
#else
    return (SUM_T)data[(size_t)q * stride + t];
#endif
}

// Index of gram[slot][bin][t1][t2] with frames padded to framePad.
inline size_t xpcs_gram_index(int slot, int bin, int binCount, int framePad, int t1, int t2) {
    return (((size_t)slot * binCount + bin) * framePad + t1) * (size_t)framePad + t2;
}

// Store or add one sum into a global accumulator.
inline void xpcs_store(global SUM_T* where, SUM_T value, int accumulate) {
    *where = accumulate ? *where + value : value;
}

// ---- shared: raw frames -> frame-major or pixel-major chunk ----------------------------

// Frame-major copy: out[t][q] = raw[t][source[q]] (0 for padding, source < 0).
kernel void xpcs_reorder_frame_major(global const DATA_T* raw, global const int* source,
                                     global DATA_T* out, int frames, int rawFrameSize,
                                     int paddedPixels) {
    const int q = get_global_id(0), t = get_global_id(1);
    if (q >= paddedPixels || t >= frames) return;
    const int src = source[q];
    out[(size_t)t * paddedPixels + q] = src < 0 ? (DATA_T)0 : raw[(size_t)t * rawFrameSize + src];
}

#if XPCS_CPU
// Pixel-major copy out[q][t] = raw[t][source[q]] (0 for padding), one work-item per 64 frames
// of XPCS_REORDER_PIXELS pixels, frame by frame: one cache line and page of raw per frame, and
// the pixels' output lines stay cached. Work-group (1, 16); global (framePad / 64 rounded up,
// pixel blocks rounded up to 16).
#define XPCS_REORDER_PIXELS 16
kernel void xpcs_reorder_pixel_major(global const DATA_T* raw, global const int* source,
                                     global DATA_T* out, int frames, int rawFrameSize,
                                     int paddedPixels, int framePad) {
    const int t0 = get_global_id(0) * 64, q0 = get_global_id(1) * XPCS_REORDER_PIXELS;
    const int tEnd = min(t0 + 64, framePad), count = min(XPCS_REORDER_PIXELS, paddedPixels - q0);
    for (int i = 0; i < count; ++i) {
        const int src = source[q0 + i];
        global DATA_T* to = out + (size_t)(q0 + i) * framePad;
        for (int t = t0; t < tEnd; ++t)
            to[t] = (src < 0 || t >= frames) ? (DATA_T)0 : raw[(size_t)t * rawFrameSize + src];
    }
}
#else
#define XPCS_TRANSPOSE 32
// Pixel-major copy through a 32x32 local tile: out[q][t] = raw[t][source[q]], zero for padded
// pixels and frames t >= frames. Work-group (32, 8); global (framePad, paddedPixels / 4).
kernel void xpcs_reorder_pixel_major(global const DATA_T* raw, global const int* source,
                                     global DATA_T* out, int frames, int rawFrameSize,
                                     int paddedPixels, int framePad) {
    local DATA_T tile[XPCS_TRANSPOSE][XPCS_TRANSPOSE + 1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int t0 = get_group_id(0) * XPCS_TRANSPOSE, q0 = get_group_id(1) * XPCS_TRANSPOSE;
    // Read along pixels (gathered but near-contiguous inside a bin).
    for (int j = ly; j < XPCS_TRANSPOSE; j += 8) {
        const int t = t0 + j, q = q0 + lx;
        const int src = (q < paddedPixels && t < frames) ? source[q] : -1;
        tile[j][lx] = src < 0 ? (DATA_T)0 : raw[(size_t)t * rawFrameSize + src];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Write along frames (contiguous).
    for (int j = ly; j < XPCS_TRANSPOSE; j += 8) {
        const int q = q0 + j, t = t0 + lx;
        if (q < paddedPixels && t < framePad) out[(size_t)q * framePad + t] = tile[lx][j];
    }
}
#endif

// ---- shared: frame sums S[bin][t] ------------------------------------------------------

#define XPCS_LANES 8 // work-items sharing one frame (or one lag) in the reductions below

#if XPCS_CPU && LAYOUT == 2
// Pixel-major chunk (frames padded to a multiple of 16): one work-item per (16 frames, bin),
// summing vectors of frames. Work-group (1, 1); global (framePad / 16, binCount).
kernel void xpcs_frame_sums(global const DATA_T* data, global const int* pixels,
                            global const int* offsets, global SUM_T* sums, int frames,
                            int binCount, int stride, int accumulate) {
    const int t0 = get_global_id(0) * 16, bin = get_global_id(1);
    XPCS_CAT(SUM_T, 16) s = 0;
    for (int q = offsets[bin]; q < offsets[bin + 1]; ++q)
        s += XPCS_CAT(convert_, XPCS_CAT(SUM_T, 16))(vload16(0, data + (size_t)q * stride + t0));
    SUM_T values[16];
    vstore16(s, 0, values);
    for (int i = 0; i < 16 && t0 + i < frames; ++i)
        xpcs_store(&sums[(size_t)bin * frames + t0 + i], values[i], accumulate);
}
#elif XPCS_CPU
// One work-item per (frame, bin); work-group (16, 1); global (frames rounded up to 16, binCount).
kernel void xpcs_frame_sums(global const DATA_T* data, global const int* pixels,
                            global const int* offsets, global SUM_T* sums, int frames,
                            int binCount, int stride, int accumulate) {
    const int t = get_global_id(0), bin = get_global_id(1);
    if (t >= frames) return;
    SUM_T s = 0;
    for (int q = offsets[bin]; q < offsets[bin + 1]; ++q) s += xpcs_pixel(data, pixels, stride, t, q);
    xpcs_store(&sums[(size_t)bin * frames + t], s, accumulate);
}
#else
// Work-group (32 frames, XPCS_LANES pixel lanes), one group row per bin; global
// (frames rounded up to 32, XPCS_LANES * binCount). offsets: B+1 offsets of the bins' pixels.
kernel void xpcs_frame_sums(global const DATA_T* data, global const int* pixels,
                            global const int* offsets, global SUM_T* sums, int frames,
                            int binCount, int stride, int accumulate) {
    local SUM_T partial[XPCS_LANES][32];
    const int t = get_global_id(0), lx = get_local_id(0), lane = get_local_id(1);
    const int bin = get_group_id(1);
    SUM_T s = 0;
    if (t < frames)
        for (int q = offsets[bin] + lane; q < offsets[bin + 1]; q += XPCS_LANES)
            s += xpcs_pixel(data, pixels, stride, t, q);
    partial[lane][lx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane != 0 || t >= frames) return;
    for (int l = 1; l < XPCS_LANES; ++l) s += partial[l][lx];
    xpcs_store(&sums[(size_t)bin * frames + t], s, accumulate);
}
#endif

// ---- shared: lag sums -> g2, g2_err ----------------------------------------------------

// N(t1, t2) summed over the gram slots.
inline SUM_T xpcs_gram_at(global const SUM_T* gram, int bin, int binCount, int framePad,
                          int slots, int t1, int t2) {
    SUM_T value = 0;
    for (int slot = 0; slot < slots; ++slot)
        value += gram[xpcs_gram_index(slot, bin, binCount, framePad, t1, t2)];
    return value;
}

// Sum of the XPCS_LANES partial values of column lx (every work-item gets it).
#define XPCS_LANE_SUM(T, name, value)                                                          \
    local T name[XPCS_LANES][32];                                                              \
    name[lane][lx] = (value);                                                                  \
    barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    T name##Total = 0;                                                                         \
    for (int l = 0; l < XPCS_LANES; ++l) name##Total += name[l][lx];

// Work-group (32 lags, XPCS_LANES); global (frames rounded up to 32, XPCS_LANES * binCount).
// Over t = lag..T-1 and the slots, N_t = gram[t][t-lag]: g2 = sum N_t * n / sum S_t S_t-lag,
// g2_err = population std of r_t = n N_t / (S_t S_t-lag) over the pairs with a non-zero
// product, divided by sqrt(count); two passes, like the CPU. Lane l takes t = T-1-l, T-1-l-8,
// ... so the 32 lags of a warp read neighbouring gram entries.
kernel void xpcs_lag_sums(global const SUM_T* gram, global const SUM_T* sums,
                          global const double* pixelCounts, global double* g2,
                          global double* g2Err, int frames, int framePad, int binCount,
                          int slots) {
    const int lag = get_global_id(0), lx = get_local_id(0), lane = get_local_id(1);
    const int bin = get_group_id(1);
    const double n = pixelCounts[bin];
    global const SUM_T* s = sums + (size_t)bin * frames;
    SUM_T numerator = 0;
    double denominator = 0.0, ratioSum = 0.0;
    int count = 0;
    for (int t = frames - 1 - lane; t >= lag; t -= XPCS_LANES) {
        const SUM_T gramValue = xpcs_gram_at(gram, bin, binCount, framePad, slots, t, t - lag);
        const double product = convert_double(s[t]) * convert_double(s[t - lag]);
        numerator += gramValue;
        denominator += product;
        if (product != 0.0) {
            ratioSum += n * convert_double(gramValue) / product;
            ++count;
        }
    }
    XPCS_LANE_SUM(SUM_T, numerators, numerator)
    XPCS_LANE_SUM(double, denominators, denominator)
    XPCS_LANE_SUM(double, ratioSums, ratioSum)
    XPCS_LANE_SUM(int, counts, count)
    const double mean = ratioSumsTotal / countsTotal;
    double squares = 0.0;
    for (int t = frames - 1 - lane; t >= lag && countsTotal > 0; t -= XPCS_LANES) {
        const double product = convert_double(s[t]) * convert_double(s[t - lag]);
        if (product == 0.0) continue;
        const double d = n * convert_double(xpcs_gram_at(gram, bin, binCount, framePad, slots, t, t - lag)) / product - mean;
        squares += d * d;
    }
    XPCS_LANE_SUM(double, squareSums, squares)
    if (lane != 0 || lag >= frames) return;
    const size_t out = (size_t)bin * frames + lag;
    g2[out] = denominatorsTotal == 0.0 ? NAN : convert_double(numeratorsTotal) * n / denominatorsTotal;
    g2Err[out] = (denominatorsTotal == 0.0 || countsTotal == 0)
                     ? NAN : sqrt(squareSumsTotal / countsTotal) / sqrt((double)countsTotal);
}

// ---- variant naive: one work-item per (lag, bin), the seed's first kernel --------------

kernel void xpcs_naive(global const DATA_T* data, global const int* pixels,
                       global const int* offsets, global SUM_T* gram, int frames, int framePad,
                       int binCount, int stride, int accumulate) {
    const int lag = get_global_id(0), bin = get_global_id(1);
    if (lag >= frames || bin >= binCount) return;
    for (int t = lag; t < frames; ++t) {
        SUM_T n = 0;
        for (int q = offsets[bin]; q < offsets[bin + 1]; ++q)
            n += xpcs_pixel(data, pixels, stride, t, q) * xpcs_pixel(data, pixels, stride, t - lag, q);
        xpcs_store(&gram[xpcs_gram_index(0, bin, binCount, framePad, t, t - lag)], n, accumulate);
    }
}

// ---- variant ordered: one work-group per (lag, bin), the seed's second kernel ----------

#ifndef ORDERED_WG
#define ORDERED_WG 128
#endif

// Sum of one value per work-item (ORDERED_WG, a power of two) through local memory.
inline SUM_T xpcs_group_sum(local SUM_T* scratch, SUM_T value) {
    const int tid = get_local_id(0);
    scratch[tid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int width = ORDERED_WG / 2; width > 0; width /= 2) {
        if (tid < width) scratch[tid] += scratch[tid + width];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const SUM_T total = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

// Work-group (ORDERED_WG, 1); global (ORDERED_WG * frames, binCount).
kernel void xpcs_ordered(global const DATA_T* data, global const int* pixels,
                         global const int* offsets, global SUM_T* gram, int frames, int framePad,
                         int binCount, int stride, int accumulate) {
    local SUM_T scratch[ORDERED_WG];
    const int lag = get_group_id(0), bin = get_global_id(1), tid = get_local_id(0);
    if (lag >= frames || bin >= binCount) return; // whole work-groups leave together
    for (int t = lag; t < frames; ++t) {
        SUM_T n = 0;
        for (int q = offsets[bin] + tid; q < offsets[bin + 1]; q += ORDERED_WG)
            n += xpcs_pixel(data, pixels, stride, t, q) * xpcs_pixel(data, pixels, stride, t - lag, q);
        n = xpcs_group_sum(scratch, n);
        if (tid == 0)
            xpcs_store(&gram[xpcs_gram_index(0, bin, binCount, framePad, t, t - lag)], n, accumulate);
    }
}

// ---- variant gemm: register-tiled Gram matrix per bin, lower-triangle tiles only --------
//
// Work-group (GEMM_TILE/GEMM_WPT)^2 computes one GEMM_TILE x GEMM_TILE tile (t1 block >= t2
// block) of one bin's Gram matrix over a range of its pixels (one work-list entry); each
// work-item holds GEMM_WPT x GEMM_WPT sums in registers. The chunk is pixel-major with frames
// padded to framePad and each bin's pixels padded to GEMM_K, so tile loads need no bounds
// checks. uint8 fast paths, both exact: GEMM_DP4A packs 4 pixels per uint and sums their
// products with dp4a (PTX on NVIDIA, GEMM_PTX_DP4A; plain C elsewhere) into uint registers;
// GEMM_FAST_U8 sums in fp32 FMA (256 products <= 255^2 stay below 2^24), then in uint.
// uint sums of 65536 rows of products <= 255^2 stay below 2^32, then go into the 64-bit gram.

#ifndef GEMM_TILE
#define GEMM_TILE 128
#endif
#ifndef GEMM_WPT
#define GEMM_WPT 8
#endif
#ifndef GEMM_K
#define GEMM_K 16
#endif
#ifndef GEMM_FAST_U8
#define GEMM_FAST_U8 0
#endif
#ifndef DATA_UCHAR
#define DATA_UCHAR 0
#endif
#ifndef GEMM_DP4A
#define GEMM_DP4A 0
#endif
#define GEMM_PACKED (GEMM_DP4A && DATA_UCHAR)                // only ever for uint8 data
#define GEMM_FAST (GEMM_FAST_U8 && DATA_UCHAR && !GEMM_PACKED) // likewise
#ifndef GEMM_MAC_DOUBLE
#define GEMM_MAC_DOUBLE 0
#endif
#if GEMM_PACKED
#define MAC_T uint
#elif GEMM_FAST
#define MAC_T float
#elif GEMM_MAC_DOUBLE
#define MAC_T double // uint16: 65536 products of 65535^2 stay below 2^53, exact
#else
#define MAC_T SUM_T
#endif

#define MAC_T4 XPCS_CAT(MAC_T, 4)
#define CONVERT_MAC_T4 XPCS_CAT(convert_, MAC_T4)

// Tile index -> (row tile, column tile) of the lower triangle, row >= column.
inline int2 xpcs_lower_tile(int index) {
    int row = (int)((sqrt(8.0f * index + 1.0f) - 1.0f) * 0.5f);
    while (row * (row + 1) / 2 > index) --row;
    while ((row + 1) * (row + 2) / 2 <= index) ++row;
    return (int2)(row, index - row * (row + 1) / 2);
}

#if XPCS_CPU
// CPU devices: barriers and per-item sum arrays cost more than they save. xpcs_gemm is a one-work-item
// kernel per (GEMM_CPU_TILE x GEMM_CPU_TILE tile, work-list entry) that walks its pixels in
// chunks of GEMM_CPU_CHUNK: it converts the chunk's rows of both frame ranges to MAC_T in local
// memory (cache-resident), sums blocks of 4 x 16 outputs over them in vector registers and
// adds those into gram. GEMM_FAST (fp32) stays exact as a chunk has at most 256 pixels; the
// other MAC_T are exact for any chunk.
#ifndef GEMM_CPU_TILE
#define GEMM_CPU_TILE 64
#endif
#ifndef GEMM_CPU_CHUNK
#define GEMM_CPU_CHUNK 64
#endif
#if (GEMM_CPU_TILE % 16) || (GEMM_CPU_CHUNK < 1) || ((GEMM_FAST || GEMM_PACKED) && GEMM_CPU_CHUNK > 256)
#error "XPCS_CPU gemm needs GEMM_CPU_TILE a multiple of 16 and 1 <= GEMM_CPU_CHUNK <= 256"
#endif
#define MAC_T16 XPCS_CAT(MAC_T, 16)
#define SUM_T16 XPCS_CAT(SUM_T, 16)

// to[q][i] = rows[q][first + i] as MAC_T, for the chunk's `count` pixel rows.
inline void xpcs_gemm_cpu_stage(global const DATA_T* rows, int count, int framePad, int first,
                                local MAC_T* to) {
    for (int q = 0; q < count; ++q)
        for (int i = 0; i < GEMM_CPU_TILE; i += 16)
            vstore16(XPCS_CAT(convert_, MAC_T16)(vload16(0, rows + (size_t)q * framePad + first + i)), 0,
                     to + q * GEMM_CPU_TILE + i);
}

// gram rows t1..t1+3, columns t2..t2+15: store (add = 0) or add the sums over `count` staged
// pixels of rows a[q][r..r+3] and columns b[q][c..c+15].
inline void xpcs_gemm_cpu_block(local const MAC_T* a, local const MAC_T* b, int count, int r,
                                int c, global SUM_T* out, int framePad, int t1, int t2, int add) {
    MAC_T16 acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
    for (int q = 0; q < count; ++q) {
        const MAC_T16 column = vload16(0, b + q * GEMM_CPU_TILE + c);
        const MAC_T4 row = vload4(0, a + q * GEMM_CPU_TILE + r);
        acc0 += row.s0 * column, acc1 += row.s1 * column, acc2 += row.s2 * column, acc3 += row.s3 * column;
    }
    const MAC_T16 acc[4] = {acc0, acc1, acc2, acc3};
    for (int i = 0; i < 4; ++i) {
        global SUM_T* to = out + (size_t)(t1 + i) * framePad + t2;
        const SUM_T16 sum = XPCS_CAT(convert_, SUM_T16)(acc[i]);
        vstore16(add ? vload16(0, to) + sum : sum, 0, to);
    }
}

// Work-group (1, 1); global (tiles, entries). work[e] = (bin, first row, end row, slot).
// 4 x 16 blocks wholly above the diagonal are skipped (never read).
kernel void xpcs_gemm(global const DATA_T* data, global const int4* work, global SUM_T* gram,
                      int framePad, int binCount, int accumulate) {
    local MAC_T staged[2][GEMM_CPU_CHUNK * GEMM_CPU_TILE]; // [rows, columns][pixel][frame]
    const int2 tile = xpcs_lower_tile(get_group_id(0)) * GEMM_CPU_TILE;
    const int4 item = work[get_group_id(1)];
    global SUM_T* out = gram + xpcs_gram_index(item.w, item.x, binCount, framePad, 0, 0);
    int row = item.y;
    do { // at least once: an empty piece stores zeros
        const int count = min(GEMM_CPU_CHUNK, item.z - row), add = accumulate || row > item.y;
        xpcs_gemm_cpu_stage(data + (size_t)row * framePad, count, framePad, tile.x, staged[0]);
        xpcs_gemm_cpu_stage(data + (size_t)row * framePad, count, framePad, tile.y, staged[1]);
        for (int c = 0; c < GEMM_CPU_TILE; c += 16)
            for (int r = 0; r < GEMM_CPU_TILE; r += 4)
                if (tile.x + r + 3 >= tile.y + c)
                    xpcs_gemm_cpu_block(staged[0], staged[1], count, r, c, out, framePad,
                                        tile.x + r, tile.y + c, add);
        row += count;
    } while (row < item.z);
}

#else // GPU devices: work-groups of (GEMM_TILE/GEMM_WPT)^2 work-items

#define GEMM_THREADS (GEMM_TILE / GEMM_WPT)          // work-items per dimension
#define GEMM_GROUPS (GEMM_WPT / 4)                   // 4-vectors per work-item and dimension
#define GEMM_SPAN (GEMM_TILE / GEMM_GROUPS)          // distance between a work-item's vectors
#define GEMM_STRIDE (GEMM_THREADS * GEMM_THREADS * 4) // elements loaded per group and pass
#ifndef GEMM_GLOBAL_ROWS
#define GEMM_GLOBAL_ROWS 65536 // rows between flushes to gram (uint8: 65536 * 255^2 < 2^32)
#endif
#if GEMM_FAST
#define GEMM_FLUSH_ROWS 256                          // rows between fp32 -> uint flushes
#else
#define GEMM_FLUSH_ROWS GEMM_GLOBAL_ROWS
#endif
#if (GEMM_WPT % 4) || ((GEMM_TILE * GEMM_K) % GEMM_STRIDE) || (GEMM_FLUSH_ROWS % GEMM_K) || (GEMM_GLOBAL_ROWS % GEMM_FLUSH_ROWS)
#error "GEMM_WPT must be a multiple of 4 and GEMM_TILE*GEMM_K of 4*(GEMM_TILE/GEMM_WPT)^2"
#endif


#if GEMM_PACKED
// Local tiles hold uints of 4 pixels (rows 4k..4k+3) of one frame: [GEMM_K / 4][GEMM_TILE].
#define GEMM_KSTEPS (GEMM_K / 4)
#define GEMM_QUADS (GEMM_KSTEPS * GEMM_TILE / 4)              // 4x4 byte blocks per operand
#define GEMM_PASSES (2 * GEMM_QUADS / (GEMM_THREADS * GEMM_THREADS)) // blocks per work-item
#define GEMM_REGS (4 * GEMM_PASSES)
#define LOCAL_T uint
#define LOCAL_T4 uint4
typedef uchar4 gemm_reg_t;
#if (GEMM_K % 4) || ((2 * GEMM_QUADS) % (GEMM_THREADS * GEMM_THREADS))
#error "GEMM_DP4A needs GEMM_K a multiple of 4 and 2*GEMM_K*GEMM_TILE/16 a multiple of the group size"
#endif

// sum of the 4 byte products of a and b, plus c.
inline uint xpcs_dot4(uint a, uint b, uint c) {
#if defined(GEMM_PTX_DP4A) && GEMM_PTX_DP4A
    uint r;
    asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    const uint4 x = convert_uint4(as_uchar4(a)), y = convert_uint4(as_uchar4(b));
    return c + x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2 + x.s3 * y.s3;
#endif
}
#define GEMM_MAC(sum, x, y) sum = xpcs_dot4(x, y, sum)

// Block e < GEMM_QUADS is of A, the rest of B: 4 rows x 4 frames of bytes.
inline void xpcs_gemm_fetch(global const DATA_T* rows, int2 tile, int framePad, int lid, gemm_reg_t* regs) {
#pragma unroll
    for (int p = 0; p < GEMM_PASSES; ++p) {
        const int e = lid + p * GEMM_THREADS * GEMM_THREADS, operand = e / GEMM_QUADS, quad = e % GEMM_QUADS;
        const int k4 = quad / (GEMM_TILE / 4), t4 = quad % (GEMM_TILE / 4);
        global const DATA_T* from = rows + (size_t)(4 * k4) * framePad + (operand ? tile.y : tile.x) + 4 * t4;
#pragma unroll
        for (int r = 0; r < 4; ++r) regs[4 * p + r] = vload4(0, from + (size_t)r * framePad);
    }
}

// Transpose each 4x4 byte block into 4 uints (one per frame) in the local tiles.
inline void xpcs_gemm_stash(local LOCAL_T* tileA, local LOCAL_T* tileB, int lid, const gemm_reg_t* regs) {
#pragma unroll
    for (int p = 0; p < GEMM_PASSES; ++p) {
        const int e = lid + p * GEMM_THREADS * GEMM_THREADS, quad = e % GEMM_QUADS;
        local LOCAL_T* to = (e / GEMM_QUADS ? tileB : tileA) + quad * 4;
        const uchar4 r0 = regs[4 * p], r1 = regs[4 * p + 1], r2 = regs[4 * p + 2], r3 = regs[4 * p + 3];
        vstore4((uint4)(as_uint((uchar4)(r0.s0, r1.s0, r2.s0, r3.s0)), as_uint((uchar4)(r0.s1, r1.s1, r2.s1, r3.s1)),
                        as_uint((uchar4)(r0.s2, r1.s2, r2.s2, r3.s2)), as_uint((uchar4)(r0.s3, r1.s3, r2.s3, r3.s3))),
                0, to);
    }
}

#else
#define GEMM_KSTEPS GEMM_K
#define GEMM_PASSES (GEMM_TILE * GEMM_K / GEMM_STRIDE) // 4-vector loads per item and operand
#define GEMM_REGS (2 * GEMM_PASSES)
#define LOCAL_T MAC_T
#define LOCAL_T4 MAC_T4
typedef XPCS_CAT(DATA_T, 4) gemm_reg_t;
#define GEMM_MAC(sum, x, y) sum += (x) * (y)

// Start loading GEMM_K pixel rows of both operands' GEMM_TILE frames into registers.
inline void xpcs_gemm_fetch(global const DATA_T* rows, int2 tile, int framePad, int lid, gemm_reg_t* regs) {
#pragma unroll
    for (int p = 0; p < GEMM_REGS; ++p) {
        const int e = lid * 4 + (p % GEMM_PASSES) * GEMM_STRIDE;
        regs[p] = vload4(0, rows + (size_t)(e / GEMM_TILE) * framePad + (p < GEMM_PASSES ? tile.x : tile.y) + e % GEMM_TILE);
    }
}

// Store fetched rows into the local tiles [GEMM_K][GEMM_TILE], converted to MAC_T.
inline void xpcs_gemm_stash(local LOCAL_T* tileA, local LOCAL_T* tileB, int lid, const gemm_reg_t* regs) {
#pragma unroll
    for (int p = 0; p < GEMM_REGS; ++p)
        vstore4(CONVERT_MAC_T4(regs[p]), 0, (p < GEMM_PASSES ? tileA : tileB) + lid * 4 + (p % GEMM_PASSES) * GEMM_STRIDE);
}
#endif

// Read a work-item's GEMM_WPT values of one local row (4-vectors GEMM_SPAN apart).
inline void xpcs_gemm_fragment(local const LOCAL_T* row, int lane, LOCAL_T* out) {
#pragma unroll
    for (int g = 0; g < GEMM_GROUPS; ++g) {
        const LOCAL_T4 v = vload4(0, row + g * GEMM_SPAN + lane * 4);
        out[4 * g] = v.s0, out[4 * g + 1] = v.s1, out[4 * g + 2] = v.s2, out[4 * g + 3] = v.s3;
    }
}

// Frame of a work-item's i-th output along one dimension of the tile.
#define GEMM_FRAME(tileStart, lane, i) ((tileStart) + ((i) / 4) * GEMM_SPAN + (lane) * 4 + (i) % 4)

#define GEMM_FOR_OUTPUTS                                                                        \
    _Pragma("unroll") for (int i = 0; i < GEMM_WPT; ++i) _Pragma("unroll") for (int j = 0; j < GEMM_WPT; ++j)

#if GEMM_FAST
#define GEMM_RESULT exact
#else
#define GEMM_RESULT acc
#endif

// Store or add the work-item's sums into gram[slot][bin][t1][t2] and clear them.
#define GEMM_FLUSH_TO_GRAM()                                                                    \
    GEMM_FOR_OUTPUTS {                                                                          \
        xpcs_store(&gram[xpcs_gram_index(item.w, item.x, binCount, framePad,                    \
                                         GEMM_FRAME(tile.x, ly, i), GEMM_FRAME(tile.y, lx, j))], \
                   (SUM_T)GEMM_RESULT[i][j], add);                                              \
        GEMM_RESULT[i][j] = 0;                                                                  \
    }                                                                                           \
    add = 1

// Work-group (GEMM_THREADS, GEMM_THREADS); global (tiles * GEMM_THREADS, entries * GEMM_THREADS).
// work[e] = (bin, first row, end row, slot), rows counted in the padded chunk. Pipelined: the
// next rows load into registers while the current local tiles (double-buffered) are used.
kernel void xpcs_gemm(global const DATA_T* data, global const int4* work, global SUM_T* gram,
                      int framePad, int binCount, int accumulate) {
    local LOCAL_T tiles[2][2][GEMM_KSTEPS * GEMM_TILE]; // [buffer][A, B]
    const int2 tile = xpcs_lower_tile(get_group_id(0)) * GEMM_TILE;
    const int4 item = work[get_group_id(1)];
    const int lx = get_local_id(0), ly = get_local_id(1), lid = ly * GEMM_THREADS + lx;
    MAC_T acc[GEMM_WPT][GEMM_WPT];
    LOCAL_T a[GEMM_WPT], b[GEMM_WPT];
#if GEMM_FAST
    uint exact[GEMM_WPT][GEMM_WPT];
    GEMM_FOR_OUTPUTS exact[i][j] = 0;
#endif
    GEMM_FOR_OUTPUTS acc[i][j] = 0;
    gemm_reg_t next[GEMM_REGS];
    int add = accumulate, buffer = 0;
    if (item.y < item.z) {
        xpcs_gemm_fetch(data + (size_t)item.y * framePad, tile, framePad, lid, next);
        xpcs_gemm_stash(tiles[0][0], tiles[0][1], lid, next);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int row = item.y; row < item.z; row += GEMM_K) {
        const int following = row + GEMM_K;
        if (following < item.z) xpcs_gemm_fetch(data + (size_t)following * framePad, tile, framePad, lid, next);
#pragma unroll
        for (int k = 0; k < GEMM_KSTEPS; ++k) {
            xpcs_gemm_fragment(tiles[buffer][0] + k * GEMM_TILE, ly, a);
            xpcs_gemm_fragment(tiles[buffer][1] + k * GEMM_TILE, lx, b);
            GEMM_FOR_OUTPUTS GEMM_MAC(acc[i][j], a[i], b[j]);
        }
        if (following < item.z) xpcs_gemm_stash(tiles[buffer ^ 1][0], tiles[buffer ^ 1][1], lid, next);
        barrier(CLK_LOCAL_MEM_FENCE);
        buffer ^= 1;
        const int done = following - item.y;
#if GEMM_FAST
        if (done % GEMM_FLUSH_ROWS == 0 || following >= item.z) GEMM_FOR_OUTPUTS {
                exact[i][j] += convert_uint(acc[i][j]);
                acc[i][j] = 0;
            }
#endif
        if (done % GEMM_GLOBAL_ROWS == 0 && following < item.z) {
            GEMM_FLUSH_TO_GRAM();
        }
    }
    GEMM_FLUSH_TO_GRAM(); // also stores the zeros of an empty piece
}
#endif // XPCS_CPU
