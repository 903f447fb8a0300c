// cluster, variant cmssw: CMSSW findClus re-done in one launch. One work-group per module
// (grid-stride over the active modules): the module's digis sorted by input index (so a
// cluster's lowest position is its lowest digi), duplicate bitmap in local memory, column
// histogram, forward neighbour lists, atomic-min hooking of roots with pointer jumping
// (cluster_steps.cl), then the charge cut and numbering (renumber_module, cluster_common.cl).
// Writes the sorted digis, each digi's root (its cluster's lowest position, -1 for a
// duplicate), each digi's number in its module at its input index
// and its clusters' sums. A module of up to CMSSW_LOCAL_CAP digis is worked on in local memory;
// a larger one of up to ARENA_WORDS / 2 (about 2.6 CMSSW_LOCAL_CAP) sorts and keeps its pixels
// and labels in local memory, its column order and neighbour lists in global scratch (mixed);
// a larger one still, all in global scratch: the same launch takes every path.
#define BITMAP_WORDS (CLUSTER_SIZE_X * CLUSTER_SIZE_Y / 32)
// Words of the local arena: per digi a pixel, a label, an order entry, the neighbours, a count.
#define ARENA_WORDS ((CMSSW_LOCAL_CAP * (4 + 4 + 2 + 2 * CMSSW_MAX_NEIGHBOURS + 1) + 3) / 4)
// After clustering, the arena holds the module's sums rows (at least one row).
#define ARENA_ROWS (ARENA_WORDS > SUMS_STRIDE ? ARENA_WORDS / SUMS_STRIDE : 1)
#define ARENA_ALLOC (ARENA_WORDS > SUMS_STRIDE ? ARENA_WORDS : SUMS_STRIDE)

PER_MODULE_KERNEL void cluster_cmssw(global const uint* moduleStart, global const ushort* active,
                          global uint* totals, global uint* sortedIndex,
                          global const ushort* module, global const ushort* x,
                          global const ushort* y, global const ushort* adc,
                          global uint* sortedPix, global ushort* sortedAdc,
                          global ushort* sortedModule, global int* rootOut,
                          global uint* orderScratch, global uint* neighbourScratch,
                          global uchar* countScratch, global ulong* charge,
                          global uint* rank, global int* id,
                          global uint* sums, ulong inner,
                          ulong outer, uint innerModules) {
    local uint seen[BITMAP_WORDS], twice[BITMAP_WORDS];
    local uint columnCount[CLUSTER_SIZE_Y], columnStart[CLUSTER_SIZE_Y + 1], tmp[CLUSTER_WG];
    local int changed;
    // One arena for the per-digi arrays of a module in local memory; a larger module of up to
    // ARENA_WORDS / 2 digis keeps its pixels and labels in the whole arena (the mixed path).
    local ulong arena64[(ARENA_ALLOC + 1) / 2]; // 8-byte aligned: the sums rows reuse it
    local uint* arena = (local uint*)arena64;
    local uint* pixL = arena;
    local int* labelL = (local int*)(arena + CMSSW_LOCAL_CAP); // the sort keys first, then the labels
    local ushort* orderL = (local ushort*)(arena + 2 * CMSSW_LOCAL_CAP);
    local ushort* neighboursL = orderL + CMSSW_LOCAL_CAP;
    local uchar* countL = (local uchar*)(neighboursL + CMSSW_LOCAL_CAP * CMSSW_MAX_NEIGHBOURS);
    const uint lid = get_local_id(0);
    for (uint w = lid; w < BITMAP_WORDS; w += CLUSTER_WG) seen[w] = 0, twice[w] = 0;
    for (uint k = get_group_id(0); k < totals[1]; k += get_num_groups(0)) {
        const uint m = active[k], start = moduleStart[m], n = moduleStart[m + 1] - start;
        if (n <= CMSSW_LOCAL_CAP) {
            local uint* keys = (local uint*)labelL;
            for (uint p = lid; p < n; p += CLUSTER_WG) keys[p] = sortedIndex[start + p];
            barrier(CLK_LOCAL_MEM_FENCE);
            sort_module_local(keys, n, start, sortedIndex, module, x, y, adc, sortedPix,
                              sortedAdc, sortedModule, pixL);
            cluster_module_local(pixL, n, start, labelL, orderL, neighboursL, countL, seen, twice,
                                 columnCount, columnStart, tmp, &changed, rootOut);
        } else if (2 * n <= ARENA_WORDS) { // pixels and labels in the arena, the rest global
            local uint* pixM = arena;
            local int* labelM = (local int*)(arena + n); // the sort keys first, then the labels
            for (uint p = lid; p < n; p += CLUSTER_WG) labelM[p] = (int)sortedIndex[start + p];
            barrier(CLK_LOCAL_MEM_FENCE);
            sort_module_local((local uint*)labelM, n, start, sortedIndex, module, x, y, adc,
                              sortedPix, sortedAdc, sortedModule, pixM);
            cluster_module_mixed(pixM, n, start, labelM, orderScratch + start,
                                 neighbourScratch + (size_t)start * CMSSW_MAX_NEIGHBOURS,
                                 countScratch + start, seen, twice, columnCount, columnStart, tmp,
                                 &changed, rootOut);
        } else {
            sort_module_global(sortedIndex + start, n, start, sortedIndex, module, x, y, adc,
                               sortedPix, sortedAdc, sortedModule, 0);
            cluster_module_global(sortedPix + start, n, start, rootOut + start, orderScratch + start,
                                  neighbourScratch + (size_t)start * CMSSW_MAX_NEIGHBOURS,
                                  countScratch + start, seen, twice, columnCount, columnStart, tmp,
                                  &changed, rootOut);
        }
        renumber_module(m, start, start + n, m < innerModules ? inner : outer, rootOut,
                        sortedIndex, sortedPix, sortedAdc, charge, rank, id,
                        totals + 2, sums, tmp, arena, ARENA_ROWS);
    }
}
