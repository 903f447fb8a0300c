// cluster: helpers shared by the cluster_*.cl kernels (prepended to each of them, after
// common.cl). Every tunable (CLUSTER_INVALID, CLUSTER_WG, ...) is passed by the host: declared
// with its meaning in gpu/cluster/recipes.cpp.
// The per-module kernels declare their work-group size where CLUSTER_REQD_WG is 1 (GPUs: the
// NVIDIA compiler makes cluster_sort ~25 % faster with it; PoCL 3.1 spun forever in
// cluster_cmssw with it in the sanitizer build, so the host leaves it off on CPUs).
#if CLUSTER_REQD_WG
#define PER_MODULE_KERNEL __attribute__((reqd_work_group_size(CLUSTER_WG, 1, 1))) kernel
#else
#define PER_MODULE_KERNEL kernel
#endif
#define CLUSTER_SIZE_X 160
#define CLUSTER_SIZE_Y 416

// Packed pixel of a digi: x in bits 0-7, y from bit 8.
inline uint pix_x(uint pix) { return pix & 0xffu; }
inline uint pix_y(uint pix) { return pix >> 8; }

// 64-bit sums (a ulong, or in a row of sums two words lo, hi): with 64-bit atomics one atomic
// whose result is not used (NVIDIA issues it without waiting); else the 32-bit adder whose add
// wraps the low word carries. CLUSTER_ATOM64=0 forces the 32-bit pair.
#ifndef __ENDIAN_LITTLE__
#error "cluster: the 64-bit sums assume a little-endian device"
#endif
#if CLUSTER_ATOM64 && defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define ADD64(space)                                                                               \
    inline void add64_##space(volatile space ulong* sum, uint value) { atom_add(sum, (ulong)value); }
#else
#define ADD64(space)                                                                               \
    inline void add64_##space(volatile space ulong* sum, uint value) {                             \
        volatile space uint* w = (volatile space uint*)sum;                                        \
        const uint old = atomic_add(&w[0], value);                                                 \
        if (old + value < old) atomic_inc(&w[1]);                                                  \
    }
#endif
ADD64(global)
ADD64(local)

// Exclusive prefix sum over the work-group (common.cl's scan over CLUSTER_WG work-items).
#define group_exclusive_scan(value, tmp, total)                                                 \
    clscope_group_exclusive_scan(value, tmp, CLUSTER_WG, total)

// Sums of one cluster, 14 words (read back by gpu/cluster/runner.cpp): module, size,
// maxX, 159-minX, maxY, 415-minY, then lo/hi pairs of sum adc, sum adc(2x+1), sum adc(2y+1), then
// sum (2x+1), sum (2y+1). The max of 159-x gives the min of x.
#define SUMS_STRIDE 14
#define SUM_PLAIN_X 12
#define SUM_PLAIN_Y 13

// Read through volatile: the charges were summed by atomics of other work-items.
inline ulong charge_of(volatile global const ulong* charge, uint p) {
    return charge[p];
}

// The digi at position p added to its cluster's row s (in local memory); the cluster's root
// (p == root) writes the module and the charge, summed before.
inline void add_to_sums(local uint* s, uint m, uint p, int root, uint pix, uint adc, ulong charge) {
    const uint x = pix_x(pix), y = pix_y(pix);
    if (p == (uint)root) s[0] = m, s[6] = (uint)charge, s[7] = (uint)(charge >> 32);
    atomic_inc(&s[1]);
    atomic_max(&s[2], x), atomic_max(&s[3], CLUSTER_SIZE_X - 1 - x);
    atomic_max(&s[4], y), atomic_max(&s[5], CLUSTER_SIZE_Y - 1 - y);
    add64_local((volatile local ulong*)(s + 8), adc * (2 * x + 1));
    add64_local((volatile local ulong*)(s + 10), adc * (2 * y + 1));
    atomic_add(&s[SUM_PLAIN_X], 2 * x + 1), atomic_add(&s[SUM_PLAIN_Y], 2 * y + 1);
}

// Whether position p is a root whose cluster passes the cut.
inline bool surviving_root(global const int* root, global const ulong* charge, uint p, ulong cut) {
    return root[p] == (int)p && charge_of(charge, p) >= cut;
}

// Charge cut, deterministic numbering, ids and sums of module m, positions
// [start, end), by its work-group: root charges, ranks of the surviving roots (a cluster's
// number is the rank of its root, its lowest digi, among the module's surviving roots), every
// digi's number in its module at its input index (id[sortedIndex[p]], -1 when dropped),
// and cluster c of the module summed into row first + c of sums, where the module's block of
// rows [first, first + clusters) is reserved with one atomic on *clusterCount (blocks are
// dense but in no order: the host orders them by module id, the first word of every row).
// The rows are summed in local memory, `rowCap` rows (8-byte aligned) at a time, and copied out.
void renumber_module(uint m, uint start, uint end, ulong threshold, global const int* root,
                     global const uint* sortedIndex, global const uint* sortedPix,
                     global const ushort* sortedAdc, global ulong* charge, global uint* rank,
                     global int* id, volatile global uint* clusterCount, global uint* sums,
                     local uint* tmp, local uint* rows, uint rowCap) {
    const uint lid = get_local_id(0);
    for (uint p = start + lid; p < end; p += CLUSTER_WG) charge[p] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint p = start + lid; p < end; p += CLUSTER_WG)
        if (root[p] >= 0) add64_global(&charge[root[p]], sortedAdc[p]);
    barrier(CLK_GLOBAL_MEM_FENCE);
    // Ranks: each work-item counts the surviving roots of its run of positions, one scan.
    const uint per = (end - start + CLUSTER_WG - 1) / CLUSTER_WG;
    const uint begin = min(start + lid * per, end), stop = min(begin + per, end);
    uint mine = 0, clusters;
    for (uint p = begin; p < stop; ++p) mine += surviving_root(root, charge, p, threshold);
    uint next = group_exclusive_scan(mine, tmp, &clusters);
    for (uint p = begin; p < stop; ++p)
        if (surviving_root(root, charge, p, threshold)) rank[p] = next++;
    if (lid == 0) // tmp is free: group_exclusive_scan ends with a barrier
        tmp[0] = clusters ? atomic_add(clusterCount, clusters) : 0;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    const uint first = tmp[0];
    // Clusters [c0, c1) in local rows; the first pass (run even without clusters) writes the ids.
    for (uint c0 = 0; c0 == 0 || c0 < clusters; c0 += rowCap) {
        const uint c1 = min(clusters, c0 + rowCap);
        for (uint w = lid; w < (c1 - c0) * SUMS_STRIDE; w += CLUSTER_WG) rows[w] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint p = start + lid; p < end; p += CLUSTER_WG) {
            const int r = root[p];
            const ulong total = r >= 0 ? charge_of(charge, r) : 0;
            const int number = r >= 0 && total >= threshold ? (int)rank[r] : -1;
            if (c0 == 0) id[sortedIndex[p]] = number;
            if (number >= (int)c0 && number < (int)c1)
                add_to_sums(rows + (number - c0) * SUMS_STRIDE, m, p, r, sortedPix[p],
                            sortedAdc[p], total);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        global uint* out = sums + (size_t)(first + c0) * SUMS_STRIDE;
        for (uint w = lid; w < (c1 - c0) * SUMS_STRIDE; w += CLUSTER_WG) out[w] = rows[w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
