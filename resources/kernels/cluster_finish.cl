// cluster: the steps after the variants' roots, shared by cmssw and unionfind. Charge cut and
// deterministic numbering per module (a cluster's number is the rank of its root, its lowest
// digi, among the module's surviving roots), then the per-cluster integer sums.
// The layout of the sums: SUMS_STRIDE in cluster_common.cl.

// One work-group per module (grid-stride over the active modules): charge cut and numbering
// (renumber_module, cluster_common.cl). The cmssw variant does it inside its own kernel.
kernel void cluster_renumber(global const uint* moduleStart, global const ushort* active,
                             global const uint* totals, global const int* root,
                             global const ushort* sortedAdc, global uint* chargeLo,
                             global uint* chargeHi, global uint* rank, global int* localId,
                             global uint* moduleClusters, global uint* sums, ulong inner,
                             ulong outer, uint innerModules) {
    local uint tmp[CLUSTER_WG];
    for (uint k = get_group_id(0); k < totals[1]; k += get_num_groups(0)) {
        const uint m = active[k];
        renumber_module(k, moduleStart[m], moduleStart[m + 1], m < innerModules ? inner : outer,
                        root, sortedAdc, chargeLo, chargeHi, rank, localId, moduleClusters, sums, tmp);
    }
}

// One work-item per position: the digi's id, and its pixel added to its cluster's sums.
kernel void cluster_sums(global const uint* totals, global const uint* sortedIndex,
                         global const int* localId, global const uint* sortedPix,
                         global const ushort* sortedAdc, global const ushort* sortedModule,
                         global const uint* activeIndex, global const uint* clusterStart,
                         global int* id, global uint* sums) {
    const uint p = get_global_id(0);
    if (p >= totals[0]) return;
    const int number = localId[p];
    id[sortedIndex[p]] = number;
    if (number < 0) return;
    const uint m = sortedModule[p], x = pix_x(sortedPix[p]), y = pix_y(sortedPix[p]);
    const uint adc = sortedAdc[p];
    global uint* s = sums + (size_t)(clusterStart[activeIndex[m]] + number) * SUMS_STRIDE;
    s[0] = m;
    atomic_inc(&s[1]);
    atomic_max(&s[2], x), atomic_max(&s[3], CLUSTER_SIZE_X - 1 - x);
    atomic_max(&s[4], y), atomic_max(&s[5], CLUSTER_SIZE_Y - 1 - y);
    add64_global(&s[6], &s[7], adc);
    add64_global(&s[8], &s[9], adc * (2 * x + 1));
    add64_global(&s[10], &s[11], adc * (2 * y + 1));
    atomic_add(&s[SUM_PLAIN_X], 2 * x + 1), atomic_add(&s[SUM_PLAIN_Y], 2 * y + 1);
}
