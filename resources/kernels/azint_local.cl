// Local-memory sums shared by the histogram's local form and the tiled variant (after azint.cl,
// whose helpers they use): a work-group's sums in local memory, added to with atomics, then
// added to the global sums once per bin. Integer frames (AZ_INT_SUM) add native 32-bit local
// atomics (AZ_LOCAL_WIDE 0: the host's bound, a group's sums of one bin cannot overflow them)
// or 64-bit ones; float frames add doubles by compare-and-swap.
//
// Set by the host (-D): AZ_LOCAL_WIDE  with AZ_INT_SUM: 0 when the pixels a local bin sums
// (the histogram's AZ_HIST_WG x AZ_PER_ITEM, a tile's AZ_TILE_H x AZ_TILE_W) times the largest
// |value| fit 32 bits (local sums in uint, two's complement for int), else 1 (ulong)

#if !defined(AZ_LOCAL_WIDE)
#error "azint_local.cl needs AZ_LOCAL_WIDE"
#endif

#if AZ_INT_SUM && !AZ_LOCAL_WIDE
typedef uint az_local_sum;
#elif AZ_INT_SUM
typedef ulong az_local_sum;
#else
typedef double az_local_sum;
#endif

// (DATA_T)-1 < 0: int data, whose narrow local sums are two's complement 32-bit.
#define AZ_DATA_SIGNED (((DATA_T)-1) < (DATA_T)0)

// A value as the local sums hold it (two's complement for int data).
inline az_local_sum azint_local_value(DATA_T v) {
#if AZ_INT_SUM && !AZ_LOCAL_WIDE
    return (uint)v;
#elif AZ_INT_SUM
    return (ulong)(long)v;
#else
    return (double)v;
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

// A run of a work-item's pixels in one bin into the local sums: one atomic each.
inline void azint_local_flush(volatile __local az_local_sum* signal, volatile __local uint* n,
                              int b, az_local_sum s, uint m) {
#if AZ_INT_SUM && !AZ_LOCAL_WIDE
    atomic_add(signal + b, s);
#elif AZ_INT_SUM
    atom_add(signal + b, s);
#else
    azint_cas_local(signal + b, s);
#endif
    atomic_add(n + b, m);
}

// A run of a work-item's pixels in one bin into the global sums (zeroed before): one atomic
// each (a 64-bit integer or a double by CAS, and the count).
inline void azint_global_flush(__global az_sum* sum_signal, __global uint* count, size_t at,
                               az_local_sum s, uint m) {
    azint_global_add(sum_signal + at, azint_widen(s));
    atomic_add(count + at, m);
}
