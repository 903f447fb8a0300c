// cluster: the step after the unionfind variant's roots. Charge cut, deterministic numbering
// (a cluster's number is the rank of its root, its lowest digi, among the module's surviving
// roots), ids and per-cluster integer sums per module (renumber_module, cluster_common.cl).
// The layout of the sums: SUMS_STRIDE in cluster_common.cl.


// One work-group per module (grid-stride over the active modules). The cmssw variant does the
// same inside its own kernel.
PER_MODULE_KERNEL void cluster_renumber(global const uint* moduleStart, global const ushort* active,
                             global uint* totals, global const int* root,
                             global const uint* sortedIndex, global const uint* sortedPix,
                             global const ushort* sortedAdc, global ulong* charge,
                             global uint* rank, global int* id,
                             global uint* sums, ulong inner,
                             ulong outer, uint innerModules) {
    local uint tmp[CLUSTER_WG];
    local ulong rows[RENUMBER_ROWS * SUMS_STRIDE / 2]; // the sums of RENUMBER_ROWS clusters
    for (uint k = get_group_id(0); k < totals[1]; k += get_num_groups(0)) {
        const uint m = active[k];
        renumber_module(m, moduleStart[m], moduleStart[m + 1], m < innerModules ? inner : outer,
                        root, sortedIndex, sortedPix, sortedAdc, charge, rank, id,
                        totals + 2, sums, tmp, (local uint*)rows, RENUMBER_ROWS);
    }
}
