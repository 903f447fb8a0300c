// azint's own design, `sorted` (after azint.cl, whose helpers it uses): the binned pixels
// presorted by bin (the CSR matrix's pixel list as a permutation, with each entry's bin and
// normalisation stored in that order), cut into equal chunks of AZ_WG entries, one work-group
// a chunk. Every work-item gathers one value through the permutation, and the group sums its
// entries by bin with a segmented scan in local memory (the keys are sorted, so each bin is one
// run). A bin wholly inside a chunk is stored; the at most two that cross a chunk's ends are
// added with atomics (outputs zeroed before). Equal work per work-item whatever the bins' sizes
// (csr's work-item per bin waits for its largest bin), reads of the sorted arrays coalesced,
// and at most two atomics per group (histogram: one per pixel). Global size (entries, frames).
//
// Set by the host (-D): AZ_WG  the work-group size (a power of two)

#if !defined(AZ_WG)
#error "azint_sorted.cl needs AZ_WG"
#endif

__kernel __attribute__((reqd_work_group_size(AZ_WG, 1, 1))) void
azint_sorted(__global const DATA_T* frames, __global const int* sorted_pixel,
             __global const int* sorted_bin, __global const double* sorted_norm, uint entries,
             uint pixels, uint bins, __global double* sum_signal,
             __global double* sum_normalization, __global uint* count) {
    __local double signal[AZ_WG], norm[AZ_WG];
    __local uint n[AZ_WG];
    __local int key[AZ_WG];
    const size_t i = get_global_id(0), t = get_global_id(1), lid = get_local_id(0);
    int b = -1;
    double s = 0.0, c = 0.0;
    uint m = 0;
    if (i < entries) {
        b = sorted_bin[i];
        const DATA_T v = frames[t * pixels + (size_t)sorted_pixel[i]];
        if (azint_valid(v)) s = (double)v, c = sorted_norm[i], m = 1;
    }
    key[lid] = b, signal[lid] = s, norm[lid] = c, n[lid] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < AZ_WG; offset <<= 1) { // inclusive scan within each run
        const bool take = lid >= offset && key[lid - offset] == b;
        double ps = 0.0, pc = 0.0;
        uint pm = 0;
        if (take) ps = signal[lid - offset], pc = norm[lid - offset], pm = n[lid - offset];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (take) signal[lid] += ps, norm[lid] += pc, n[lid] += pm;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (b < 0) return;
    const bool last = lid == AZ_WG - 1 || key[lid + 1] != b;
    if (!last) return;
    const size_t at = t * bins + (size_t)b;
    if (key[0] == b || lid == AZ_WG - 1) { // the run may continue in a neighbouring chunk
        azint_atomic_add(sum_signal + at, signal[lid]);
        azint_atomic_add(sum_normalization + at, norm[lid]);
        atomic_add(count + at, n[lid]);
    } else {
        sum_signal[at] = signal[lid];
        sum_normalization[at] = norm[lid];
        count[at] = n[lid];
    }
}
