// cluster: each module's digis sorted by input index after the grouping of cluster_group.cl.

// One work-group per module (grid-stride over the active modules): sort the module's input
// indices (in local memory up to SORT_LOCAL_CAP digis, else in place in global memory), then
// write its sorted pixels (x | y << 8), adc and module per position (cluster_steps.cl). The
// cmssw variant sorts inside its own kernel; unionfind uses this one.
PER_MODULE_KERNEL void cluster_sort(global const uint* moduleStart, global const ushort* active,
                         global const uint* totals, global uint* sortedIndex,
                         global const ushort* module, global const ushort* x,
                         global const ushort* y, global const ushort* adc,
                         global uint* sortedPix, global ushort* sortedAdc,
                         global ushort* sortedModule) {
    local uint keys[SORT_LOCAL_CAP];
    const uint lid = get_local_id(0);
    for (uint k = get_group_id(0); k < totals[1]; k += get_num_groups(0)) {
        const uint m = active[k], start = moduleStart[m], n = moduleStart[m + 1] - start;
        if (n <= SORT_LOCAL_CAP) {
            for (uint p = lid; p < n; p += CLUSTER_WG) keys[p] = sortedIndex[start + p];
            barrier(CLK_LOCAL_MEM_FENCE);
            sort_module_local(keys, n, start, sortedIndex, module, x, y, adc, sortedPix,
                              sortedAdc, sortedModule, 0);
        } else {
            sort_module_global(sortedIndex + start, n, start, sortedIndex, module, x, y, adc,
                               sortedPix, sortedAdc, sortedModule, 0);
        }
    }
}
