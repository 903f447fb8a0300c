// xpcs: dense intensity autocorrelation per q bin (DESIGN.md §5). xpcs_common.cl (layouts,
// reorder, frame sums) starts every xpcs program; the programs are declared in
// gpu/xpcs/recipes.cpp: xpcs_seed (+ xpcs_seed.cl: naive, ordered), xpcs_gemm (+ xpcs_gemm.cl,
// xpcs_gemm_gpu.cl), xpcs_mma (+ xpcs_lags.cl, xpcs_mma.cl, xpcs_mma_lags.cl, xpcs_wgmma.cl)
// and xpcs_lag_sums (+ xpcs_lags.cl: g2, g2_err). The host passes every macro below (no
// defaults here).
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
//   GRAM_T   element type of the Gram matrices: SUM_T, or uint where the host has found every
//            entry below 2^32 (mma on uint8 frames, MMA_GRAM32; gpu/xpcs/mma.cpp)
//   SUM_FLOAT 1 for float data (g2 in double), else g2 from exact 128-bit sums
//   LAYOUT   how a chunk is stored: 0 raw frames (pixel index list), 1 frame-major
//            (pixels of a bin contiguous inside each frame), 2 pixel-major (frames contiguous)
//   DATA_UCHAR 1 for uint8 data (allows gemm's fp32 fast path, GEMM_FAST_U8)
//   XPCS_CPU 1 on CPU devices (PoCL): kernels without local-memory tiles and barriers where
//            those cost more than they save (a work-group there is a loop over its items)
// Values of DATA_T are converted, never reinterpreted: uchar stays 0..255 (the seed's
// `char` read made values above 127 negative).

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

// Tile index (gemm, mma) -> (row tile, column tile) of the lower triangle, row >= column.
inline int2 xpcs_lower_tile(int index) {
    int row = (int)((sqrt(8.0f * index + 1.0f) - 1.0f) * 0.5f);
    while (row * (row + 1) / 2 > index) --row;
    while ((row + 1) * (row + 2) / 2 <= index) ++row;
    return (int2)(row, index - row * (row + 1) / 2);
}

// Store or add one sum into a global accumulator.
inline void xpcs_store(global SUM_T* where, SUM_T value, int accumulate) {
    *where = accumulate ? *where + value : value;
}

// Store or add one Gram entry (GRAM_T; uint wraps modulo 2^32, exact where the host set it).
inline void xpcs_gram_store(global GRAM_T* where, GRAM_T value, int accumulate) {
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

