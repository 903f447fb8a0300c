// spots: the strip form of `local`. Appended to spots.cl by gpu/spots/runner.cpp
// (spotsKernel): one program, spots.cl's helpers and options shared.

#if SPOTS_STRIP
// local, strip form (uchar/ushort data, window <= 64 pixels): a work-group of STRIP_X x STRIP_Y
// work-items makes a block of STRIP_X columns x STRIP_Y*STRIP_ROWS rows, each work-item a strip
// of STRIP_ROWS rows of one column. Every tile pixel is one uint in local memory, count and sum
// packed: v + 2^22 when it is in the sums, else 0 (a window's sum of values < 64 * 2^16 stays
// below 2^22, its count * 2^22 below 2^32). Integer sums are exact in any order: first the
// horizontal window sums of every tile row (2KX+1 terms), then a running sum down the strip
// (add the row entering the window, subtract the one leaving it). For these types, valid
// pixels are exactly the in-sum ones, so the tile also gives the pixel's own value.
#if STRIP_ROWS < 1 || STRIP_ROWS > 32 || SWIN > 64 || DATA_FLOAT
#error "the strip kernel needs 1 <= STRIP_ROWS <= 32, a window of <= 64 pixels and 8/16-bit data"
#endif
#define PACK_ONE 4194304u // 2^22: one counted pixel
#define PACK_MASK (PACK_ONE - 1)
#define SBH (STRIP_Y * STRIP_ROWS) // rows of the block
#define STW (STRIP_X + 2 * KX)     // the tile: STH x STW
#define STH (SBH + 2 * KY)

// The tile of the block with its halo (packed), and the horizontal sums of its rows.
inline void spots_strip_rows(global const DATA_T* frame, global const uchar* bad, int w, int h,
                             local uint* tile, local uint* rowP, local ulong* rowQ) {
    const int lid = get_local_id(1) * STRIP_X + get_local_id(0);
    const int i0 = get_group_id(0) * STRIP_X - KX, j0 = get_group_id(1) * SBH - KY;
    for (int t = lid; t < STH * STW; t += STRIP_X * STRIP_Y) {
        const int ii = i0 + t % STW, jj = j0 + t / STW;
        uint packed = 0;
        if (ii >= 0 && ii < w && jj >= 0 && jj < h) {
            const DATA_T v = frame[jj * w + ii];
            if (spots_in_sum(v, bad[jj * w + ii])) packed = (uint)v + PACK_ONE;
        }
        tile[t] = packed;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = lid; t < STH * STRIP_X; t += STRIP_X * STRIP_Y) {
        const int at = t / STRIP_X * STW + t % STRIP_X;
        uint sp = 0;
        ulong sq = 0;
        for (int d = 0; d <= 2 * KX; ++d) {
            const uint packed = tile[at + d], v = packed & PACK_MASK;
            sp += packed;
            sq += v * v; // < 2^32: 32-bit product, widened once
        }
        rowP[t] = sp, rowQ[t] = sq;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

kernel __attribute__((reqd_work_group_size(STRIP_X, STRIP_Y, 1)))
void spots_local(global const DATA_T* frames, global const uchar* bad, int w, int h,
                 spots_params p, global uchar* signal, SPOTS_LIST_ARGS) {
    local uint tile[STH * STW], rowP[STH * STRIP_X];
    local ulong rowQ[STH * STRIP_X];
    SPOTS_LIST_LOCALS;
    spots_fill_roots(roots); // the barriers of spots_strip_rows order it before the tests
    const size_t base = (size_t)get_global_id(2) * w * h;
    spots_strip_rows(frames + base, bad, w, h, tile, rowP, rowQ);
    const int li = get_local_id(0), r0 = get_local_id(1) * STRIP_ROWS; // r0: first row in block
    const int i = get_group_id(0) * STRIP_X + li, j0 = get_group_id(1) * SBH + r0;
    uint sp = 0, bits = 0;
    ulong sq = 0;
    for (int d = 0; d < 2 * KY; ++d)
        sp += rowP[(r0 + d) * STRIP_X + li], sq += rowQ[(r0 + d) * STRIP_X + li];
    for (int r = 0; r < STRIP_ROWS; ++r) {
        const int enter = (r0 + r + 2 * KY) * STRIP_X + li, leave = (r0 + r) * STRIP_X + li;
        sp += rowP[enter], sq += rowQ[enter];
        const int j = j0 + r;
        if (i < w && j < h) {
            const uint own = tile[(r0 + r + KY) * STW + li + KX];
            const uchar on = spots_decide(sp >> 22, (real_t)(sp & PACK_MASK), (real_t)sq,
                                          (real_t)(own & PACK_MASK), own != 0, p, roots);
            signal[base + (size_t)j * w + i] = on;
            bits |= (uint)on << r;
        }
        sp -= rowP[leave], sq -= rowQ[leave];
    }
    const uint slot = spots_reserve(popcount(bits), &total, &first, count);
    uint s = slot;
    for (int r = 0; r < STRIP_ROWS; ++r)
        if ((bits >> r) & 1) {
            if (s < capacity) list[s] = (uint)(base + (size_t)(j0 + r) * w + i);
            ++s;
        }
}
#endif
