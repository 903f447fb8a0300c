// ---- variant mma, MMA_WGMMA = 1: Gram tiles by warpgroup MMA (after xpcs_mma.cl) ----------
//
// Hopper's wgmma (sm_90a) in place of mma.sync: a work-group of MMA_WG_GROUPS warpgroups (1 on
// Hopper by default, 128 work-items; or 2) takes one 128 x 128 lower tile of a bin's Gram
// matrix; its accumulators (two of the one warpgroup, or one each) compute rows 64 h .. +64
// against the tile's 128 columns with wgmma.mma_async m64n128k32 u8 x u8 -> s32, both operands
// read by the tensor cores from local memory. The work-group copies each block of MMA_WG_KB
// pixels (32 or 64) of the tile's 128 A rows and 128 B rows into a ring of MMA_WG_STAGES local
// buffers with cp.async, one barrier a block; a warpgroup leaves MMA_WG_INFLIGHT (0 or 1) of its
// wgmma groups running across the barrier, so the copies run MMA_WG_STAGES - 1 - MMA_WG_INFLIGHT
// blocks ahead (a buffer is refilled once no wgmma reads it).
//
// Local layout of a block (MMA_WG_SWIZZLE 1, the default: the K-major layout with the 32- or
// 64-byte swizzle of the PTX ISA): the block's rows of MMA_WG_KB bytes one after the other, the
// 128 B rows after the 128 A rows, each row's 16-byte pieces permuted by bits of the row number
// so that the tensor cores read 8 rows at once from distinct banks; the ring starts at a multiple
// of 1024 bytes (the swizzle works on address bits). MMA_WG_SWIZZLE 0: core matrices of 8 rows x
// 16 bytes (128 contiguous bytes each), the layout without swizzle, which measured slower.
// A warp's 16-byte copies fill 8 or 16 whole rows from global memory either way.
//
// Accumulators: work-item (warp w of its warpgroup, lane g*4+q) holds rows 64 h + 16 w + g (+8)
// of accumulator (or warpgroup) h and columns 8 j + 2 q (+1), j < 16: per 64 rows the layout of
// xpcs_mma with MMA_WM 4, MMA_MI 1, MMA_NJ 16,
// whose flush (exact 64-bit sums every MMA_FLUSH_STEPS k32 steps, here a multiple of a block's
// steps: flushes fall between blocks) this kernel shares.
//
// MMA_EMULATE = 1: the same copies, layout, descriptors and flush points, with each wgmma
// computed in plain C from local memory at the addresses its descriptors encode (offsets from
// the ring there) and the copies made by ordinary loads and stores (PoCL in CI).

#if MMA_WGMMA

#if MMA_WM != 8 || MMA_WN != 1 || MMA_MI != 1 || MMA_NJ != 16
#error "xpcs wgmma: two warpgroups of m64n128 (MMA_WM 8, MMA_WN 1, MMA_MI 1, MMA_NJ 16)"
#endif
#define MMA_WG_STEPS (MMA_WG_KB / 32)                     // k32 steps a block
#define MMA_WG_AHEAD (MMA_WG_STAGES - 1 - MMA_WG_INFLIGHT) // blocks copied ahead
#if MMA_KB % MMA_WG_KB || MMA_WG_KB % 32 || MMA_FLUSH_STEPS % MMA_WG_STEPS || MMA_WG_AHEAD < 1
#error "xpcs wgmma: MMA_WG_KB 32 or 64, MMA_FLUSH_STEPS a multiple of its steps, 1+ block ahead"
#endif
// MMA_WG_GROUPS = 1: one warpgroup a work-group (128 work-items) holds two m64n128
// accumulators, rows 0 .. 63 and 64 .. 127 of the tile, so that more work-groups, each with
// its own ring of local memory, are resident on a multiprocessor (more copies in flight);
// 2 (the default): two warpgroups of one accumulator each.
#define MMA_WG_RB (2 / MMA_WG_GROUPS)                  // accumulators of a warpgroup
#define MMA_WG_THREADS (128 * MMA_WG_GROUPS)           // work-items of a work-group
#define MMA_WG_PIECES (MMA_WG_KB / 16)                 // 16-byte pieces of a row in a block
#define MMA_WG_UINT4 (2 * MMA_TILE * MMA_WG_PIECES)    // pieces of a block: A rows, B rows
#define MMA_WG_COPIES (MMA_WG_UINT4 / MMA_WG_THREADS)  // pieces a work-item copies per block
#if MMA_WG_SWIZZLE
// Rows of MMA_WG_KB bytes one after the other, the piece index of row r XORed with bits of r
// (the 32- or 64-byte swizzle of the PTX ISA: address bits 4.. ^= bits 7..), groups of 8 rows
// MMA_WG_SBO bytes apart; the leading byte offset is unused (field 1).
#define MMA_WG_SHIFT (MMA_WG_KB == 32 ? 2 : 1) // row bits that land on address bit 7
#define MMA_WG_AT(row, kc)                                                                         \
    ((row) * MMA_WG_PIECES + ((kc) ^ (((row) >> MMA_WG_SHIFT) & (MMA_WG_PIECES - 1))))
#define MMA_WG_LBO 16
#define MMA_WG_MODE (MMA_WG_KB == 32 ? 3 : 2) // 32-byte or 64-byte swizzle
#define MMA_WG_KSTEP 32                       // bytes from one k32 step's operands to the next
#else
// Core matrices of 8 rows x 16 bytes (128 contiguous bytes); the pieces of a group of 8 rows
// follow each other (leading byte offset 128).
#define MMA_WG_AT(row, kc) ((row) / 8 * 8 * MMA_WG_PIECES + (kc) * 8 + (row) % 8)
#define MMA_WG_LBO 128
#define MMA_WG_MODE 0
#define MMA_WG_KSTEP 256
#endif
#define MMA_WG_SBO (128 * MMA_WG_PIECES)

// The wgmma descriptor of an operand at local address `address`: 64 rows, 32 pixels each.
inline ulong xpcs_wgmma_desc(uint address) {
    return (ulong)((address >> 4) & 0x3fff) | (ulong)(MMA_WG_LBO >> 4) << 16 |
           (ulong)(MMA_WG_SBO >> 4) << 32 | (ulong)MMA_WG_MODE << 62;
}

#if MMA_EMULATE
#define MMA_WG_ADDRESS(p) ((uint)((local const uchar*)(p) - (local const uchar*)ring))
#define XPCS_WG_COPY(to, from) (*(to) = *(global const uint4*)(from))
#define XPCS_WG_COMMIT_COPIES()
#define XPCS_WG_WAIT_COPIES()
#define XPCS_WG_PROXY_FENCE()
#define XPCS_WG_ARRIVE()
#define XPCS_WG_COMMIT()
#define XPCS_WG_WAIT(d, n)
#define XPCS_WG_TIE(d)

// Byte of element (row m, pixel k) of an operand whose descriptor is d, in the layout its mode
// names (0: core matrices; 3 or 2: rows of 32 or 64 bytes swizzled), as the tensor cores read.
inline uint xpcs_wgmma_byte(ulong d, int m, int k) {
    const uint start = (d & 0x3fff) << 4, lbo = (d >> 16 & 0x3fff) << 4,
               sbo = (d >> 32 & 0x3fff) << 4, mode = d >> 62;
    if (mode == 0) return start + m / 8 * sbo + k / 16 * lbo + m % 8 * 16 + k % 16;
    const uint width = mode == 3 ? 32 : mode == 2 ? 64 : 128, mask = width / 16 - 1;
    const uint a = start + m / 8 * sbo + m % 8 * width + k;
    return a ^ ((a >> 7 & mask) << 4);
}

// d += A B^T for work-item (warp w of its warpgroup, lane) as wgmma m64n128k32 would, A and B
// read from `local_` where their descriptors say.
inline void xpcs_wgmma_emulate(local const uchar* local_, ulong da, ulong db, int w, int lane,
                               uint d[MMA_NJ][4]) {
    const int g = lane / 4, q = lane % 4;
    for (int j = 0; j < MMA_NJ; ++j)
        for (int c = 0; c < 4; ++c) {
            const int m = 16 * w + g + 8 * (c >> 1), n = 8 * j + 2 * q + (c & 1);
            uint sum = d[j][c];
            for (int k = 0; k < 32; ++k)
                sum += (uint)local_[xpcs_wgmma_byte(da, m, k)] * local_[xpcs_wgmma_byte(db, n, k)];
#if MMA_EMU_BITS < 32
            sum &= (1u << MMA_EMU_BITS) - 1u;
#endif
            d[j][c] = sum;
        }
}
#define XPCS_WG_MMA(d, da, db)                                                                     \
    xpcs_wgmma_emulate((local const uchar*)ring, da, db, warp % 4, lane, d)

#else
// NVIDIA's OpenCL builds for sm_90, whose ptxas refuses wgmma: each wgmma instruction follows
// this mark (a PTX comment there), and the host builds the PTX again with the marks removed for
// sm_90a (gpu/runtime/arch_specific.hpp).
#define XPCS_SM90A "// clscope:arch-specific "
// The shared-window address of a local pointer.
#define MMA_WG_ADDRESS(p) ((uint)(size_t)(p))
#define XPCS_WG_COPY(to, from)                                                                     \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(MMA_WG_ADDRESS(to)),           \
                 "l"(from)                                                                         \
                 : "memory")
#define XPCS_WG_COMMIT_COPIES() asm volatile("cp.async.commit_group;" ::: "memory")
#define XPCS_WG_WAIT_COPIES()                                                                      \
    asm volatile("cp.async.wait_group %0;" ::"n"(MMA_WG_AHEAD - 1) : "memory")
// Local memory written through the generic proxy, read next by the tensor cores.
#define XPCS_WG_PROXY_FENCE() asm volatile("fence.proxy.async.shared::cta;" ::: "memory")
#define XPCS_WG_ARRIVE() asm volatile(XPCS_SM90A "wgmma.fence.sync.aligned;" ::: "memory")
#define XPCS_WG_COMMIT() asm volatile(XPCS_SM90A "wgmma.commit_group.sync.aligned;" ::: "memory")
#define XPCS_WG_D4(d, j) "+r"(d[j][0]), "+r"(d[j][1]), "+r"(d[j][2]), "+r"(d[j][3])
#define XPCS_WG_D(d)                                                                               \
    XPCS_WG_D4(d, 0), XPCS_WG_D4(d, 1), XPCS_WG_D4(d, 2), XPCS_WG_D4(d, 3), XPCS_WG_D4(d, 4),      \
        XPCS_WG_D4(d, 5), XPCS_WG_D4(d, 6), XPCS_WG_D4(d, 7), XPCS_WG_D4(d, 8), XPCS_WG_D4(d, 9),  \
        XPCS_WG_D4(d, 10), XPCS_WG_D4(d, 11), XPCS_WG_D4(d, 12), XPCS_WG_D4(d, 13),                \
        XPCS_WG_D4(d, 14), XPCS_WG_D4(d, 15)
// Waits until at most `n` of the warpgroup's wgmma groups run; the accumulators are its
// operands, so that nothing reads them before.
#define XPCS_WG_WAIT(d, n)                                                                         \
    asm volatile(XPCS_SM90A "wgmma.wait_group.sync.aligned %64;" : XPCS_WG_D(d) : "n"(n) : "memory")

// The accumulators as operands of an empty statement before wgmma.fence: with two
// accumulators a warpgroup, ptxas otherwise moved their registers between the asynchronous
// wgmma instructions and serialized them (warning C7515).
#define XPCS_WG_TIE(d) asm volatile("" : XPCS_WG_D(d) : : "memory")

inline void xpcs_wgmma_one(uint d[MMA_NJ][4], ulong da, ulong db) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 XPCS_SM90A "wgmma.mma_async.sync.aligned.m64n128k32.s32.u8.u8 {"
                 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "%64, %65, p;\n}\n"
                 : XPCS_WG_D(d)
                 : "l"(da), "l"(db), "r"(1)
                 : "memory");
}
#define XPCS_WG_MMA(d, da, db) xpcs_wgmma_one(d, da, db)
#endif

// Block `block` of the work entry's pixels into stage buffer `buf` (this work-item's pieces).
#define XPCS_WG_FETCH(buf, block)                                                                  \
    _Pragma("unroll") for (int l = 0; l < MMA_WG_COPIES; ++l)                                      \
        XPCS_WG_COPY(stage + (buf) * MMA_WG_UINT4 + at[l], from[l] + (size_t)(block) * MMA_WG_KB)

// The wait for at most n wgmma groups in flight, with every accumulator as its operand.
#define XPCS_WG_WAIT_ALL(acc, n)                                                                   \
    _Pragma("unroll") for (int h = 0; h < MMA_WG_RB; ++h) XPCS_WG_WAIT(acc[h][0], n)
// Every accumulator's partial sums into the Gram matrix (accumulator h: rows t1 + 64 h + g).
#define XPCS_WG_FLUSH(acc)                                                                         \
    _Pragma("unroll") for (int h = 0; h < MMA_WG_RB; ++h)                                          \
        xpcs_mma_flush(gram, item, binCount, framePad, t1 + 64 * h + g, t2 + 2 * q, acc[h], add)

// Arguments as xpcs_mma's (sums, pixelCounts and partials unused). Global (lower tiles *
// MMA_WG_THREADS, work entries); work-group (MMA_WG_THREADS, 1).
kernel void xpcs_wgmma(global const uchar* data, global const int4* work, global GRAM_T* gram,
                       global const ulong* sums, global const long* pixelCounts,
                       global ulong* partials, int frames, int framePad, int stride, int binCount,
                       int accumulate) {
    // The ring of buffers, from a multiple of 1024 bytes (the swizzle XORs address bits).
    local uint4 ring[MMA_WG_STAGES * MMA_WG_UINT4 + 64];
#if MMA_EMULATE
    local uint4* stage = ring; // addresses are offsets from ring there
#else
    local uint4* stage = ring + ((1024 - (MMA_WG_ADDRESS(ring) & 1023)) & 1023) / 16;
#endif
    const int2 tile = xpcs_lower_tile(get_group_id(0)) * MMA_TILE;
    const int4 item = work[get_group_id(1)];
    const int lid = get_local_id(0), warp = lid / 32, lane = lid % 32, g = lane / 4, q = lane % 4;
    const int t1 = tile.x + 16 * warp, t2 = tile.y; // warp w: rows 16 w (+ 64 per accumulator)
    uint acc[MMA_WG_RB][1][MMA_NJ][4];
#pragma unroll
    for (int h = 0; h < MMA_WG_RB; ++h)
#pragma unroll
        for (int j = 0; j < MMA_NJ; ++j)
#pragma unroll
            for (int c = 0; c < 4; ++c)
                acc[h][0][j][c] = 0;
    // The work-item's pieces: piece e = lid + MMA_WG_THREADS l is row e / pieces (A rows, then
    // B rows), 16 bytes e % pieces of each block; rows past the last frame read the last frame (their
    // sums land in Gram cells nobody reads).
    global const uchar* from[MMA_WG_COPIES];
    int at[MMA_WG_COPIES];
#pragma unroll
    for (int l = 0; l < MMA_WG_COPIES; ++l) {
        const int e = lid + MMA_WG_THREADS * l, row = e / MMA_WG_PIECES, kc = e % MMA_WG_PIECES;
        const int t = row < MMA_TILE ? tile.x + row : tile.y + row - MMA_TILE;
        from[l] = data + (size_t)min(t, frames - 1) * stride + item.y + 16 * kc;
        at[l] = MMA_WG_AT(row, kc);
    }
    const int blocks = (item.z - item.y) / MMA_WG_KB;
#pragma unroll
    for (int s = 0; s < MMA_WG_AHEAD; ++s) {
        if (s < blocks) XPCS_WG_FETCH(s, s);
        XPCS_WG_COMMIT_COPIES();
    }
    int add = accumulate, steps = 0;
    for (int b = 0; b < blocks; ++b) {
        XPCS_WG_WAIT_COPIES(); // this work-item's pieces of block b are in
        XPCS_WG_PROXY_FENCE();
        barrier(CLK_LOCAL_MEM_FENCE); // everyone's; no wgmma reads the buffer refilled next
        const int next = b + MMA_WG_AHEAD;
        if (next < blocks) XPCS_WG_FETCH(next % MMA_WG_STAGES, next);
        XPCS_WG_COMMIT_COPIES();
        local const uint4* s = stage + b % MMA_WG_STAGES * MMA_WG_UINT4;
        const uint b0 = MMA_WG_ADDRESS(s + MMA_WG_AT(MMA_TILE, 0));
#pragma unroll
        for (int h = 0; h < MMA_WG_RB; ++h)
            XPCS_WG_TIE(acc[h][0]);
        XPCS_WG_ARRIVE();
#pragma unroll
        for (int h = 0; h < MMA_WG_RB; ++h) {
            const uint a0 = MMA_WG_ADDRESS(s + MMA_WG_AT(64 * (warp / 4 + h), 0));
#pragma unroll
            for (int k = 0; k < MMA_WG_STEPS; ++k) // pixels 32 k .. 32 k + 31: pieces 2k, 2k+1
                XPCS_WG_MMA(acc[h][0], xpcs_wgmma_desc(a0 + MMA_WG_KSTEP * k),
                            xpcs_wgmma_desc(b0 + MMA_WG_KSTEP * k));
        }
        XPCS_WG_COMMIT();
        XPCS_WG_WAIT_ALL(acc, MMA_WG_INFLIGHT);
        if ((steps += MMA_WG_STEPS) == MMA_FLUSH_STEPS) {
            XPCS_WG_WAIT_ALL(acc, 0);
            XPCS_WG_FLUSH(acc);
            add = 1, steps = 0;
        }
    }
    XPCS_WG_WAIT_ALL(acc, 0);
    if (steps > 0 || add == accumulate) // also stores the zeros of an empty piece
        XPCS_WG_FLUSH(acc);
}

#endif
