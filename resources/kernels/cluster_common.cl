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
// sum (2x+1), sum (2y+1). Zeroed by renumber_module; the max of 159-x gives the min of x.
#define SUMS_STRIDE 14
#define SUM_PLAIN_X 12
#define SUM_PLAIN_Y 13

// Read through volatile: the words were summed by atomics of other work-items.
inline ulong charge_of(volatile global const uint* lo, volatile global const uint* hi, uint p) {
    return ((ulong)hi[p] << 32) | lo[p];
}

// Charge cut and deterministic numbering of the k-th active module, positions [start, end),
// by its work-group: root charges, ranks of the surviving roots (a cluster's number is the
// rank of its root, its lowest digi, among the module's surviving roots), every digi's number
// (-1 when dropped) and moduleClusters[k] = the module's cluster count. Also zeroes the rows
// [start, end) of the per-cluster sums of cluster_finish.cl: every module's rows together are
// rows 0 .. valid digis - 1, which hold every cluster's (there are no more clusters than digis).
void renumber_module(uint k, uint start, uint end, ulong threshold, global const int* root,
                     global const ushort* sortedAdc, global uint* chargeLo, global uint* chargeHi,
                     global uint* rank, global int* localId, global uint* moduleClusters,
                     global uint* sums, local uint* tmp) {
    const uint lid = get_local_id(0);
    for (size_t w = (size_t)start * SUMS_STRIDE + lid; w < (size_t)end * SUMS_STRIDE; w += CLUSTER_WG)
        sums[w] = 0;
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
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint p = start + lid; p < end; p += CLUSTER_WG) {
        const int r = root[p];
        const bool kept = r >= 0 && charge_of(chargeLo, chargeHi, r) >= threshold;
        localId[p] = kept ? (int)rank[r] : -1;
    }
    if (lid == 0) moduleClusters[k] = clusters;
    barrier(CLK_GLOBAL_MEM_FENCE);
}
