// spots: the walk form of `local` (STRIP_WALK = 1; 8/16-bit data, windows <= 64 pixels). Built
// after spots_strip.cl, whose vector loads (STRIP_ALIGNED), packing and decision it uses.
//
// Each work-item walks down a strip of WALK_ROWS rows of WALK_COLS columns, holding the window
// sums of its columns in registers: no tile, no barriers while it walks. At each row it adds
// the horizontal window sums of the row entering the window (read from the frame, the halo
// columns of its neighbours included, and summed by a sliding window along the row) and takes
// those of the row leaving it (read and summed again: cheaper than keeping 2KY+1 rows). Sums
// are count and sum packed in one uint (v + 2^22, as the tile form) and squares in a ulong:
// integers, exact in any order. Signal pixels are staged in local memory (WALK_STAGE of them;
// past it, each takes a slot of the global list itself) and the group reserves its range with
// one atomic at the end.
#if SPOTS_STRIP && STRIP_WALK
#if WALK_COLS < 1 || WALK_COLS > 32 || WALK_ROWS < 1 || WALK_STAGE < 1
#error "the walk form needs 1 <= WALK_COLS <= 32 and WALK_ROWS, WALK_STAGE >= 1"
#endif
#define WALK_O ((KX + STRIP_VEC - 1) / STRIP_VEC * STRIP_VEC) // own columns among those loaded
#define WALK_N (WALK_COLS + 2 * WALK_O)                        // pixels loaded from a row

// The raw pixels of a row: values and bad flags (a pixel outside the frame reads as bad).
typedef struct {
    DATA_T v[WALK_N];
    uchar bad[WALK_N];
} spots_walk_pixels;

// The n pixels of row jj from column i (i and n multiples of STRIP_VEC) into v, f. Inside the
// frame (with `aligned` rows: w a multiple of STRIP_VEC, buffers aligned) plain vector loads
// with no branch between them, so that a step's loads are all in flight at once; else one
// pixel at a time.
inline void spots_walk_load(global const DATA_T* frame, global const uchar* bad, int w, int h,
                            int i, int jj, int n, bool aligned, DATA_T* v, uchar* f) {
    const size_t at = (size_t)jj * w + i;
    if (aligned && jj >= 0 && jj < h && i >= 0 && i + n <= w) {
#pragma unroll
        for (int k = 0; k < n; k += STRIP_VEC) {
            STRIP_ALIGNED(DATA_T, frame + at + k, v + k);
            STRIP_ALIGNED(uchar, bad + at + k, f + k);
        }
        return;
    }
#pragma unroll
    for (int e = 0; e < n; ++e) {
        const bool in = jj >= 0 && jj < h && i + e >= 0 && i + e < w;
        v[e] = in ? frame[at + e] : 0;
        f[e] = in ? bad[at + e] : 1;
    }
}

// The packed form (spots_strip_pack) of raw pixel e.
#define WALK_PACKED(px, e) spots_strip_pack((px).v[e], !(px).bad[e])

// The horizontal window sums of row `px` (loaded from column i0 - WALK_O) at the WALK_COLS
// columns from i0, added to (sign 1) or taken from (-1) the columns' sums vp (packed) and vq
// (squares).
inline void spots_walk_sums(const spots_walk_pixels* px, int sign, uint* vp, ulong* vq) {
    uint u[WALK_N];
#pragma unroll
    for (int e = 0; e < WALK_N; ++e)
        u[e] = WALK_PACKED(*px, e);
    uint sp = 0;
    ulong sq = 0;
#pragma unroll
    for (int d = -KX; d <= KX; ++d) {
        const uint v = u[WALK_O + d] & PACK_MASK;
        sp += u[WALK_O + d], sq += v * v; // v^2 < 2^32
    }
#pragma unroll
    for (int c = 0; c < WALK_COLS; ++c) {
        if (c > 0) { // slide: the column entering the row's window, the one leaving it
            const uint in = u[WALK_O + c + KX], out = u[WALK_O + c - 1 - KX];
            const uint vi = in & PACK_MASK, vo = out & PACK_MASK;
            sp += in - out; // modulo 2^32, and the window's sum fits
            sq += vi * vi;
            sq -= vo * vo;
        }
        if (sign > 0)
            vp[c] += sp, vq[c] += sq;
        else
            vp[c] -= sp, vq[c] -= sq;
    }
}

// Row jj's window sums (spots_walk_sums) read from the frame; rows outside add nothing.
inline void spots_walk_row(global const DATA_T* frame, global const uchar* bad, int w, int h,
                           int i0, int jj, bool aligned, int sign, uint* vp, ulong* vq) {
    if (jj < 0 || jj >= h) return;
    spots_walk_pixels px;
    spots_walk_load(frame, bad, w, h, i0 - WALK_O, jj, WALK_N, aligned, px.v, px.bad);
    spots_walk_sums(&px, sign, vp, vq);
}

// Signal pixel `index` into the group's staging (past WALK_STAGE, straight into the list).
inline void spots_walk_append(uint index, local uint* staged, local uint* total,
                              SPOTS_LIST_ARGS) {
    const uint s = atomic_inc((volatile local uint*)total);
    if (s < WALK_STAGE) {
        staged[s] = index;
        return;
    }
    const uint slot = atomic_inc(count);
    if (slot < capacity) list[slot] = index;
}

// The tests of row j's WALK_COLS pixels from i0 (`own`: their raw pixels from index 0), with
// their window sums vp, vq.
inline void spots_walk_decide(const spots_walk_pixels* own, size_t base, int w, int i0, int j,
                              const uint* vp, const ulong* vq, spots_params p,
                              SPOTS_SIGNAL_ARGS, SPOTS_LIST_ARGS, local const real_t* roots,
                              local uint* staged, local uint* total) {
    uint bits = 0;
#pragma unroll
    for (int c = 0; c < WALK_COLS; ++c)
        if (i0 + c < w)
            bits |= (uint)spots_strip_decide(vp[c], vq[c], WALK_PACKED(*own, c), p, roots) << c;
    const size_t k = base + (size_t)j * w + i0;
    if (SIGNAL_MASK_ALWAYS || mask_out) {
#pragma unroll
        for (int c = 0; c < WALK_COLS; ++c)
            if (i0 + c < w) signal[k + c] = (bits >> c) & 1;
    }
    for (; bits; bits &= bits - 1) // the set bits, lowest first (no array indexed at run time)
        spots_walk_append((uint)k + 31 - clz(bits & -bits), staged, total, list, capacity, count);
}

// The work-item's strip of frame `base` (the offset of its first pixel in the chunk): rows
// [j0, j0 + WALK_ROWS) of columns [i0, i0 + WALK_COLS).
inline void spots_walk_strip(global const DATA_T* frames, size_t base, global const uchar* bad,
                             int w, int h, int i0, int j0, spots_params p, SPOTS_SIGNAL_ARGS,
                             SPOTS_LIST_ARGS, local const real_t* roots, local uint* staged,
                             local uint* total) {
    global const DATA_T* frame = frames + base;
    const bool aligned = w % STRIP_VEC == 0 &&
                         (size_t)frame % (STRIP_VEC * sizeof(DATA_T)) == 0 &&
                         (size_t)bad % STRIP_VEC == 0;
    const int rows = min(WALK_ROWS, h - j0);
    uint vp[WALK_COLS];
    ulong vq[WALK_COLS];
#pragma unroll
    for (int c = 0; c < WALK_COLS; ++c)
        vp[c] = 0, vq[c] = 0;
    for (int d = -KY; d < KY; ++d)
        spots_walk_row(frame, bad, w, h, i0, j0 + d, aligned, 1, vp, vq);
    for (int r = 0; r < rows; ++r) {
        // the step's three loads first, all in flight together: the row entering the window,
        // the pixels tested, the row leaving the window
        const int j = j0 + r;
        spots_walk_pixels in, own, out;
        spots_walk_load(frame, bad, w, h, i0 - WALK_O, j + KY, WALK_N, aligned, in.v, in.bad);
        spots_walk_load(frame, bad, w, h, i0, j, WALK_COLS, aligned, own.v, own.bad);
        spots_walk_load(frame, bad, w, h, i0 - WALK_O, j - KY, WALK_N, aligned, out.v, out.bad);
        spots_walk_sums(&in, 1, vp, vq);
        spots_walk_decide(&own, base, w, i0, j, vp, vq, p, signal, mask_out, list,
                          capacity, count, roots, staged, total);
        spots_walk_sums(&out, -1, vp, vq);
    }
}

// The group's staged signal pixels into the list: one reservation.
inline void spots_walk_flush(local const uint* staged, local uint* total, local uint* first,
                             SPOTS_LIST_ARGS) {
    const int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint n = min(*total, (uint)WALK_STAGE);
    if (lid == 0 && n) *first = atomic_add(count, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint t = lid; t < n; t += get_local_size(0) * get_local_size(1))
        if (*first + t < capacity) list[*first + t] = staged[t];
}

// n: frames in the chunk; work-group z makes frames [z * STRIP_FRAMES, + STRIP_FRAMES) of them.
kernel __attribute__((reqd_work_group_size(STRIP_X, STRIP_Y, 1)))
void spots_local(global const DATA_T* frames, global const uchar* bad, int w, int h,
                 spots_params p, SPOTS_SIGNAL_ARGS, SPOTS_LIST_ARGS, int n) {
    SPOTS_LIST_LOCALS;
    local uint staged[WALK_STAGE];
    spots_fill_roots(roots);
    if (get_local_id(0) == 0 && get_local_id(1) == 0) total = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int i0 = get_global_id(0) * WALK_COLS, j0 = get_global_id(1) * WALK_ROWS;
    const int f0 = get_group_id(2) * STRIP_FRAMES, f1 = min(f0 + STRIP_FRAMES, n);
    if (i0 < w && j0 < h)
        for (int f = f0; f < f1; ++f)
            spots_walk_strip(frames, (size_t)f * w * h, bad, w, h, i0, j0, p, signal, mask_out,
                             list, capacity, count, roots, staged, &total);
    spots_walk_flush(staged, &total, &first, list, capacity, count);
}
#endif
