// azint's own design, `sorted` (after azint.cl, whose helpers it uses): the binned pixels
// presorted by bin (the CSR matrix's pixel list as a permutation, with each entry's bin stored in
// that order), cut into equal chunks of AZ_WG entries, one work-group a chunk and AZ_FRAMES
// frames. Every work-item reads its entry's pixel and bin once and gathers the value from each
// frame; for each frame the group sums its entries by bin with a segmented scan in local memory
// (the keys are sorted, so each bin is one run). A bin wholly inside a chunk is stored; the at
// most two that cross a chunk's ends are added with atomics (outputs zeroed before). Equal work
// per work-item whatever the bins' sizes (csr's work-item per bin waits for its largest bin),
// reads of the sorted arrays coalesced, and at most two atomics per group (histogram: one per
// pixel). Integer frames scan 64-bit integers (exact: the reference's sums bit for bit), float
// frames doubles (within rounding). Global size (entries, frames / AZ_FRAMES).
//
// Set by the host (-D): AZ_WG  the work-group size (a power of two); AZ_FRAMES

#if !defined(AZ_WG) || !defined(AZ_FRAMES)
#error "azint_sorted.cl needs AZ_WG and AZ_FRAMES"
#endif

__kernel __attribute__((reqd_work_group_size(AZ_WG, 1, 1))) void
azint_sorted(__global const DATA_T* frames, __global const int* sorted_pixel,
             __global const int* sorted_bin, uint entries, uint pixels, uint bins,
             uint frame_count, __global az_sum* sum_signal, __global uint* count) {
    __local az_sum signal[AZ_WG];
    __local uint n[AZ_WG];
    __local int key[AZ_WG];
    const size_t i = get_global_id(0), lid = get_local_id(0);
    const size_t t0 = get_global_id(1) * AZ_FRAMES;
    int b = -1;
    size_t pixel = 0;
    if (i < entries) b = sorted_bin[i], pixel = (size_t)sorted_pixel[i];
    key[lid] = b;
    barrier(CLK_LOCAL_MEM_FENCE);
    const bool last = b >= 0 && (lid == AZ_WG - 1 || key[lid + 1] != b);
    const bool shared = key[0] == b || lid == AZ_WG - 1; // may continue in a neighbouring chunk
    for (size_t t = t0; t < t0 + AZ_FRAMES && t < frame_count; ++t) { // the same for the group
        az_sum s = 0;
        uint m = 0;
        if (b >= 0) {
            const DATA_T v = frames[t * pixels + pixel];
            if (azint_valid(v)) s = (az_sum)v, m = 1;
        }
        signal[lid] = s, n[lid] = m;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint offset = 1; offset < AZ_WG; offset <<= 1) { // inclusive scan within each run
            const bool take = lid >= offset && key[lid - offset] == b;
            az_sum ps = 0;
            uint pm = 0;
            if (take) ps = signal[lid - offset], pm = n[lid - offset];
            barrier(CLK_LOCAL_MEM_FENCE);
            if (take) signal[lid] += ps, n[lid] += pm;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (last) {
            const size_t at = t * bins + (size_t)b;
            if (shared) {
                azint_global_add(sum_signal + at, signal[lid]);
                atomic_add(count + at, n[lid]);
            } else {
                sum_signal[at] = signal[lid];
                count[at] = n[lid];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE); // signal and n are rewritten for the next frame
    }
}
