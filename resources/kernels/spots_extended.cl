// spots: dispersion_extended's three steps. Appended to spots.cl by gpu/spots/runner.cpp
// (spotsKernel): one program, spots.cl's helpers and options shared.

// extended, step 1: dispersive pixels (masked pixels count as dispersive unless legacy), the
// window sums from the tile in local memory as in spots_local.
kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void spots_ext_dispersive(global const DATA_T* frames, global const uchar* bad, int w, int h,
                          spots_params p, global uchar* dispersive) {
    SPOTS_TILE_LOCALS;
    local real_t roots[ROOTS_N + 1];
    spots_fill_roots(roots); // spots_tile_sums' barriers order it before the test
    int m;
    sum_t x, y;
    spots_tile_sums(frames, bad, w, h, value, counted, colM, colX, colY, &m, &x, &y);
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= w || j >= h) return;
    const size_t base = (size_t)get_global_id(2) * w * h;
    const int k = j * w + i;
    uchar result = MASKED_DISPERSIVE;
    if (spots_valid(frames[base + k], bad[k]))
        result = m >= p.min_count && (real_t)x >= 0 &&
                 spots_background_test((real_t)m, (real_t)x, (real_t)y, spots_root(m, roots), p);
    dispersive[base + k] = result;
}

// extended, step 2: erosion. Class 2 (core): valid, dispersive and no non-dispersive pixel
// within Chebyshev distance EROSION - 1 inside the frame; 1: other valid pixels
// (background); 0: invalid.
kernel void spots_ext_erode(global const DATA_T* frames, global const uchar* bad, int w, int h,
                            global const uchar* dispersive, global uchar* classes) {
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= w || j >= h) return;
    const size_t base = (size_t)get_global_id(2) * w * h;
    const int k = j * w + i;
    uchar result = 0;
    if (spots_valid(frames[base + k], bad[k])) {
        bool core = dispersive[base + k];
        const int r = EROSION - 1;
        for (int jj = max(0, j - r); core && jj <= min(h - 1, j + r); ++jj)
            for (int ii = max(0, i - r); ii <= min(w - 1, i + r); ++ii)
                core = core && dispersive[base + jj * w + ii];
        result = core ? 2 : 1;
    }
    classes[base + k] = result;
}

// extended, step 3: background mean over the window widened by 2, then the strong test.
kernel void spots_ext_final(global const DATA_T* frames, global const uchar* bad, int w, int h,
                            spots_params p, global const uchar* classes, SPOTS_SIGNAL_ARGS,
                            SPOTS_LIST_ARGS) {
    local uint total, first;
    const int i = get_global_id(0), j = get_global_id(1);
    const size_t base = (size_t)get_global_id(2) * w * h;
    const size_t k = base + (size_t)j * w + i;
    uchar result = 0;
    if (i < w && j < h && classes[k] == 2) {
        int m;
        sum_t x, y;
        spots_window(frames + base, bad, classes + base, w, h, i, j, KX + 2, KY + 2, &m, &x, &y);
        const real_t rm = (real_t)m, rx = (real_t)x, v = (real_t)frames[k];
        const real_t mean = (rm >= 2 ? (rx / rm) : 0);
#if USE_GAIN
        const bool strong = v >= (mean + p.sigma_s * sqrt(p.gain * mean));
#else
        const bool strong = v >= (mean + p.sigma_s * sqrt(mean));
#endif
        result = rx >= 0 && v > p.threshold && strong;
    }
    if (i < w && j < h) spots_store(signal, k, result, mask_out);
    spots_list_one(result, (uint)k, list, capacity, count, &total, &first);
}
