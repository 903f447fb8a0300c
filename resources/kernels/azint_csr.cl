// The csr variant's kernel for integer frames (after azint.cl, whose helpers it uses): a
// work-group per bin and AZ_FRAMES frames. Its work-items stride over the bin's row of the CSR
// matrix, read each pixel index once and gather it from every frame, summing in 64-bit
// integers; then a reduction in local memory. Integer sums are exact, so the order does not
// matter and the sums are the reference's bit for bit (the host's bound: below 2^53). Large
// bins get a whole group, where azint_csr's work-item per bin waits for its largest bin.
// Global size (bins x AZ_CSR_WG, frames / AZ_FRAMES).

#if AZ_INT_SUM

__kernel __attribute__((reqd_work_group_size(AZ_CSR_WG, 1, 1))) void
azint_csr_group(__global const DATA_T* frames, __global const long* row_start,
                __global const int* row_pixels, uint pixels, uint bins, uint frame_count,
                __global long* sum_signal, __global uint* count) {
    __local long partial[AZ_CSR_WG];
    __local uint partial_n[AZ_CSR_WG];
    const size_t b = get_group_id(0), lid = get_local_id(0);
    const size_t t0 = get_global_id(1) * AZ_FRAMES;
    long s[AZ_FRAMES];
    uint n[AZ_FRAMES];
    for (uint f = 0; f < AZ_FRAMES; ++f)
        s[f] = 0, n[f] = 0;
    const size_t left = (size_t)frame_count - min(t0, (size_t)frame_count);
    const uint here = (uint)min((size_t)AZ_FRAMES, left); // frames of this group
    const long end = row_start[b + 1];
    for (long i = row_start[b] + (long)lid; i < end; i += AZ_CSR_WG) {
        __global const DATA_T* pixel = frames + t0 * pixels + (size_t)row_pixels[i];
        for (uint f = 0; f < AZ_FRAMES; ++f) {
            if (f >= here) break;
            const DATA_T v = pixel[f * (size_t)pixels];
            if (azint_valid(v)) s[f] += (long)v, n[f] += 1;
        }
    }
    for (uint f = 0; f < here; ++f) { // `here` is the same for the whole group
        partial[lid] = s[f], partial_n[lid] = n[f];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint span = AZ_CSR_WG; span > 1;) { // any group size
            const uint upper = (span + 1) / 2;
            if (lid + upper < span)
                partial[lid] += partial[lid + upper], partial_n[lid] += partial_n[lid + upper];
            span = upper;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) {
            const size_t at = (t0 + f) * bins + b;
            sum_signal[at] = partial[0];
            count[at] = partial_n[0];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#endif
