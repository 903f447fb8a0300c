// The elements of `src` at the first `count` indices of `index` into `dst`, in order: the
// values of a compacted list of pixels (gpu/pipeline), so that only they cross the bus.
// ELEM: an unsigned type of the elements' size (uchar, ushort, uint, ulong).
__kernel void gather_elements(__global const ELEM* src, __global const uint* index, uint count,
                              __global ELEM* dst) {
    const size_t i = get_global_id(0);
    if (i < count) dst[i] = src[index[i]];
}
