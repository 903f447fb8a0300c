// xpcs gemm on GPU devices (XPCS_CPU = 0); macros and the CPU kernel in xpcs_gemm.cl.
#if !XPCS_CPU

#define GEMM_THREADS (GEMM_TILE / GEMM_WPT)          // work-items per dimension
#define GEMM_GROUPS (GEMM_WPT / 4)                   // 4-vectors per work-item and dimension
#define GEMM_SPAN (GEMM_TILE / GEMM_GROUPS)          // distance between a work-item's vectors
#define GEMM_STRIDE (GEMM_THREADS * GEMM_THREADS * 4) // elements loaded per group and pass
// GEMM_GLOBAL_ROWS: rows between flushes to gram (uint8: 65536 * 255^2 < 2^32)
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
#if GEMM_PTX_DP4A
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
