// spots: the `sat` variant. Appended to spots.cl by gpu/spots/runner.cpp
// (spotsKernel): one program, spots.cl's helpers and options shared.

// sat: summed-area tables of count, sum and sum of squares, then four corners per pixel.
// Integer tables wrap modulo 2^64 (ulong): a window's difference is still exact because the
// window's own sums fit in a long.
#if DATA_FLOAT
typedef real_t sat_t;
#else
typedef ulong sat_t;
#endif

// Pass 1: inclusive prefix sums along each row (one work-item per row and frame).
kernel void spots_sat_rows(global const DATA_T* frames, global const uchar* bad, int w, int h,
                           global int* tm, global sat_t* tx, global sat_t* ty) {
    const int j = get_global_id(0);
    if (j >= h) return;
    const size_t row = (size_t)get_global_id(1) * w * h + (size_t)j * w;
    int m = 0;
    sat_t x = 0, y = 0;
    for (int i = 0; i < w; ++i) {
        const DATA_T v = frames[row + i];
        if (spots_in_sum(v, bad[j * w + i])) {
            m += 1;
            x += (sat_t)v;
            y += (sat_t)v * (sat_t)v;
        }
        tm[row + i] = m, tx[row + i] = x, ty[row + i] = y;
    }
}

// Pass 2: down each column (one work-item per column and frame: neighbours read neighbours).
kernel void spots_sat_cols(int w, int h, global int* tm, global sat_t* tx, global sat_t* ty) {
    const int i = get_global_id(0);
    if (i >= w) return;
    const size_t column = (size_t)get_global_id(1) * w * h + i;
    int m = 0;
    sat_t x = 0, y = 0;
    for (int j = 0; j < h; ++j) {
        const size_t k = column + (size_t)j * w;
        m += tm[k], x += tx[k], y += ty[k];
        tm[k] = m, tx[k] = x, ty[k] = y;
    }
}

// Window [j0+1, j1] x [i0+1, i1] of one table; rows or columns at -1 read as 0.
#define SAT_WINDOW(T, table, zero)                                                            \
    ((T)table[k11] - (j0 >= 0 ? (T)table[k01] : zero) - (i0 >= 0 ? (T)table[k10] : zero) +    \
     (j0 >= 0 && i0 >= 0 ? (T)table[k00] : zero))

kernel void spots_sat_threshold(global const DATA_T* frames, global const uchar* bad, int w,
                                int h, spots_params p, global const int* tm,
                                global const sat_t* tx, global const sat_t* ty,
                                SPOTS_SIGNAL_ARGS, SPOTS_LIST_ARGS) {
    SPOTS_LIST_LOCALS;
    spots_fill_roots(roots);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int i = get_global_id(0), j = get_global_id(1);
    const bool inside = i < w && j < h;
    const size_t base = (size_t)get_global_id(2) * w * h;
    const int i0 = max(i - KX, 0) - 1, i1 = min(i + KX, w - 1);
    const int j0 = max(j - KY, 0) - 1, j1 = min(j + KY, h - 1);
    const size_t k11 = base + (size_t)j1 * w + i1;
    const size_t k01 = base + (size_t)max(j0, 0) * w + i1, k10 = base + (size_t)j1 * w + max(i0, 0);
    const size_t k00 = base + (size_t)max(j0, 0) * w + max(i0, 0);
    const size_t k = base + (size_t)j * w + i;
    uchar on = 0;
    if (inside) {
        const int m = SAT_WINDOW(int, tm, 0);
        const sum_t x = (sum_t)SAT_WINDOW(sat_t, tx, (sat_t)0);
        const sum_t y = (sum_t)SAT_WINDOW(sat_t, ty, (sat_t)0);
        on = spots_dispersion(m, x, y, frames[k], bad[j * w + i], p, roots);
        spots_store(signal, k, on, mask_out);
    }
    spots_list_one(on, (uint)k, list, capacity, count, &total, &first);
}
