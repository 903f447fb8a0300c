// xpcs variants naive and ordered: the seed's two kernels (after xpcs_common.cl).

kernel void xpcs_naive(global const DATA_T* data, global const int* pixels,
                       global const int* offsets, global SUM_T* gram, int frames, int framePad,
                       int binCount, int stride, int accumulate) {
    const int lag = get_global_id(0), bin = get_global_id(1);
    if (lag >= frames || bin >= binCount) return;
    for (int t = lag; t < frames; ++t) {
        SUM_T n = 0;
        for (int q = offsets[bin]; q < offsets[bin + 1]; ++q)
            n += xpcs_pixel(data, pixels, stride, t, q) * xpcs_pixel(data, pixels, stride, t - lag, q);
        xpcs_store(&gram[xpcs_gram_index(0, bin, binCount, framePad, t, t - lag)], n, accumulate);
    }
}

// ---- variant ordered: one work-group per (lag, bin), the seed's second kernel ----------


// Sum of one value per work-item (ORDERED_WG, a power of two) through local memory.
inline SUM_T xpcs_group_sum(local SUM_T* scratch, SUM_T value) {
    const int tid = get_local_id(0);
    scratch[tid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int width = ORDERED_WG / 2; width > 0; width /= 2) {
        if (tid < width) scratch[tid] += scratch[tid + width];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const SUM_T total = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

// Work-group (ORDERED_WG, 1); global (ORDERED_WG * frames, binCount).
kernel void xpcs_ordered(global const DATA_T* data, global const int* pixels,
                         global const int* offsets, global SUM_T* gram, int frames, int framePad,
                         int binCount, int stride, int accumulate) {
    local SUM_T scratch[ORDERED_WG];
    const int lag = get_group_id(0), bin = get_global_id(1), tid = get_local_id(0);
    if (lag >= frames || bin >= binCount) return; // whole work-groups leave together
    for (int t = lag; t < frames; ++t) {
        SUM_T n = 0;
        for (int q = offsets[bin] + tid; q < offsets[bin + 1]; q += ORDERED_WG)
            n += xpcs_pixel(data, pixels, stride, t, q) * xpcs_pixel(data, pixels, stride, t - lag, q);
        n = xpcs_group_sum(scratch, n);
        if (tid == 0)
            xpcs_store(&gram[xpcs_gram_index(0, bin, binCount, framePad, t, t - lag)], n, accumulate);
    }
}

