// cluster: grouping the digis by module on the device (a counting sort), then each module's
// digis sorted by input index, so that a module's positions follow the input order and the
// lowest position of a cluster is its lowest digi.

// Digis arrive mostly grouped by module (as detectors read them out): a run of equal module ids
// within an aligned block of CLUSTER_RUN digis is counted by its first digi with one atomic,
// instead of one atomic per digi on the same address (any order stays correct: runs of one).
inline uint cluster_run(global const ushort* module, uint n, uint i) {
    const ushort m = module[i];
    if (i % CLUSTER_RUN != 0 && module[i - 1] == m) return 0; // not the run's first digi
    const uint end = min(n, (i / CLUSTER_RUN + 1) * CLUSTER_RUN);
    uint j = i + 1;
    while (j < end && module[j] == m) ++j;
    return j - i;
}

// Valid digis per module and the largest module id; invalid digis get id -1 here.
kernel void cluster_count(global const ushort* module, uint n, global uint* moduleCount,
                          global uint* totals, global int* id) {
    local uint groupMax;
    const uint i = get_global_id(0);
    if (get_local_id(0) == 0) groupMax = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i < n) {
        const uint m = module[i];
        if (m == CLUSTER_INVALID) {
            id[i] = -1;
        } else {
            const uint run = cluster_run(module, n, i);
            if (run) atomic_add(&moduleCount[m], run), atomic_max(&groupMax, m);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) atomic_max(&totals[3], groupMax);
}

// Exclusive scan of the module counts count[0..len) into start[0..len] by one work-group of
// SCAN_WG, and the list of modules with count > 0 into active. len = totals[3] + 1 (the largest
// module id + 1); totals[0] = the sum (valid digis), totals[1] = the active modules. The counts
// go through local memory a tile of SCAN_WG * SCAN_PER at a time (coalesced loads and stores);
// within a tile each work-item scans a contiguous run of SCAN_PER.
kernel void cluster_scan(global const uint* count, global uint* totals, global uint* start,
                         global ushort* active) {
    local uint tile[SCAN_WG * SCAN_PER], sums[SCAN_WG], nonzero[SCAN_WG];
    const uint lid = get_local_id(0), len = totals[3] + 1;
    uint run = 0, place = 0; // digis and active modules before the tile
    for (uint base = 0; base < len; base += SCAN_WG * SCAN_PER) {
        for (uint j = 0; j < SCAN_PER; ++j) {
            const uint i = base + j * SCAN_WG + lid;
            tile[j * SCAN_WG + lid] = i < len ? count[i] : 0u;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        local uint* mine = tile + lid * SCAN_PER;
        uint sum = 0, used = 0;
        for (uint j = 0; j < SCAN_PER; ++j) sum += mine[j], used += mine[j] != 0;
        sums[lid] = sum, nonzero[lid] = used;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint offset = 1; offset < SCAN_WG; offset <<= 1) {
            const uint s = lid >= offset ? sums[lid - offset] : 0u;
            const uint u = lid >= offset ? nonzero[lid - offset] : 0u;
            barrier(CLK_LOCAL_MEM_FENCE);
            sums[lid] += s, nonzero[lid] += u;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        uint r = run + sums[lid] - sum, at = place + nonzero[lid] - used;
        for (uint j = 0; j < SCAN_PER; ++j) {
            const uint c = mine[j];
            if (c != 0) active[at++] = (ushort)(base + lid * SCAN_PER + j);
            mine[j] = r, r += c;
        }
        run += sums[SCAN_WG - 1], place += nonzero[SCAN_WG - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < SCAN_PER; ++j) {
            const uint i = base + j * SCAN_WG + lid;
            if (i < len) start[i] = tile[j * SCAN_WG + lid];
        }
        barrier(CLK_LOCAL_MEM_FENCE); // the next tile overwrites tile, sums and nonzero
    }
    if (lid == 0) {
        start[len] = run;
        totals[0] = run;
        totals[1] = place;
    }
}

// Each valid digi to a free slot of its module's range (order within the module arbitrary;
// the counts return to zero): a run's first digi takes the run's slots with one atomic.
kernel void cluster_scatter(global const ushort* module, uint n, global const uint* moduleStart,
                            global uint* moduleCount, global uint* sortedIndex) {
    const uint i = get_global_id(0);
    if (i >= n || module[i] == CLUSTER_INVALID) return;
    const uint m = module[i], run = cluster_run(module, n, i);
    if (run == 0) return;
    const uint first = moduleStart[m] + atomic_sub(&moduleCount[m], run) - run;
    for (uint k = 0; k < run; ++k) sortedIndex[first + k] = i + k;
}
