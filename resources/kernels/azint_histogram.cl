// The histogram variant's local-memory form (the GPU's; after azint.cl and azint_local.cl,
// whose helpers it uses): each work-group sums AZ_PER_ITEM x group-size pixels of one frame into
// a local histogram of every bin (runs of AZ_RUN consecutive pixels summed in registers first),
// then adds its non-empty bins to the global sums (zeroed before) with one atomic each (two
// where it counts; with static counts an invalid value takes its pixel off the global count
// instead): contention on local memory, one global atomic per bin and group. Global size
// (pixels / AZ_PER_ITEM, frames).

#if AZ_LOCAL_BINS

// Each work-item reads AZ_RUN consecutive pixels at a time (consecutive work-items the next
// ones) and sums those of one bin in registers first: neighbouring pixels of a row mostly share
// a bin, so the local atomics, contended where a ring's pixels meet, drop by up to AZ_RUN.
__kernel void azint_histogram_local(__global const DATA_T* frames, __global const int* bin_of_pixel,
                                    uint pixels, uint bins, __global az_sum* sum_signal,
                                    __global uint* count) {
    __local az_local_sum signal[AZ_LOCAL_BINS];
    __local uint n[AZ_COUNT_SLOTS(AZ_LOCAL_BINS)];
    const size_t t = get_global_id(1), lid = get_local_id(0), size = get_local_size(0);
    for (size_t b = lid; b < bins; b += size) {
        signal[b] = 0;
        if (!AZ_STATIC_COUNTS) n[b] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const size_t first = get_group_id(0) * size * AZ_PER_ITEM;
    __global const DATA_T* frame = frames + t * pixels;
    for (size_t i = 0; i < AZ_PER_ITEM; i += AZ_RUN) {
        const size_t k0 = first + i * size + lid * AZ_RUN;
        int run = -1; // the bin of the run summed in s, m
        az_local_sum s = 0;
        uint m = 0;
        for (size_t r = 0; r < AZ_RUN; ++r) {
            const size_t k = k0 + r;
            if (k >= pixels) break;
            const int b = bin_of_pixel[k];
            if (b < 0) continue;
            const DATA_T v = frame[k];
            if (!azint_valid(v)) {
                azint_drop(count + t * bins + (size_t)b);
                continue;
            }
            if (b != run) {
                if (m) azint_local_flush(signal, n, run, s, m);
                run = b, s = 0, m = 0;
            }
            s += azint_local_value(v), ++m;
        }
        if (m) azint_local_flush(signal, n, run, s, m);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t b = lid; b < bins; b += size)
        if (azint_local_used(signal, n, b))
            azint_global_flush(sum_signal, count, t * bins + b, signal[b], azint_local_count(n, b));
}

#endif
