// The histogram variant's local-memory form (the GPU's; after azint.cl, whose helpers it uses):
// each work-group sums AZ_PER_ITEM x group-size pixels of one frame into a local histogram of
// every bin, then adds its non-empty bins to the global sums (zeroed before) with one atomic
// each: contention on local memory, one global atomic per bin and group. Integer frames
// (AZ_INT_SUM) add native 32-bit local atomics (AZ_LOCAL_WIDE 0: the group's sums cannot
// overflow them, the host's bound) or 64-bit ones; float frames add doubles by compare-and-swap.
// Global size (pixels / AZ_PER_ITEM, frames).

#if AZ_LOCAL_BINS

#if AZ_INT_SUM && !AZ_LOCAL_WIDE
typedef uint az_local_sum;
#elif AZ_INT_SUM
typedef ulong az_local_sum;
#else
typedef double az_local_sum;
#endif

// (DATA_T)-1 < 0: int data, whose narrow local sums are two's complement 32-bit.
#define AZ_DATA_SIGNED (((DATA_T)-1) < (DATA_T)0)

inline void azint_local_add(volatile __local az_local_sum* p, DATA_T v) {
#if AZ_INT_SUM && !AZ_LOCAL_WIDE
    atomic_add(p, (uint)v);
#elif AZ_INT_SUM
    atom_add(p, (ulong)(long)v);
#else
    azint_cas_local(p, (double)v);
#endif
}

// A local sum as the global one: the 32-bit sum widened by the data's sign.
inline az_sum azint_widen(az_local_sum s) {
#if AZ_INT_SUM && !AZ_LOCAL_WIDE
    return AZ_DATA_SIGNED ? (long)(int)s : (long)s;
#elif AZ_INT_SUM
    return (long)s;
#else
    return s;
#endif
}

__kernel void azint_histogram_local(__global const DATA_T* frames, __global const int* bin_of_pixel,
                                    uint pixels, uint bins, __global az_sum* sum_signal,
                                    __global uint* count) {
    __local az_local_sum signal[AZ_LOCAL_BINS];
    __local uint n[AZ_LOCAL_BINS];
    const size_t t = get_global_id(1), lid = get_local_id(0), size = get_local_size(0);
    for (size_t b = lid; b < bins; b += size)
        signal[b] = 0, n[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const size_t first = get_group_id(0) * size * AZ_PER_ITEM;
    __global const DATA_T* frame = frames + t * pixels;
    for (size_t i = 0; i < AZ_PER_ITEM; ++i) {
        const size_t k = first + i * size + lid; // consecutive work-items, consecutive pixels
        if (k >= pixels) break;
        const int b = bin_of_pixel[k];
        if (b < 0) continue;
        const DATA_T v = frame[k];
        if (!azint_valid(v)) continue;
        azint_local_add(signal + b, v);
        atomic_inc(n + b);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t b = lid; b < bins; b += size) {
        if (!n[b]) continue;
        const size_t at = t * bins + b;
        azint_global_add(sum_signal + at, azint_widen(signal[b]));
        atomic_add(count + at, n[b]);
    }
}

#endif
