// Dense frames already on the device (a live stream's, decoded there) as a sparse block's
// entries there, for the rings of xpcs_sparse.cl (after it in program `xpcs_sparse`: its sp_add
// and SP_RUN; host side gpu/xpcs/frame_compaction.cpp): sp_count counts each frame's labelled
// pixels that are not zero and sums their values (the host's checks and the live rule's
// occupancy), sp_compact writes them as (pixel, count) from the frame's frame_ptr on (the host's
// prefix sum of the counts). Nothing comes back but a few bytes a frame.
//
// Set by the host (-D): DATA_T the dense frames' element type.

#ifndef DATA_T
#define DATA_T ushort
#endif

// Frames first .. first + frames - 1 of a batch of dense frames (frameSize values each), one
// stretch of their labelled pixels a work-group: group (g, f) of (stretches, frames) takes frame
// first + f's positions g·SP_RUN·WG .. (g + 1)·SP_RUN·WG - 1 (bin order; pixelOf[p] the pixel of
// position p), SP_RUN of them a work-item, WG apart. A work-item's values, and how many of them
// are not zero.
inline int sp_stretch(__global const DATA_T* frames, long frameSize, long first,
                      __global const int* pixelOf, int positions, uint* v) {
    const int wg = get_local_size(0), p0 = get_group_id(0) * SP_RUN * wg + get_local_id(0);
    __global const DATA_T* frame = frames + (first + get_group_id(1)) * frameSize;
    int n = 0;
    for (int j = 0; j < SP_RUN; ++j) {
        const int p = p0 + j * wg;
        v[j] = p < positions ? (uint)frame[pixelOf[p]] : 0;
        n += v[j] != 0;
    }
    return n;
}

// Each frame's labelled pixels that are not zero counted into entries[f] and their values
// summed into totals[f] (both zero before).
__kernel void sp_count(__global const DATA_T* frames, long frameSize, long first,
                       __global const int* pixelOf, int positions, __global int* entries,
                       __global long* totals) {
    __local int n;
    __local long sum;
    uint v[SP_RUN];
    if (get_local_id(0) == 0) n = 0, sum = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int mine = sp_stretch(frames, frameSize, first, pixelOf, positions, v);
    if (mine) {
        long total = 0;
        for (int j = 0; j < SP_RUN; ++j)
            total += v[j];
        atomic_add(&n, mine);
        atom_add((volatile __local long*)&sum, total);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) != 0 || n == 0) return;
    const int f = get_group_id(1);
    atomic_add(entries + f, n);
    sp_add(totals + f, sum);
}

// The same pixels as frame f's entries (pixel, count) from ptr[f] on, at places one atomic
// per work-group on cursor[f] (zero before) reserves: a frame's entries in the groups' order,
// which no sum depends on.
__kernel void sp_compact(__global const DATA_T* frames, long frameSize, long first,
                         __global const int* pixelOf, int positions, __global const long* ptr,
                         __global int* cursor, __global int* pixel, __global uint* count) {
    __local int n, base;
    uint v[SP_RUN];
    if (get_local_id(0) == 0) n = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int mine = sp_stretch(frames, frameSize, first, pixelOf, positions, v);
    const int at = mine ? atomic_add(&n, mine) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int f = get_group_id(1);
    if (get_local_id(0) == 0) base = n ? atomic_add(cursor + f, n) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int wg = get_local_size(0), p0 = get_group_id(0) * SP_RUN * wg + get_local_id(0);
    long e = ptr[f] + base + at;
    for (int j = 0; j < SP_RUN; ++j)
        if (v[j] != 0) {
            pixel[e] = pixelOf[p0 + j * wg];
            count[e++] = v[j];
        }
}
