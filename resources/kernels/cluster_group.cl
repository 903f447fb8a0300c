// cluster: grouping the digis by module on the device (a counting sort), then each module's
// digis sorted by input index, so that a module's positions follow the input order and the
// lowest position of a cluster is its lowest digi.
#ifndef SCAN_WG
#define SCAN_WG 256
#endif

// Digis arrive mostly grouped by module (as detectors read them out): a run of equal module ids
// within an aligned block of CLUSTER_RUN digis is counted by its first digi with one atomic,
// instead of one atomic per digi on the same address (any order stays correct: runs of one).
#ifndef CLUSTER_RUN
#define CLUSTER_RUN 32
#endif
inline uint cluster_run(global const ushort* module, uint n, uint i) {
    const ushort m = module[i];
    if (i % CLUSTER_RUN != 0 && module[i - 1] == m) return 0; // not the run's first digi
    const uint end = min(n, (i / CLUSTER_RUN + 1) * CLUSTER_RUN);
    uint j = i + 1;
    while (j < end && module[j] == m) ++j;
    return j - i;
}

kernel void cluster_scan(global const uint* count, global uint* totals, uint lenAt, uint lenAdd,
                         global uint* start, uint compact, global ushort* active,
                         global uint* activeIndex, uint totalAt) {
    local uint sums[SCAN_WG], nonzero[SCAN_WG];
    cluster_scan_wg(count, totals, lenAt, lenAdd, start, compact, active, activeIndex, totalAt,
                    sums, nonzero, SCAN_WG);
}

// Valid digis per module and the largest module id; invalid digis get id -1 here. The last
// work-group to finish then scans the counts into moduleStart and the active module list (what
// a separate cluster_scan launch did): one launch less.
kernel __attribute__((reqd_work_group_size(CLUSTER_WG, 1, 1)))
void cluster_count(global const ushort* module, uint n, global uint* moduleCount,
                   global uint* totals, global int* id, global uint* moduleStart,
                   global ushort* active, global uint* activeIndex) {
    local uint groupMax, sums[CLUSTER_WG], nonzero[CLUSTER_WG];
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
    // Modules 0..totals[3]; totals[0] = valid digis, totals[1] = active modules.
    if (cluster_last_group(&totals[CLUSTER_TICKET_COUNT], &groupMax))
        cluster_scan_wg(moduleCount, totals, 3, 1, moduleStart, 1, active, activeIndex, 0, sums,
                        nonzero, CLUSTER_WG);
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
