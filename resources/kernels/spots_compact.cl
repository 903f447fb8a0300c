// spots: the compacted list of signal pixels, so only the list crosses the bus.
// One work-item per pixel of the chunk; a work-group counts its signal pixels with local
// atomics, then one work-item reserves the group's range with ONE global atomic and every
// signal work-item writes its flat index (within the chunk) there. The order of the list is
// not defined; the host scatters it back into a mask. `count` ends as the number of signal
// pixels even when it exceeds `capacity` (then only the first `capacity` entries are written
// and the host takes the mask instead).

#ifndef COMPACT_WG
#define COMPACT_WG 256
#endif

kernel __attribute__((reqd_work_group_size(COMPACT_WG, 1, 1)))
void spots_compact(global const uchar* signal, uint total, global uint* list, uint capacity,
                   volatile global uint* count) {
    local uint n, base;
    const uint gid = get_global_id(0);
    if (get_local_id(0) == 0) n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const bool on = gid < total && signal[gid];
    uint slot = 0;
    if (on) slot = atomic_inc(&n);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && n > 0) base = atomic_add(count, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (on && base + slot < capacity) list[base + slot] = gid;
}
