// cluster: the per-module steps of a work-group, written once and compiled three times in a
// program (gpu/cluster/recipes.cpp), each after its prelude cluster_steps_<copy>.cl: SPACE holds the keys, pixels and labels, SCRATCH the column order,
// neighbour lists and counts: local/local (a module that fits in local memory, positions as
// ushort), local/global ("mixed": pixels and labels local, the rest in global scratch, positions
// as uint) and global/global (a larger module). STEP(name) gives each copy its own name
// (name_local, name_mixed, name_global), so one kernel launch takes every path, choosing per
// module. Needs SPACE, SCRATCH, IDX and STEP defined before it (its prelude); undefines them at
// its end for the next copy.

// Ascending bitonic sort of keys[0..n) (positions >= n act as +infinity, never touched):
// every comparator ascending, the first step of each stage flipped. Spans are powers of two:
// shifts and masks, no division.
void STEP(bitonic_sort)(SPACE uint* keys, uint n) {
    uint padded = 1;
    while (padded < n) padded <<= 1;
    for (uint size = 2; size <= padded; size <<= 1)
        for (uint span = size >> 1, shift = 31 - clz(span); span > 0; span >>= 1, --shift) {
            for (uint t = get_local_id(0); t < padded / 2; t += CLUSTER_WG) {
                const uint block = (t >> shift) << (shift + 1), offset = t & (span - 1);
                const uint a = block + offset;
                const uint b = span == size >> 1 ? block + size - 1 - offset : a + span;
                if (b < n && keys[a] > keys[b]) {
                    const uint k = keys[a];
                    keys[a] = keys[b], keys[b] = k;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
}

// Sort the module's input indices keys[0..n) and write its sorted index, pixel (x | y << 8),
// adc and module per position start + p; pix (when not null) gets the pixels too.
void STEP(sort_module)(SPACE uint* keys, uint n, uint start, global uint* sortedIndex,
                       global const ushort* module, global const ushort* x,
                       global const ushort* y, global const ushort* adc, global uint* sortedPix,
                       global ushort* sortedAdc, global ushort* sortedModule, SPACE uint* pix) {
    if (n > 1) STEP(bitonic_sort)(keys, n);
    for (uint p = get_local_id(0); p < n; p += CLUSTER_WG) {
        const uint i = keys[p], packed = x[i] | ((uint)y[i] << 8);
        sortedIndex[start + p] = i;
        sortedPix[start + p] = packed;
        sortedAdc[start + p] = adc[i];
        sortedModule[start + p] = module[i];
        if (pix) pix[p] = packed;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// The root of p's tree (labels only decrease and stay within the cluster).
inline int STEP(find_root)(volatile SPACE int* label, int p) {
    int l = label[p];
    while (l != p) p = l, l = label[p];
    return p;
}

// Flag every copy of a pixel seen more than once; label = own position, or -1 for a duplicate.
// The bitmap words touched are cleared again (the bitmap starts each module empty).
void STEP(mark_duplicates)(SPACE const uint* pix, uint n, SPACE int* label, local uint* seen,
                           local uint* twice, local uint* columnCount) {
    const uint lid = get_local_id(0);
    for (uint p = lid; p < n; p += CLUSTER_WG) {
        const uint cell = pix_y(pix[p]) * CLUSTER_SIZE_X + pix_x(pix[p]), bit = 1u << (cell & 31);
        if (atomic_or(&seen[cell >> 5], bit) & bit) atomic_or(&twice[cell >> 5], bit);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint p = lid; p < n; p += CLUSTER_WG) {
        const uint cell = pix_y(pix[p]) * CLUSTER_SIZE_X + pix_x(pix[p]), bit = 1u << (cell & 31);
        const bool duplicate = (twice[cell >> 5] & bit) != 0;
        label[p] = duplicate ? -1 : (int)p;
        if (!duplicate) atomic_inc(&columnCount[pix_y(pix[p])]);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint p = lid; p < n; p += CLUSTER_WG) {
        const uint cell = pix_y(pix[p]) * CLUSTER_SIZE_X + pix_x(pix[p]);
        seen[cell >> 5] = 0, twice[cell >> 5] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE); // needed: PoCL 3.1 drops the clearing loop without it
}

// Column histogram: columnStart = exclusive scan of columnCount (each work-item a run of
// columns), columnCount reset to serve as fill cursors; then each digi into its column.
void STEP(fill_columns)(SPACE const uint* pix, uint n, SPACE const int* label,
                        local uint* columnCount, local uint* columnStart, local uint* tmp,
                        SCRATCH IDX* order) {
    const uint lid = get_local_id(0);
    const uint per = (CLUSTER_SIZE_Y + CLUSTER_WG - 1) / CLUSTER_WG;
    const uint begin = min(lid * per, (uint)CLUSTER_SIZE_Y), end = min(begin + per, (uint)CLUSTER_SIZE_Y);
    uint sum = 0, total;
    for (uint c = begin; c < end; ++c) sum += columnCount[c];
    uint run = group_exclusive_scan(sum, tmp, &total);
    for (uint c = begin; c < end; ++c) columnStart[c] = run, run += columnCount[c], columnCount[c] = 0;
    if (lid == 0) columnStart[CLUSTER_SIZE_Y] = total;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint p = lid; p < n; p += CLUSTER_WG)
        if (label[p] >= 0) {
            const uint c = pix_y(pix[p]);
            order[columnStart[c] + atomic_inc(&columnCount[c])] = (IDX)p;
        }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// Forward neighbours of each digi: later entries of its own column and the next column's,
// with |dx| <= 1 (each neighbouring pair found once).
void STEP(find_neighbours)(SPACE const uint* pix, local const uint* columnStart,
                           SCRATCH const IDX* order, SCRATCH IDX* neighbours,
                           SCRATCH uchar* count) {
    const uint valid = columnStart[CLUSTER_SIZE_Y];
    for (uint j = get_local_id(0); j < valid; j += CLUSTER_WG) {
        const uint p = order[j], x = pix_x(pix[p]), c = pix_y(pix[p]);
        const uint end = columnStart[min(c + 2, (uint)CLUSTER_SIZE_Y)];
        uint found = 0;
        for (uint k = j + 1; k < end; ++k) {
            const uint q = order[k];
            if (abs_diff(pix_x(pix[q]), x) <= 1 && found < CMSSW_MAX_NEIGHBOURS)
                neighbours[p * CMSSW_MAX_NEIGHBOURS + found++] = (IDX)q;
        }
        count[p] = (uchar)found;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// Hook the larger root under the smaller one over every neighbour pair until a pass changes
// nothing, jumping pointers between passes; at the end every label is its root.
void STEP(propagate)(uint n, volatile SPACE int* label, SCRATCH const IDX* neighbours,
                     SCRATCH const uchar* count, local int* changed) {
    const uint lid = get_local_id(0);
    for (;;) {
        if (lid == 0) *changed = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint p = lid; p < n; p += CLUSTER_WG)
            for (uint k = 0; k < (label[p] >= 0 ? count[p] : 0u); ++k) {
                const int a = STEP(find_root)(label, p);
                const int b = STEP(find_root)(label, neighbours[p * CMSSW_MAX_NEIGHBOURS + k]);
                if (a != b) atomic_min(&label[max(a, b)], min(a, b)), *changed = 1;
            }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        const int again = *changed;
        for (uint p = lid; p < n; p += CLUSTER_WG)
            if (label[p] >= 0) label[p] = STEP(find_root)(label, p);
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (!again) break;
    }
}

// CMSSW findClus on one module whose pixels are pix[0..n): duplicates, column histogram,
// neighbours, propagation; rootOut[start + p] = the root's absolute position or -1.
void STEP(cluster_module)(SPACE const uint* pix, uint n, uint start, SPACE int* label,
                          SCRATCH IDX* order, SCRATCH IDX* neighbours, SCRATCH uchar* count,
                          local uint* seen, local uint* twice, local uint* columnCount,
                          local uint* columnStart, local uint* tmp, local int* changed,
                          global int* rootOut) {
    const uint lid = get_local_id(0);
    for (uint c = lid; c < CLUSTER_SIZE_Y; c += CLUSTER_WG) columnCount[c] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    STEP(mark_duplicates)(pix, n, label, seen, twice, columnCount);
    STEP(fill_columns)(pix, n, label, columnCount, columnStart, tmp, order);
    STEP(find_neighbours)(pix, columnStart, order, neighbours, count);
    STEP(propagate)(n, label, neighbours, count, changed);
    for (uint p = lid; p < n; p += CLUSTER_WG)
        rootOut[start + p] = label[p] >= 0 ? (int)start + label[p] : -1;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
#undef SPACE
#undef SCRATCH
#undef IDX
#undef STEP
