// cluster, variant cmssw: CMSSW findClus re-done. One work-group per module (grid-stride over
// the active modules): duplicate bitmap in local memory, column histogram, forward
// neighbour lists, atomic-min hooking of roots with pointer jumping. Writes each digi's root
// (its cluster's lowest position, so its lowest digi) or -1 for a duplicate.
// Built twice: CMSSW_GLOBAL=0 keeps a module's digis in local memory (modules of up to
// CMSSW_LOCAL_CAP digis), CMSSW_GLOBAL=1 takes the larger ones from global scratch.
#ifndef CMSSW_GLOBAL
#define CMSSW_GLOBAL 0
#endif
#ifndef CMSSW_LOCAL_CAP
#define CMSSW_LOCAL_CAP 1024
#endif
#define CMSSW_MAX_NEIGHBOURS 5 // forward 8-neighbours of a pixel without duplicates
#define BITMAP_WORDS (CLUSTER_SIZE_X * CLUSTER_SIZE_Y / 32)
#if CMSSW_GLOBAL
#define SPACE global
typedef uint index_t;
#else
#define SPACE local
typedef ushort index_t;
#endif

// The root of p's tree (labels only decrease and stay within the cluster).
inline int find_root(volatile SPACE int* label, int p) {
    int l = label[p];
    while (l != p) p = l, l = label[p];
    return p;
}

// Flag every copy of a pixel seen more than once; label = own position, or -1 for a duplicate.
// The bitmap words touched are cleared again (the bitmap starts each module empty).
void mark_duplicates(SPACE const uint* pix, uint n, SPACE int* label, local uint* seen,
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
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint p = lid; p < n; p += CLUSTER_WG) {
        const uint cell = pix_y(pix[p]) * CLUSTER_SIZE_X + pix_x(pix[p]);
        seen[cell >> 5] = 0, twice[cell >> 5] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE); // needed: PoCL 3.1 drops the clearing loop without it
}

// Column histogram: columnStart = exclusive scan of columnCount (each work-item a run of
// columns), columnCount reset to serve as fill cursors; then each digi into its column.
void fill_columns(SPACE const uint* pix, uint n, SPACE const int* label, local uint* columnCount,
                  local uint* columnStart, local uint* tmp, SPACE index_t* order) {
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
            order[columnStart[c] + atomic_inc(&columnCount[c])] = (index_t)p;
        }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// Forward neighbours of each digi: later entries of its own column and the next column's,
// with |dx| <= 1 (each neighbouring pair found once).
void find_neighbours(SPACE const uint* pix, local const uint* columnStart,
                     SPACE const index_t* order, SPACE index_t* neighbours, SPACE uchar* count) {
    const uint valid = columnStart[CLUSTER_SIZE_Y];
    for (uint j = get_local_id(0); j < valid; j += CLUSTER_WG) {
        const uint p = order[j], x = pix_x(pix[p]), c = pix_y(pix[p]);
        const uint end = columnStart[min(c + 2, (uint)CLUSTER_SIZE_Y)];
        uint found = 0;
        for (uint k = j + 1; k < end; ++k) {
            const uint q = order[k];
            if (abs_diff(pix_x(pix[q]), x) <= 1 && found < CMSSW_MAX_NEIGHBOURS)
                neighbours[p * CMSSW_MAX_NEIGHBOURS + found++] = (index_t)q;
        }
        count[p] = (uchar)found;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// Hook the larger root under the smaller one over every neighbour pair until a pass changes
// nothing, jumping pointers between passes; at the end every label is its root.
void propagate(uint n, volatile SPACE int* label, SPACE const index_t* neighbours,
               SPACE const uchar* count, local int* changed) {
    const uint lid = get_local_id(0);
    for (;;) {
        if (lid == 0) *changed = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint p = lid; p < n; p += CLUSTER_WG)
            for (uint k = 0; k < (label[p] >= 0 ? count[p] : 0u); ++k) {
                const int a = find_root(label, p);
                const int b = find_root(label, neighbours[p * CMSSW_MAX_NEIGHBOURS + k]);
                if (a != b) atomic_min(&label[max(a, b)], min(a, b)), *changed = 1;
            }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        const int again = *changed;
        for (uint p = lid; p < n; p += CLUSTER_WG)
            if (label[p] >= 0) label[p] = find_root(label, p);
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (!again) break;
    }
}

kernel void cluster_cmssw(global const uint* moduleStart, global const ushort* active,
                          global const uint* totals, global const uint* sortedPix,
                          global int* rootOut, global uint* orderScratch,
                          global uint* neighbourScratch, global uchar* countScratch) {
    local uint seen[BITMAP_WORDS], twice[BITMAP_WORDS];
    local uint columnCount[CLUSTER_SIZE_Y], columnStart[CLUSTER_SIZE_Y + 1], tmp[CLUSTER_WG];
    local int changed;
#if !CMSSW_GLOBAL
    local uint pixL[CMSSW_LOCAL_CAP];
    local int labelL[CMSSW_LOCAL_CAP];
    local index_t orderL[CMSSW_LOCAL_CAP], neighboursL[CMSSW_LOCAL_CAP * CMSSW_MAX_NEIGHBOURS];
    local uchar countL[CMSSW_LOCAL_CAP];
#endif
    const uint lid = get_local_id(0);
    for (uint w = lid; w < BITMAP_WORDS; w += CLUSTER_WG) seen[w] = 0, twice[w] = 0;
    for (uint k = get_group_id(0); k < totals[1]; k += get_num_groups(0)) {
        const uint m = active[k], start = moduleStart[m], n = moduleStart[m + 1] - start;
        if ((n > CMSSW_LOCAL_CAP) != CMSSW_GLOBAL) continue;
#if CMSSW_GLOBAL
        global const uint* pix = sortedPix + start;
        global int* label = rootOut + start;
        global uint* order = orderScratch + start;
        global uint* neighbours = neighbourScratch + (size_t)start * CMSSW_MAX_NEIGHBOURS;
        global uchar* count = countScratch + start;
#else
        local uint* pix = pixL;
        local int* label = labelL;
        local ushort* order = orderL;
        local ushort* neighbours = neighboursL;
        local uchar* count = countL;
        for (uint p = lid; p < n; p += CLUSTER_WG) pixL[p] = sortedPix[start + p];
#endif
        for (uint c = lid; c < CLUSTER_SIZE_Y; c += CLUSTER_WG) columnCount[c] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        mark_duplicates(pix, n, label, seen, twice, columnCount);
        fill_columns(pix, n, label, columnCount, columnStart, tmp, order);
        find_neighbours(pix, columnStart, order, neighbours, count);
        propagate(n, label, neighbours, count, &changed);
        // Roots as absolute positions.
        for (uint p = lid; p < n; p += CLUSTER_WG)
            rootOut[start + p] = label[p] >= 0 ? (int)start + label[p] : -1;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
}
