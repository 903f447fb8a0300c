// azint's own design, `sorted` (after azint.cl, whose helpers it uses): the binned pixels
// presorted by bin (the CSR matrix's pixel list as a permutation, with each entry's bin stored in
// that order), cut into equal chunks of AZ_WG entries, one work-group a chunk and AZ_FRAMES
// frames. Every work-item reads its entry's pixel and bin once and gathers the value from each
// frame; for each frame the group sums its entries by bin with a segmented scan in local memory
// (the keys are sorted, so each bin is one run). A bin wholly inside a chunk is stored; the at
// most two that cross a chunk's ends are added with atomics (outputs zeroed before). Equal work
// per work-item whatever the bins' sizes (csr's work-item per bin waits for its largest bin),
// reads of the sorted arrays coalesced, and at most two atomics per group (histogram: one per
// pixel). Doubles for float frames (within rounding), or 64-bit integers with AZ_INT_SUM where
// azint_sorted_runs (below, integer frames) is not taken. Global size (entries, frames /
// AZ_FRAMES).
//
// Set by the host (-D): AZ_WG  the work-group size (a power of two); AZ_FRAMES;
// AZ_SORTED_RUN  azint_sorted_runs: entries a work-item sums

#if !defined(AZ_WG) || !defined(AZ_FRAMES) || !defined(AZ_SORTED_RUN)
#error "azint_sorted.cl needs AZ_WG, AZ_FRAMES and AZ_SORTED_RUN"
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

#if AZ_INT_SUM
// A run of entries in one bin: into the chunk's local slot of the bin, or, where the chunk's
// bins span more than its slots (empty bins between them: near the beam, sparse cakes), into
// the global sums with atomics.
inline void azint_sorted_flush(__local ulong* signal, __local uint* n, bool in_slots, int run,
                               int first, ulong s, uint m, __global long* sum_signal,
                               __global uint* count, size_t row) {
    if (in_slots) {
        atom_add(signal + run, s);
        atomic_add(n + run, m);
    } else {
        atom_add(sum_signal + row + (size_t)(first + run), (long)s);
        atomic_add(count + row + (size_t)(first + run), m);
    }
}

// The same chunks for integer frames, without the scan: integer sums do not depend on the
// order, so each work-item sums its AZ_SORTED_RUN consecutive entries by bin in registers (a
// chunk mostly lies in one or two bins) and adds each run to a local slot of its bin, the
// chunk's bins being first .. last (where they fit its AZ_WG x AZ_SORTED_RUN slots); then the
// slots are stored, those of the first and last bins (which may continue in a neighbouring
// chunk) added with atomics. Global size (entries / AZ_SORTED_RUN, frames / AZ_FRAMES).
__kernel __attribute__((reqd_work_group_size(AZ_WG, 1, 1))) void
azint_sorted_runs(__global const DATA_T* frames, __global const int* sorted_pixel,
                  __global const int* sorted_bin, uint entries, uint pixels, uint bins,
                  uint frame_count, __global long* sum_signal, __global uint* count) {
    __local ulong signal[AZ_WG * AZ_SORTED_RUN];
    __local uint n[AZ_WG * AZ_SORTED_RUN];
    const size_t lid = get_local_id(0), chunk = get_group_id(0) * AZ_WG * AZ_SORTED_RUN;
    const size_t t0 = get_global_id(1) * AZ_FRAMES;
    const size_t end = min(chunk + AZ_WG * AZ_SORTED_RUN, (size_t)entries);
    const int first = sorted_bin[chunk], last = sorted_bin[end - 1];
    const size_t span = (size_t)(last - first) + 1;
    const bool in_slots = span <= AZ_WG * AZ_SORTED_RUN; // the same for the group
    int slot[AZ_SORTED_RUN]; // each entry's bin - first; -1 past the end
    size_t pixel[AZ_SORTED_RUN];
    for (uint r = 0; r < AZ_SORTED_RUN; ++r) {
        const size_t i = chunk + lid * AZ_SORTED_RUN + r;
        slot[r] = i < end ? sorted_bin[i] - first : -1;
        pixel[r] = i < end ? (size_t)sorted_pixel[i] : 0;
    }
    for (size_t t = t0; t < t0 + AZ_FRAMES && t < frame_count; ++t) { // the same for the group
        for (size_t k = lid; in_slots && k < span; k += AZ_WG)
            signal[k] = 0, n[k] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        int run = -1;
        ulong s = 0;
        uint m = 0;
        for (uint r = 0; r < AZ_SORTED_RUN; ++r) {
            if (slot[r] < 0) break;
            const DATA_T v = frames[t * pixels + pixel[r]];
            if (!azint_valid(v)) continue;
            if (slot[r] != run) {
                if (m)
                    azint_sorted_flush(signal, n, in_slots, run, first, s, m, sum_signal, count,
                                       t * bins);
                run = slot[r], s = 0, m = 0;
            }
            s += (ulong)(long)v, ++m;
        }
        if (m)
            azint_sorted_flush(signal, n, in_slots, run, first, s, m, sum_signal, count,
                               t * bins);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (size_t k = lid; in_slots && k < span; k += AZ_WG) {
            if (!n[k]) continue;
            const int b = first + (int)k;
            const size_t at = t * bins + (size_t)b;
            if (b == first || b == last) {
                atom_add(sum_signal + at, (long)signal[k]);
                atomic_add(count + at, n[k]);
            } else {
                sum_signal[at] = (long)signal[k];
                count[at] = n[k];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE); // the slots are zeroed for the next frame
    }
}
#endif
