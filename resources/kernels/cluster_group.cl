// cluster: grouping the digis by module on the device (a counting sort), then each module's
// digis sorted by input index, so that a module's positions follow the input order and the
// lowest position of a cluster is its lowest digi. Built twice: SORT_GLOBAL=0 sorts modules of
// up to SORT_LOCAL_CAP digis in local memory, SORT_GLOBAL=1 the larger ones in global memory.
#ifndef SORT_GLOBAL
#define SORT_GLOBAL 0
#endif
#ifndef SORT_LOCAL_CAP
#define SORT_LOCAL_CAP 2048
#endif
#ifndef SCAN_WG
#define SCAN_WG 256
#endif
#if SORT_GLOBAL
#define SORT_SPACE global
#else
#define SORT_SPACE local
#endif

// Valid digis per module and the largest module id; invalid digis get id -1 here.
kernel void cluster_count(global const ushort* module, uint n, global uint* moduleCount,
                          global uint* totals, global int* id) {
    local uint groupMax;
    const uint i = get_global_id(0);
    if (get_local_id(0) == 0) groupMax = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) {
        const uint m = module[i];
        if (m == CLUSTER_INVALID) id[i] = -1;
        else atomic_inc(&moduleCount[m]), atomic_max(&groupMax, m);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) atomic_max(&totals[3], groupMax);
}

// Exclusive scan of count[0..len) into start[0..len] by one work-group of SCAN_WG, each
// work-item a contiguous run; with `compact`, also the list of entries with count > 0 into
// active (activeIndex[entry] = its place, totals[1] = their number).
// len = totals[lenAt] + lenAdd; totals[totalAt] = the sum.
kernel void cluster_scan(global const uint* count, global uint* totals, uint lenAt, uint lenAdd,
                         global uint* start, uint compact, global ushort* active,
                         global uint* activeIndex, uint totalAt) {
    local uint sums[SCAN_WG], nonzero[SCAN_WG];
    const uint lid = get_local_id(0), len = totals[lenAt] + lenAdd;
    const uint per = (len + SCAN_WG - 1) / SCAN_WG;
    const uint begin = min(lid * per, len), end = min(begin + per, len);
    uint sum = 0, used = 0;
    for (uint i = begin; i < end; ++i) sum += count[i], used += count[i] != 0;
    sums[lid] = sum, nonzero[lid] = used;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < SCAN_WG; offset <<= 1) {
        const uint s = lid >= offset ? sums[lid - offset] : 0u;
        const uint u = lid >= offset ? nonzero[lid - offset] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        sums[lid] += s, nonzero[lid] += u;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint run = sums[lid] - sum, place = nonzero[lid] - used;
    for (uint i = begin; i < end; ++i) {
        const uint c = count[i];
        start[i] = run;
        run += c;
        if (compact && c != 0) active[place] = (ushort)i, activeIndex[i] = place++;
    }
    if (lid == SCAN_WG - 1) {
        start[len] = run;
        totals[totalAt] = run;
        if (compact) totals[1] = place;
    }
}

// Each valid digi to a free slot of its module's range (order within the module arbitrary;
// the counts return to zero).
kernel void cluster_scatter(global const ushort* module, uint n, global const uint* moduleStart,
                            global uint* moduleCount, global uint* sortedIndex) {
    const uint i = get_global_id(0);
    if (i >= n || module[i] == CLUSTER_INVALID) return;
    const uint m = module[i];
    sortedIndex[moduleStart[m] + atomic_dec(&moduleCount[m]) - 1] = i;
}

// Ascending bitonic sort of keys[0..n) (positions >= n act as +infinity, never touched):
// every comparator ascending, the first step of each stage flipped.
void bitonic_sort(SORT_SPACE uint* keys, uint n) {
    uint padded = 1;
    while (padded < n) padded <<= 1;
    for (uint size = 2; size <= padded; size <<= 1)
        for (uint span = size >> 1; span > 0; span >>= 1) {
            for (uint t = get_local_id(0); t < padded / 2; t += CLUSTER_WG) {
                const uint block = t / span * (span * 2), offset = t % span;
                const uint a = block + offset;
                const uint b = span == size >> 1 ? block + size - 1 - offset : a + span;
                if (b < n && keys[a] > keys[b]) {
                    const uint k = keys[a];
                    keys[a] = keys[b], keys[b] = k;
                }
            }
            barrier(SORT_GLOBAL ? CLK_GLOBAL_MEM_FENCE : CLK_LOCAL_MEM_FENCE);
        }
}

// One work-group per module (grid-stride over the active modules): sort the module's input
// indices, then write its sorted pixels (x | y << 8), adc and module per position.
kernel void cluster_sort(global const uint* moduleStart, global const ushort* active,
                         global const uint* totals, global uint* sortedIndex,
                         global const ushort* module, global const ushort* x,
                         global const ushort* y, global const ushort* adc,
                         global uint* sortedPix, global ushort* sortedAdc,
                         global ushort* sortedModule) {
#if !SORT_GLOBAL
    local uint keys[SORT_LOCAL_CAP];
#endif
    const uint lid = get_local_id(0);
    for (uint k = get_group_id(0); k < totals[1]; k += get_num_groups(0)) {
        const uint m = active[k], start = moduleStart[m], n = moduleStart[m + 1] - start;
        if ((n > SORT_LOCAL_CAP) != SORT_GLOBAL) continue;
#if SORT_GLOBAL
        global uint* keys = sortedIndex + start;
#else
        for (uint p = lid; p < n; p += CLUSTER_WG) keys[p] = sortedIndex[start + p];
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        if (n > 1) bitonic_sort(keys, n);
        for (uint p = lid; p < n; p += CLUSTER_WG) {
            const uint i = keys[p];
            sortedIndex[start + p] = i;
            sortedPix[start + p] = x[i] | ((uint)y[i] << 8);
            sortedAdc[start + p] = adc[i];
            sortedModule[start + p] = module[i];
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
}
