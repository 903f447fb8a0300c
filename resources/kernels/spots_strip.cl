// spots: the strip forms of `local` for 8/16-bit data: the tile form here and the walk form
// (spots_walk.cl, STRIP_WALK = 1), which uses this file's vector loads. Built after spots.cl
// in one program (gpu/spots/recipes.cpp): its helpers and options shared.

#if SPOTS_STRIP
// local, strip form (uchar/ushort data, window <= 64 pixels): a work-group of STRIP_X x STRIP_Y
// work-items makes a block of STRIP_X columns x STRIP_Y*STRIP_ROWS rows, each work-item a strip
// of STRIP_ROWS rows of one column, for STRIP_FRAMES frames of the chunk in turn (the tile's
// bad flags, the same for every frame, read once into local memory when there are several).
// Every tile pixel is one uint in local memory, count and sum packed: v + 2^22 when it is in
// the sums, else 0 (a window's sum of values < 64 * 2^16 stays below 2^22, its count * 2^22
// below 2^32). Integer sums are exact in any order: first the horizontal window sums of every
// tile row (2KX+1 terms; made once for the block or by each strip, STRIP_SHARED_ROWS; once for
// the block, each work-item slides them along a run of STRIP_RUN columns of a row), then a
// running sum down the strip (add the row entering the window, subtract the one leaving it).
// For these types, valid pixels are exactly the in-sum ones, so the tile also gives the
// pixel's own value.
#if STRIP_ROWS < 1 || STRIP_ROWS > 32 || STRIP_FRAMES < 1 || SWIN > 64 || DATA_FLOAT
#error "the strip kernel needs 1 <= STRIP_ROWS <= 32, STRIP_FRAMES >= 1, windows <= 64, 8/16 bits"
#endif
#if (STRIP_VEC != 1 && STRIP_VEC != 2 && STRIP_VEC != 4 && STRIP_VEC != 8) ||                  \
    (STRIP_WALK ? WALK_COLS % STRIP_VEC : STRIP_X % STRIP_VEC)
#error "the strip kernel needs STRIP_VEC of 1, 2, 4 or 8 dividing STRIP_X (WALK_COLS when walking)"
#endif
#define PACK_ONE 4194304u // 2^22: one counted pixel
#define PACK_MASK (PACK_ONE - 1)
#define SBH (STRIP_Y * STRIP_ROWS) // rows of the block
// The tile: STH rows x STW columns, loaded STRIP_VEC pixels (one vector) at a time: its halo
// columns KXV are KX rounded up to whole vectors (vectors of the frame's own grid).
#define KXV ((KX + STRIP_VEC - 1) / STRIP_VEC * STRIP_VEC)
#define STW (STRIP_X + 2 * KXV)
#define STV (STW / STRIP_VEC) // vectors per tile row
// Row strides in local memory. With STRIP_RUN, a work-item sums a run of one row and the
// work-items of a warp take consecutive rows: odd strides put their rows in distinct banks.
#if STRIP_RUN
#if STRIP_X % STRIP_RUN
#error "STRIP_RUN must divide STRIP_X"
#endif
#define STS (STW | 1)      // the tile's
#define SRS (STRIP_X | 1)  // the rows' sums'
#else
#define STS STW
#define SRS STRIP_X
#endif
#define STH (SBH + 2 * KY)

// The block's origin in the frame, its halo included: (i0, j0).
#define STRIP_I0 ((int)get_group_id(0) * STRIP_X - KXV)
#define STRIP_J0 ((int)get_group_id(1) * SBH - KY)
#define STRIP_LID ((int)(get_local_id(1) * STRIP_X + get_local_id(0)))

// STRIP_WHOLE(T, at, out): the STRIP_VEC elements of type T at `at` into the private array
// `out`, one vector load (a plain one where `at` is aligned to the vector, else vloadn);
// STRIP_ALIGNED the same where `at` is known to be aligned.
#define STRIP_CAT_(a, b) a##b
#define STRIP_CAT(a, b) STRIP_CAT_(a, b)
#if STRIP_VEC > 1
#define STRIP_VTYPE(T) STRIP_CAT(T, STRIP_VEC)
#define STRIP_WHOLE(T, at, out)                                                                  \
    STRIP_CAT(vstore, STRIP_VEC)((size_t)(at) % sizeof(STRIP_VTYPE(T))                          \
                                     ? STRIP_CAT(vload, STRIP_VEC)(0, at)                       \
                                     : *(global const STRIP_VTYPE(T)*)(at),                    \
                                 0, out)
#define STRIP_ALIGNED(T, at, out)                                                                \
    STRIP_CAT(vstore, STRIP_VEC)(*(global const STRIP_VTYPE(T)*)(at), 0, out)
#else
#define STRIP_WHOLE(T, at, out) (*(out) = *(at))
#define STRIP_ALIGNED(T, at, out) (*(out) = *(at))
#endif
// name(src, w, h, ii, jj, out): the STRIP_VEC elements of row jj from column ii of a w x h plane
// of T into `out` (0 outside the plane); one vector load where they all lie inside.
#define SPOTS_STRIP_LOADER(name, T)                                                              \
    inline void name(global const T* src, int w, int h, int ii, int jj, T* out) {               \
        const bool row = jj >= 0 && jj < h;                                                      \
        if (row && ii >= 0 && ii + STRIP_VEC <= w) {                                             \
            STRIP_WHOLE(T, src + jj * w + ii, out);                                              \
            return;                                                                              \
        }                                                                                        \
        for (int e = 0; e < STRIP_VEC; ++e)                                                      \
            out[e] = row && ii + e >= 0 && ii + e < w ? src[jj * w + ii + e] : 0;                \
    }
SPOTS_STRIP_LOADER(spots_strip_values, DATA_T)
SPOTS_STRIP_LOADER(spots_strip_flags, uchar)

// ok[e]: pixel (ii + e, jj) lies inside the frame and is not bad.
inline void spots_strip_ok(global const uchar* bad, int w, int h, int ii, int jj, uchar* ok) {
    spots_strip_flags(bad, w, h, ii, jj, ok);
    for (int e = 0; e < STRIP_VEC; ++e)
        ok[e] = ii + e >= 0 && ii + e < w && jj >= 0 && jj < h && !ok[e];
}

// The packed form of value v: v + 2^22 when it is in the sums (`usable`: inside the frame and
// not bad), else 0.
inline uint spots_strip_pack(DATA_T v, bool usable) {
    return usable && spots_in_sum(v, 0) ? (uint)v + PACK_ONE : 0;
}

// The tests of a pixel from its window's packed sums p (count and sum), squares q and its own
// packed value (0: not valid).
inline uchar spots_strip_decide(uint p, ulong q, uint own, spots_params params,
                                local const real_t* roots) {
    return spots_decide(p >> 22, (real_t)(p & PACK_MASK), (real_t)q, (real_t)(own & PACK_MASK),
                        own != 0, params, roots);
}

// The tile form (STRIP_WALK = 0; spots_walk.cl holds the other).
#if !STRIP_WALK
// With STRIP_FRAMES > 1, the tile's usable pixels (spots_strip_ok), the same for every frame:
// read from `bad` once per work-group. Each work-item writes the entries it reads back in
// spots_strip_rows (the same vector t), so no barrier is needed.
inline void spots_strip_usable(global const uchar* bad, int w, int h, local uchar* usable) {
    const int i0 = STRIP_I0, j0 = STRIP_J0;
    for (int t = STRIP_LID; t < STH * STV; t += STRIP_X * STRIP_Y) {
        uchar ok[STRIP_VEC];
        spots_strip_ok(bad, w, h, i0 + t % STV * STRIP_VEC, j0 + t / STV, ok);
        for (int e = 0; e < STRIP_VEC; ++e)
            usable[t * STRIP_VEC + e] = ok[e];
    }
}

// The local memory of one block, declared at kernel scope (OpenCL 1.2): the tile, its usable
// flags (STRIP_FRAMES > 1; one frame reads them with its values) and, with STRIP_SHARED_ROWS,
// the horizontal window sums of its rows at every column of the block (made once, read by the
// 2KY+1 strips' pixels whose windows hold the row).
typedef struct {
    uint tile[STH * STS];
#if STRIP_FRAMES > 1
    uchar usable[STH * STW];
#endif
#if STRIP_SHARED_ROWS
    uint rowP[STH * SRS];
#if STRIP_QSPLIT // a row's 2KX+1 <= 21 squares < 2^37: low 32 bits and a byte above them
    uint rowQ[STH * SRS];
    uchar rowQhigh[STH * SRS];
#else
    ulong rowQ[STH * SRS];
#endif
#endif
} spots_strip_block;

#if STRIP_SHARED_ROWS
// The rows' sums of squares at entry k, stored (put) and read (get).
inline void spots_strip_putq(local spots_strip_block* b, int k, ulong q) {
#if STRIP_QSPLIT
    b->rowQ[k] = (uint)q, b->rowQhigh[k] = (uchar)(q >> 32);
#else
    b->rowQ[k] = q;
#endif
}
inline ulong spots_strip_getq(local const spots_strip_block* b, int k) {
#if STRIP_QSPLIT
    return (ulong)b->rowQhigh[k] << 32 | b->rowQ[k];
#else
    return b->rowQ[k];
#endif
}
#endif

// The horizontal window sums of tile row `row` at block column c: count and sum packed (p),
// squares (q).
inline void spots_strip_hsum(local const uint* tile, int row, int c, uint* p, ulong* q) {
    const int at = row * STS + c + KXV - KX; // the window's first column
    uint sp = 0;
    ulong sq = 0;
    for (int d = 0; d <= 2 * KX; ++d) {
        const uint packed = tile[at + d], v = packed & PACK_MASK;
        sp += packed;
        sq += v * v; // < 2^32: 32-bit product, widened once
    }
    *p = sp, *q = sq;
}

#if STRIP_SHARED_ROWS && STRIP_RUN
// The window sums of tile row `row` at block columns [c0, c0 + STRIP_RUN), into rowP and rowQ:
// the first summed, the others slid along the row (the column entering the window added, the
// one leaving it taken; modulo 2^32 for the packed sums, whose windows fit).
inline void spots_strip_run(local spots_strip_block* b, int row, int c0) {
    local const uint* at = b->tile + row * STS + c0 + KXV - KX; // the first window's first column
    uint sp = 0;
    ulong sq = 0;
    for (int d = 0; d <= 2 * KX; ++d) {
        const uint v = at[d] & PACK_MASK;
        sp += at[d], sq += v * v;
    }
    b->rowP[row * SRS + c0] = sp;
    spots_strip_putq(b, row * SRS + c0, sq);
    for (int c = 1; c < STRIP_RUN; ++c) {
        const uint in = at[c + 2 * KX], out = at[c - 1];
        const uint vi = in & PACK_MASK, vo = out & PACK_MASK;
        sp += in - out;
        sq += vi * vi;
        sq -= vo * vo;
        b->rowP[row * SRS + c0 + c] = sp;
        spots_strip_putq(b, row * SRS + c0 + c, sq);
    }
}
#endif

// The tile of the block with its halo (packed) and, with STRIP_SHARED_ROWS, its rows' sums.
inline void spots_strip_rows(global const DATA_T* frame, global const uchar* bad, int w, int h,
                             local spots_strip_block* b) {
    const int lid = STRIP_LID, i0 = STRIP_I0, j0 = STRIP_J0;
    for (int t = lid; t < STH * STV; t += STRIP_X * STRIP_Y) {
        const int ii = i0 + t % STV * STRIP_VEC, jj = j0 + t / STV;
        DATA_T v[STRIP_VEC];
        uchar ok[STRIP_VEC];
        spots_strip_values(frame, w, h, ii, jj, v);
#if STRIP_FRAMES > 1
        for (int e = 0; e < STRIP_VEC; ++e)
            ok[e] = b->usable[t * STRIP_VEC + e];
#else
        spots_strip_ok(bad, w, h, ii, jj, ok);
#endif
        for (int e = 0; e < STRIP_VEC; ++e)
            b->tile[t / STV * STS + t % STV * STRIP_VEC + e] = spots_strip_pack(v[e], ok[e]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#if STRIP_SHARED_ROWS
#if STRIP_RUN
    for (int t = lid; t < STH * (STRIP_X / STRIP_RUN); t += STRIP_X * STRIP_Y)
        spots_strip_run(b, t % STH, t / STH * STRIP_RUN);
#else
    for (int t = lid; t < STH * STRIP_X; t += STRIP_X * STRIP_Y) {
        uint rp;
        ulong rq;
        spots_strip_hsum(b->tile, t / STRIP_X, t % STRIP_X, &rp, &rq);
        b->rowP[t / STRIP_X * SRS + t % STRIP_X] = rp;
        spots_strip_putq(b, t / STRIP_X * SRS + t % STRIP_X, rq);
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
}

// Tile row `row`'s window sums at block column c added to (sign 1) or taken from (-1) p, q:
// the shared ones (STRIP_SHARED_ROWS), else summed here from the tile.
inline void spots_strip_add(local const spots_strip_block* b, int row, int c, int sign, uint* p,
                            ulong* q) {
    uint rp;
    ulong rq;
#if STRIP_SHARED_ROWS
    rp = b->rowP[row * SRS + c], rq = spots_strip_getq(b, row * SRS + c);
#else
    spots_strip_hsum(b->tile, row, c, &rp, &rq);
#endif
    if (sign > 0)
        *p += rp, *q += rq;
    else
        *p -= rp, *q -= rq;
}

// This work-item's strip of frame `base` (the offset of its first pixel in the chunk): the
// tests of its STRIP_ROWS pixels, stored (spots_store) and appended to the list. Every
// work-item of the group calls it (barriers).
inline void spots_strip_frame(global const DATA_T* frames, size_t base, global const uchar* bad,
                              int w, int h, spots_params p, SPOTS_SIGNAL_ARGS, SPOTS_LIST_ARGS,
                              local spots_strip_block* b, local const real_t* roots,
                              local uint* total, local uint* first) {
    spots_strip_rows(frames + base, bad, w, h, b);
    const int li = get_local_id(0), r0 = get_local_id(1) * STRIP_ROWS; // r0: first row in block
    const int i = get_group_id(0) * STRIP_X + li, j0 = get_group_id(1) * SBH + r0;
    uint sp = 0, bits = 0;
    ulong sq = 0;
    for (int d = 0; d < 2 * KY; ++d)
        spots_strip_add(b, r0 + d, li, 1, &sp, &sq);
    for (int r = 0; r < STRIP_ROWS; ++r) {
        spots_strip_add(b, r0 + r + 2 * KY, li, 1, &sp, &sq); // the row entering the window
        const int j = j0 + r;
        if (i < w && j < h) {
            const uint own = b->tile[(r0 + r + KY) * STS + li + KXV];
            const uchar on = spots_strip_decide(sp, sq, own, p, roots);
            spots_store(signal, base + (size_t)j * w + i, on, mask_out);
            bits |= (uint)on << r;
        }
        spots_strip_add(b, r0 + r, li, -1, &sp, &sq); // the row leaving it
    }
    // spots_reserve's first barrier also keeps the next frame's tile from overwriting this one's
    uint s = spots_reserve(popcount(bits), total, first, count);
    for (int r = 0; r < STRIP_ROWS; ++r)
        if ((bits >> r) & 1) {
            if (s < capacity) list[s] = (uint)(base + (size_t)(j0 + r) * w + i);
            ++s;
        }
}

// n: frames in the chunk; work-group z makes frames [z * STRIP_FRAMES, + STRIP_FRAMES) of them.
kernel __attribute__((reqd_work_group_size(STRIP_X, STRIP_Y, 1)))
void spots_local(global const DATA_T* frames, global const uchar* bad, int w, int h,
                 spots_params p, SPOTS_SIGNAL_ARGS, SPOTS_LIST_ARGS, int n) {
    local spots_strip_block b;
    SPOTS_LIST_LOCALS;
    spots_fill_roots(roots); // the barriers of spots_strip_rows order it before the tests
#if STRIP_FRAMES > 1
    spots_strip_usable(bad, w, h, b.usable);
#endif
    const int f0 = get_group_id(2) * STRIP_FRAMES, f1 = min(f0 + STRIP_FRAMES, n);
    for (int f = f0; f < f1; ++f)
        spots_strip_frame(frames, (size_t)f * w * h, bad, w, h, p, signal, mask_out, list,
                          capacity, count, &b, roots, &total, &first);
}
#endif // !STRIP_WALK
#endif
