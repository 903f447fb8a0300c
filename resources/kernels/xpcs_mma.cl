// ---- variant mma: uint8 Gram tiles on the tensor cores (after xpcs_lags.cl) --------------
//
// Program xpcs_mma (gpu/xpcs/recipes.cpp). Chunk layout 1
// (frame-major): row t holds the chunk's pixels, each bin's pixels padded to MMA_KB, so the
// Gram matrix of a bin is A A^T with A = (frames x pixels) uint8, K = pixels.
//
// Work-group: 4 warps of 32 work-items over one MMA_TILE x MMA_TILE tile (t1 block >= t2 block)
// of one bin's Gram matrix and one work-list entry (bin, first pixel, end pixel, slot); warp w
// takes rows 32 (w / 2) .. +32 and columns 32 (w % 2) .. +32 of the tile as 2 x 4 fragments of
// mma.sync.m16n8k32 (u8 x u8 -> s32). Per iteration each work-item loads 16 pixels (one uint4)
// of each of its 4 A rows and 4 B rows; the 64 pixels of a row are two k32 steps. The sum
// over pixels does not care which pixel goes to which k slot as long as A and B agree, so
// lane (g, q) puts pixels 16q .. 16q+3 in k 4q..4q+3 and 16q+4 .. 16q+7 in k 16+4q..
// of the first step (the rest in the second), matching the fragment layout of the PTX ISA.
//
// Exact: an s32 accumulator gains at most 255^2 * 32 = 2 080 800 per step, so after at most
// MMA_FLUSH_STEPS <= 1032 steps (< 2^31) the partial sums are added into the gram (the host
// checks the bound) and restart from 0. The gram is 64-bit, or 32-bit (GRAM_T uint, MMA_GRAM32)
// where the host found every bin's entries below 2^32: sums modulo 2^32 are then exact.
//
// MMA_EMULATE = 1: the same tiles, fragments, steps and flush points with each mma computed in
// plain C from the warp's fragments exchanged through local memory (PoCL in CI); the
// accumulators then wrap at 2^MMA_EMU_BITS (a test lowers it to reach the flush bound with
// few pixels).

// Warps of a work-group along rows (MMA_WM) and columns (MMA_WN); A fragments (16 rows) and
// B fragments (8 columns) per warp.
#define MMA_TILE (MMA_WM * 16 * MMA_MI) // frames per side of a work-group tile
#define MMA_KB 64                       // pixels per iteration (two k32 steps)
#define MMA_WARPS (MMA_WM * MMA_WN)
#define MMA_THREADS (32 * MMA_WARPS)
// MMA_STAGE = 1: the work-group copies each 64 pixels of its tile's A and B rows into local
// memory once (coalesced, double-buffered: the next block's global loads run during this
// block's mma steps) and its warps read their fragments from there, so a tile of several warps
// reads each row from L2 once instead of once per warp. The same fragments reach the same
// mma steps as without it. Off by default: on the H200's large case the staged Gram kernel took
// 2.89 ms (warps 2 x 2 of 4 x 8 fragments), 3.49-4.78 ms in other shapes, against 2.04 ms for
// one warp of 4 x 8 fragments reading global memory (tiles are not bound by L2 reads there).
#define MMA_STAGE_ROWS (2 * MMA_TILE)                      // A rows, then B rows
#define MMA_STAGE_LOADS (MMA_STAGE_ROWS * 4 / MMA_THREADS) // uint4 per work-item per block
#if MMA_STAGE && MMA_STAGE_LOADS * MMA_THREADS != MMA_STAGE_ROWS * 4
#error "xpcs mma: MMA_STAGE needs 4 * MMA_MI to be a multiple of MMA_WN"
#endif
#if MMA_TILE != MMA_WN * 8 * MMA_NJ
#error "xpcs mma: the tile must be square (MMA_WM * 16 * MMA_MI == MMA_WN * 8 * MMA_NJ)"
#endif

#if MMA_EMULATE
// Fragments of one k32 step of every warp of the group: a[warp][lane][i][reg], b[...][j][reg].
typedef struct {
    uint a[MMA_WARPS][32][MMA_MI][4];
    uint b[MMA_WARPS][32][MMA_NJ][2];
} xpcs_mma_share;

inline uint xpcs_mma_dot4(uint x, uint y) {
    const uint4 u = convert_uint4(as_uchar4(x)), v = convert_uint4(as_uchar4(y));
    return u.s0 * v.s0 + u.s1 * v.s1 + u.s2 * v.s2 + u.s3 * v.s3;
}

// acc[i][j][c] += A_i B_j for lane (g, q) of warp w, as mma.sync m16n8k32 row.col would:
// c = 0, 1 -> row g, columns 2q, 2q+1; c = 2, 3 -> row g + 8.
inline void xpcs_mma_emulate(local xpcs_mma_share* share, int w, int lane, uint a[MMA_MI][4],
                             uint b[MMA_NJ][2], uint acc[MMA_MI][MMA_NJ][4]) {
    for (int i = 0; i < MMA_MI; ++i)
        for (int r = 0; r < 4; ++r)
            share->a[w][lane][i][r] = a[i][r];
    for (int j = 0; j < MMA_NJ; ++j)
        for (int r = 0; r < 2; ++r)
            share->b[w][lane][j][r] = b[j][r];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int g = lane / 4, q = lane % 4;
    for (int i = 0; i < MMA_MI; ++i)
        for (int j = 0; j < MMA_NJ; ++j)
            for (int c = 0; c < 4; ++c) {
                const int n = 2 * q + (c & 1), h = c >> 1;
                uint sum = acc[i][j][c];
                for (int kq = 0; kq < 8; ++kq) // k = 4 kq .. 4 kq + 3
                    sum += xpcs_mma_dot4(share->a[w][g * 4 + kq % 4][i][h + 2 * (kq / 4)],
                                         share->b[w][n * 4 + kq % 4][j][kq / 4]);
#if MMA_EMU_BITS < 32
                sum &= (1u << MMA_EMU_BITS) - 1u;
#endif
                acc[i][j][c] = sum;
            }
    barrier(CLK_LOCAL_MEM_FENCE);
}
#define XPCS_MMA_STEP(a, b, acc) xpcs_mma_emulate(share, warp, lane, a, b, acc)

#else
inline void xpcs_mma_one(uint d[4], uint a0, uint a1, uint a2, uint a3, uint b0, uint b1) {
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
#define XPCS_MMA_STEP(a, b, acc)                                                                   \
    _Pragma("unroll") for (int i = 0; i < MMA_MI; ++i)                                             \
        _Pragma("unroll") for (int j = 0; j < MMA_NJ; ++j)                                         \
            xpcs_mma_one(acc[i][j], a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1])
#endif

// Add (or store, add = 0) the warp's partial sums into gram and clear them.
inline void xpcs_mma_flush(global GRAM_T* gram, int4 item, int binCount, int framePad, int t1,
                           int t2, uint acc[MMA_MI][MMA_NJ][4], int add) {
#pragma unroll
    for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
        for (int j = 0; j < MMA_NJ; ++j)
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                const int r = t1 + 16 * i + (c >> 1) * 8, col = t2 + 8 * j + (c & 1);
                xpcs_gram_store(
                    &gram[xpcs_gram_index(item.w, item.x, binCount, framePad, r, col)],
                    (GRAM_T)acc[i][j][c], add);
                acc[i][j][c] = 0;
            }
}

// 16 pixels from pixel k on of each of the work-item's 2 MMA_MI A rows and MMA_NJ B rows.
#define XPCS_MMA_LOAD(la, lb, k)                                                                   \
    _Pragma("unroll") for (int r = 0; r < 2 * MMA_MI; ++r) la[r] =                                 \
        *(global const uint4*)(rowsA[r] + (k));                                                    \
    _Pragma("unroll") for (int r = 0; r < MMA_NJ; ++r) lb[r] =                                     \
        *(global const uint4*)(rowsB[r] + (k))

// The two k32 steps of 64 pixels held in la and lb (step s: words 2s, 2s+1 of each load),
// the partial sums flushed every MMA_FLUSH_STEPS steps (never reached under MMA_FUSE).
#define XPCS_MMA_STEPS(la, lb)                                                                     \
    _Pragma("unroll") for (int s = 0; s < 2; ++s) {                                                \
        uint a[MMA_MI][4], b[MMA_NJ][2];                                                           \
        _Pragma("unroll") for (int i = 0; i < MMA_MI; ++i) {                                       \
            const uint4 x = la[2 * i], y = la[2 * i + 1]; /* rows g and g + 8 */                   \
            a[i][0] = s ? x.s2 : x.s0, a[i][1] = s ? y.s2 : y.s0;                                  \
            a[i][2] = s ? x.s3 : x.s1, a[i][3] = s ? y.s3 : y.s1;                                  \
        }                                                                                          \
        _Pragma("unroll") for (int j = 0; j < MMA_NJ; ++j) b[j][0] = s ? lb[j].s2 : lb[j].s0,      \
                                                           b[j][1] = s ? lb[j].s3 : lb[j].s1;      \
        XPCS_MMA_STEP(a, b, acc);                                                                  \
        if (!MMA_FUSE && ++steps == MMA_FLUSH_STEPS) {                                             \
            xpcs_mma_flush(gram, item, binCount, framePad, t1 + g, t2 + 2 * q, acc, add);          \
            add = 1, steps = 0;                                                                    \
        }                                                                                          \
    }

// Global (lower tiles * MMA_THREADS, work entries); work-group (MMA_THREADS, 1). Rows of
// frames >= `frames` read the last frame (their sums land in gram cells nobody reads).
#if MMA_FUSE                   // xpcs_mma_lags.cl
#define MMA_LDS (MMA_TILE + 1) // row stride of the local tile: diagonals hit distinct banks
void xpcs_mma_fused_end(local const uint* tile, local ulong* s, int2 origin, int bin,
                        global const ulong* sums, global const long* pixelCounts,
                        global ulong* partials, int frames);

// The warp's fragments into the local tile; (r0, c0): the lane's first row and column in it.
inline void xpcs_mma_to_local(local uint* tile, int r0, int c0, uint acc[MMA_MI][MMA_NJ][4]) {
#pragma unroll
    for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
        for (int j = 0; j < MMA_NJ; ++j)
#pragma unroll
            for (int c = 0; c < 4; ++c)
                tile[(r0 + 16 * i + (c >> 1) * 8) * MMA_LDS + c0 + 8 * j + (c & 1)] = acc[i][j][c];
}
#endif

#if MMA_STAGE
// The work-item's share of the block of pixels from k of the tile's rows: global -> registers.
#define XPCS_MMA_STAGE_FETCH(next, k)                                                              \
    _Pragma("unroll") for (int l = 0; l < MMA_STAGE_LOADS; ++l) next[l] =                          \
        *(global const uint4*)(from[l] + (k))
// Registers -> local block `buf` (row-major, 64 bytes a row: the fragment reads below, 8 rows
// x 4 uint4 a quarter-warp, hit 32 distinct banks).
#define XPCS_MMA_STAGE_STORE(next, buf)                                                            \
    _Pragma("unroll") for (int l = 0; l < MMA_STAGE_LOADS; ++l)                                    \
        stage[buf][lid + MMA_THREADS * l] = next[l]
// The warp's 16 pixels of its A and B rows from local block `buf`, as XPCS_MMA_LOAD reads them.
#define XPCS_MMA_STAGE_READ(la, lb, buf)                                                           \
    _Pragma("unroll") for (int r = 0; r < 2 * MMA_MI; ++r) la[r] =                                 \
        stage[buf][(t1 - tile.x + 8 * r + g) * 4 + q];                                             \
    _Pragma("unroll") for (int r = 0; r < MMA_NJ; ++r) lb[r] =                                     \
        stage[buf][(MMA_TILE + t2 - tile.y + 8 * r + g) * 4 + q]
#endif

// MMA_FUSE: sums, pixelCounts and partials are read and written instead of gram (unused then).
kernel void xpcs_mma(global const uchar* data, global const int4* work, global GRAM_T* gram,
                     global const ulong* sums, global const long* pixelCounts,
                     global ulong* partials, int frames, int framePad, int stride, int binCount,
                     int accumulate) {
#if MMA_EMULATE
    local xpcs_mma_share shared;
    local xpcs_mma_share* share = &shared;
#endif
#if MMA_FUSE
    local uint fusedTile[MMA_TILE * (MMA_TILE + 1)];
    local ulong fusedSums[2 * MMA_TILE];
#endif
    const int2 tile = xpcs_lower_tile(get_group_id(0)) * MMA_TILE;
    const int4 item = work[get_group_id(1)];
    const int lid = get_local_id(0), warp = lid / 32, lane = lid % 32, g = lane / 4, q = lane % 4;
    const int t1 = tile.x + 16 * MMA_MI * (warp / MMA_WN),
              t2 = tile.y + 8 * MMA_NJ * (warp % MMA_WN);
    uint acc[MMA_MI][MMA_NJ][4];
#pragma unroll
    for (int i = 0; i < MMA_MI; ++i)
#pragma unroll
        for (int j = 0; j < MMA_NJ; ++j)
#pragma unroll
            for (int c = 0; c < 4; ++c)
                acc[i][j][c] = 0;
    int add = accumulate, steps = 0;
#if MMA_STAGE
    local uint4 stage[2][MMA_STAGE_ROWS * 4];
    global const uchar* from[MMA_STAGE_LOADS];
#pragma unroll
    for (int l = 0; l < MMA_STAGE_LOADS; ++l) { // element e: row e / 4, 16 bytes e % 4
        const int e = lid + MMA_THREADS * l, row = e / 4;
        const int t = row < MMA_TILE ? tile.x + row : tile.y + row - MMA_TILE;
        from[l] = data + (size_t)min(t, frames - 1) * stride + 16 * (e % 4);
    }
    uint4 next[MMA_STAGE_LOADS];
    if (item.y < item.z) {
        XPCS_MMA_STAGE_FETCH(next, item.y);
        XPCS_MMA_STAGE_STORE(next, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = item.y, buf = 0; k < item.z; k += MMA_KB, buf ^= 1) {
        const int more = k + MMA_KB < item.z;
        if (more) XPCS_MMA_STAGE_FETCH(next, k + MMA_KB);
        uint4 la[2 * MMA_MI], lb[MMA_NJ];
        XPCS_MMA_STAGE_READ(la, lb, buf);
        XPCS_MMA_STEPS(la, lb);
        if (more) XPCS_MMA_STAGE_STORE(next, buf ^ 1);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#else
    global const uchar* rowsA[2 * MMA_MI];
    global const uchar* rowsB[MMA_NJ];
#pragma unroll
    for (int r = 0; r < 2 * MMA_MI; ++r) // A rows t1 + 8r + g (fragment r / 2, half r % 2)
        rowsA[r] = data + (size_t)min(t1 + 8 * r + g, frames - 1) * stride + 16 * q;
#pragma unroll
    for (int r = 0; r < MMA_NJ; ++r)
        rowsB[r] = data + (size_t)min(t2 + 8 * r + g, frames - 1) * stride + 16 * q;
#if MMA_PREFETCH
    uint4 na[2 * MMA_MI], nb[MMA_NJ]; // the next iteration's pixels, loaded during this one's
    if (item.y < item.z) XPCS_MMA_LOAD(na, nb, item.y);
#endif
    for (int k = item.y; k < item.z; k += MMA_KB) {
        uint4 la[2 * MMA_MI], lb[MMA_NJ];
#if MMA_PREFETCH
#pragma unroll
        for (int r = 0; r < 2 * MMA_MI; ++r)
            la[r] = na[r];
#pragma unroll
        for (int r = 0; r < MMA_NJ; ++r)
            lb[r] = nb[r];
        if (k + MMA_KB < item.z) XPCS_MMA_LOAD(na, nb, k + MMA_KB);
#else
        XPCS_MMA_LOAD(la, lb, k);
#endif
        XPCS_MMA_STEPS(la, lb);
    }
#endif
#if MMA_FUSE
    xpcs_mma_to_local(fusedTile, t1 - tile.x + g, t2 - tile.y + 2 * q, acc);
    xpcs_mma_fused_end(fusedTile, fusedSums, tile, item.x, sums, pixelCounts, partials, frames);
#else
    if (steps > 0 || add == accumulate) // also stores the zeros of an empty piece
        xpcs_mma_flush(gram, item, binCount, framePad, t1 + g, t2 + 2 * q, acc, add);
#endif
}

// Raw frames [tBegin, tEnd) (raw starts at frame tBegin) -> rows tBegin..tEnd-1 of the
// frame-major chunk and their frame sums S[bin][t], in one pass (the shared reorder and
// frame-sum kernels take a byte per work-item and read the chunk again). Work-group
// (MMA_PREP_WG) per (MMA_PREP_FRAMES frames, bin), over the bin's pixels MMA_PREP_SPAN at a
// time: the gather reads pixel q + lid + MMA_PREP_WG i (neighbouring work-items, neighbouring
// source pixels) into local memory, then each work-item writes 16 of them as one uint4 per
// frame and sums them; global (MMA_PREP_WG * frame blocks, binCount). On the H200's large
// case: 0.73 ms with 2 frames per group, 0.77 with 1, 1.19-1.31 with 4, 1.53-1.57 with 8, 2.46
// with 16; the grid with the bins first (groups running at once on the same frames) 0.82 ms
// with 2. Each work-item gathering its own 16 pixels (before) took 1.20 ms at 4 frames, as this
// one does at 4 (it was not measured at 2); a work-item per pixel and 8 frames writing bytes
// 1.95 ms.
#define MMA_PREP_SPAN (16 * MMA_PREP_WG)

// Sum of the 16 bytes of v.
inline uint xpcs_mma_byte_sum(uint4 v) {
    const uint4 pairs = (v & 0x00ff00ffu) + ((v >> 8) & 0x00ff00ffu); // 16-bit halves <= 510
    const uint halves = pairs.s0 + pairs.s1 + pairs.s2 + pairs.s3;    // halves <= 2040
    return (halves & 0xffffu) + (halves >> 16);
}

kernel void xpcs_mma_prepare(global const uchar* raw, global const int* source,
                             global const int* offsets, global uchar* out, global ulong* sums,
                             int frames, int rawFrameSize, int stride, int accumulate, int tBegin,
                             int tEnd) {
    local uint4 staged[MMA_PREP_FRAMES][MMA_PREP_WG]; // MMA_PREP_SPAN bytes per frame
    local ulong partial[MMA_PREP_FRAMES][MMA_PREP_WG];
    const int lid = get_local_id(0), t0 = tBegin + get_group_id(0) * MMA_PREP_FRAMES;
    const int bin = get_group_id(1), end = offsets[bin + 1];
    global const uchar* rows[MMA_PREP_FRAMES]; // rows past the last frame: read, not written
    ulong s[MMA_PREP_FRAMES];
#pragma unroll
    for (int f = 0; f < MMA_PREP_FRAMES; ++f)
        rows[f] = raw + (size_t)(min(t0 + f, tEnd - 1) - tBegin) * rawFrameSize, s[f] = 0;
    for (int base = offsets[bin]; base < end; base += MMA_PREP_SPAN) {
#pragma unroll 4
        for (int i = 0; i < 16; ++i) {
            const int q = base + MMA_PREP_WG * i + lid, from = q < end ? source[q] : -1;
#pragma unroll
            for (int f = 0; f < MMA_PREP_FRAMES; ++f)
                ((local uchar*)staged[f])[MMA_PREP_WG * i + lid] = from < 0 ? 0 : rows[f][from];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int q = base + 16 * lid;
#pragma unroll
        for (int f = 0; f < MMA_PREP_FRAMES; ++f)
            if (q < end && t0 + f < tEnd) {
                const uint4 v = staged[f][lid];
                *(global uint4*)(out + (size_t)(t0 + f) * stride + q) = v;
                s[f] += xpcs_mma_byte_sum(v);
            }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int f = 0; f < MMA_PREP_FRAMES; ++f)
        partial[f][lid] = s[f];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= MMA_PREP_FRAMES || t0 + lid >= tEnd) return;
    ulong total = 0;
    for (int i = 0; i < MMA_PREP_WG; ++i)
        total += partial[lid][i];
    xpcs_store(&sums[(size_t)bin * frames + t0 + lid], total, accumulate);
}
