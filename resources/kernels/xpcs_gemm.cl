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

#define GEMM_PACKED (GEMM_DP4A && DATA_UCHAR)                // only ever for uint8 data
#define GEMM_FAST (GEMM_FAST_U8 && DATA_UCHAR && !GEMM_PACKED) // likewise
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

#if XPCS_CPU
// CPU devices: barriers and per-item sum arrays cost more than they save. xpcs_gemm is a one-work-item
// kernel per (GEMM_CPU_TILE x GEMM_CPU_TILE tile, work-list entry) that walks its pixels in
// chunks of GEMM_CPU_CHUNK: it converts the chunk's rows of both frame ranges to MAC_T in local
// memory (cache-resident), sums blocks of 4 x 16 outputs over them in vector registers and
// adds those into gram. GEMM_FAST (fp32) stays exact as a chunk has at most 256 pixels; the
// other MAC_T are exact for any chunk.
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

#endif // XPCS_CPU
