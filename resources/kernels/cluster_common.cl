// cluster: helpers shared by the cluster_*.cl kernels (prepended to each of them by
// gpu/cluster/runner.cpp, after common.cl).
#ifndef CLUSTER_INVALID
#define CLUSTER_INVALID 65534 // module id of an invalid digi
#endif
#ifndef CLUSTER_WG
#define CLUSTER_WG 256 // work-group size of the one-group-per-module kernels
#endif
#define CLUSTER_SIZE_X 160
#define CLUSTER_SIZE_Y 416

// Packed pixel of a digi: x in bits 0-7, y from bit 8.
inline uint pix_x(uint pix) { return pix & 0xffu; }
inline uint pix_y(uint pix) { return pix >> 8; }

// 64-bit sum kept as two 32-bit words: the adder whose add wraps the low word carries.
inline void add64_global(volatile global uint* lo, volatile global uint* hi, uint value) {
    const uint old = atomic_add(lo, value);
    if (old + value < old) atomic_inc(hi);
}

// Exclusive prefix sum of one value per work-item over the work-group (Hillis-Steele in
// tmp[CLUSTER_WG]); *total gets the sum. Every work-item of the group must call it.
uint group_exclusive_scan(uint value, local uint* tmp, uint* total) {
    const uint lid = get_local_id(0);
    tmp[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < CLUSTER_WG; offset <<= 1) {
        const uint add = lid >= offset ? tmp[lid - offset] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = tmp[CLUSTER_WG - 1];
    const uint inclusive = tmp[lid];
    barrier(CLK_LOCAL_MEM_FENCE); // tmp is reused by the next call
    return inclusive - value;
}

// Sums of one cluster, 14 words (read back by gpu/cluster/runner.cpp): module, size,
// maxX, 159-minX, maxY, 415-minY, then lo/hi pairs of sum adc, sum adc(2x+1), sum adc(2y+1), then
// sum (2x+1), sum (2y+1). The max of 159-x gives the min of x.
#define SUMS_STRIDE 14
#define SUM_PLAIN_X 12
#define SUM_PLAIN_Y 13

// Read through volatile: the words were summed by atomics of other work-items.
inline ulong charge_of(volatile global const uint* lo, volatile global const uint* hi, uint p) {
    return ((ulong)hi[p] << 32) | lo[p];
}

// The digi at position p (module m, number `number` in it) added to its cluster's row s; the
// cluster's root (p == root) writes the module and the charge, summed before.
inline void add_to_sums(global uint* s, uint m, uint p, int root, uint pix, uint adc, ulong charge) {
    const uint x = pix_x(pix), y = pix_y(pix);
    if (p == (uint)root) s[0] = m, s[6] = (uint)charge, s[7] = (uint)(charge >> 32);
    atomic_inc(&s[1]);
    atomic_max(&s[2], x), atomic_max(&s[3], CLUSTER_SIZE_X - 1 - x);
    atomic_max(&s[4], y), atomic_max(&s[5], CLUSTER_SIZE_Y - 1 - y);
    add64_global(&s[8], &s[9], adc * (2 * x + 1));
    add64_global(&s[10], &s[11], adc * (2 * y + 1));
    atomic_add(&s[SUM_PLAIN_X], 2 * x + 1), atomic_add(&s[SUM_PLAIN_Y], 2 * y + 1);
}

// Charge cut, deterministic numbering, ids and sums of module m, positions
// [start, end), by its work-group: root charges, ranks of the surviving roots (a cluster's
// number is the rank of its root, its lowest digi, among the module's surviving roots), every
// digi's number in its module at its input index (id[sortedIndex[p]], -1 when dropped),
// and cluster c of the module summed into row first + c of sums, where the module's block of rows [first, first + clusters) is reserved
// with one atomic on *clusterCount (blocks are dense but in no order: the host orders them by
// module id, the first word of every row).
void renumber_module(uint m, uint start, uint end, ulong threshold, global const int* root,
                     global const uint* sortedIndex, global const uint* sortedPix,
                     global const ushort* sortedAdc, global uint* chargeLo, global uint* chargeHi,
                     global uint* rank, global int* id,
                     volatile global uint* clusterCount, global uint* sums, local uint* tmp) {
    const uint lid = get_local_id(0);
    for (uint p = start + lid; p < end; p += CLUSTER_WG) chargeLo[p] = 0, chargeHi[p] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint p = start + lid; p < end; p += CLUSTER_WG)
        if (root[p] >= 0) add64_global(&chargeLo[root[p]], &chargeHi[root[p]], sortedAdc[p]);
    barrier(CLK_GLOBAL_MEM_FENCE);
    uint clusters = 0;
    for (uint base = start; base < end; base += CLUSTER_WG) {
        const uint p = base + lid;
        const bool survivor =
            p < end && root[p] == (int)p && charge_of(chargeLo, chargeHi, p) >= threshold;
        uint total;
        const uint before = group_exclusive_scan(survivor, tmp, &total);
        if (survivor) rank[p] = clusters + before;
        clusters += total;
    }
    if (lid == 0) // tmp is free: group_exclusive_scan ends with a barrier
        tmp[0] = clusters ? atomic_add(clusterCount, clusters) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint first = tmp[0];
    for (size_t w = (size_t)first * SUMS_STRIDE + lid; w < (size_t)(first + clusters) * SUMS_STRIDE;
         w += CLUSTER_WG)
        sums[w] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE); // also: every work-item has read tmp[0]
    for (uint p = start + lid; p < end; p += CLUSTER_WG) {
        const int r = root[p];
        const ulong charge = r >= 0 ? charge_of(chargeLo, chargeHi, r) : 0;
        const bool kept = r >= 0 && charge >= threshold;
        const int number = kept ? (int)rank[r] : -1;
        id[sortedIndex[p]] = number;
        if (kept)
            add_to_sums(sums + (size_t)(first + number) * SUMS_STRIDE, m, p, r, sortedPix[p],
                        sortedAdc[p], charge);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
}
