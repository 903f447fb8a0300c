// Local-memory sums shared by the histogram's local form and the tiled variant (after azint.cl,
// whose helpers they use): a work-group's sums in local memory, added to with atomics, then
// added to the global sums once per bin. Integer frames (AZ_INT_SUM) add native 32-bit local
// atomics (AZ_LOCAL_WIDE 0: the host's bound, a group's sums of one bin cannot overflow them)
// or 64-bit ones; float frames add doubles by compare-and-swap. The counts beside them in local
// memory, one more atomic each, where they are counted (AZ_STATIC_COUNTS 0); with static counts
// none: only the sums go to local and global memory.
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

// The local counts' size for `slots` local sums: 1 (unused) with static counts.
#define AZ_COUNT_SLOTS(slots) (AZ_STATIC_COUNTS ? 1 : (slots))

// A run of a work-item's pixels in one bin into the local sums: one atomic each (the sum, and
// the count where counted).
inline void azint_local_flush(volatile __local az_local_sum* signal, volatile __local uint* n,
                              int b, az_local_sum s, uint m) {
#if AZ_INT_SUM && !AZ_LOCAL_WIDE
    atomic_add(signal + b, s);
#elif AZ_INT_SUM
    atom_add(signal + b, s);
#else
    azint_cas_local(signal + b, s);
#endif
#if !AZ_STATIC_COUNTS
    atomic_add(n + b, m);
#endif
}

// Whether local slot k has something for the global sums: pixels counted, or with static counts
// a sum other than 0 (adding 0 changes nothing).
inline bool azint_local_used(volatile __local az_local_sum* signal, volatile __local uint* n,
                             size_t k) {
#if AZ_STATIC_COUNTS
    return signal[k] != 0;
#else
    return n[k] != 0;
#endif
}

// Local slot k's count (0 with static counts: none kept).
inline uint azint_local_count(volatile __local uint* n, size_t k) {
    return AZ_STATIC_COUNTS ? 0 : n[k];
}

// A run of a work-item's pixels in one bin into the global sums (zeroed before): one atomic
// each (a 64-bit integer or a double by CAS), and the count's where counted (with static counts
// a sum of 0 is left out too).
inline void azint_global_flush(__global az_sum* sum_signal, __global uint* count, size_t at,
                               az_local_sum s, uint m) {
#if AZ_STATIC_COUNTS
    if (s != 0) azint_global_add(sum_signal + at, azint_widen(s));
#else
    azint_global_add(sum_signal + at, azint_widen(s));
    atomic_add(count + at, m);
#endif
}
