// azint: azimuthal integration without pixel splitting (DESIGN.md §5 "azint"), over what
// core/azint computes once per geometry: each pixel's bin (-1 = none), the CSR matrix
// bin -> pixels (ascending), each entry's normalisation c and each bin's sum of them (gpu/azint/
// recipes.cpp declares the programs; gpu/azint/device_run.cpp launches them). The variants'
// kernels give per (frame, bin) the signal sum and the count; azint_norm the normalisation sum
// where corrections are asked (without, every c is 1 and the host takes the count). Outputs
// (frames, bins) row-major.
//
// Set by the host (-D), every one always:
//   DATA_T       element type: uchar, ushort, uint, int, float
//   DATA_FLOAT   1 for float data (non-finite values are left out)
//   VALID_LIMIT  values >= it are left out (2^bits - 2 for unsigned data, the sentinels); 0: none
//   AZ_INT_SUM   1: signal sums in 64-bit integers (integer data whose every partial sum stays
//                below 2^53, so the cpu's float64 sums are exact and equal), the host turns them
//                into doubles; 0: in double
//   AZ_LOCAL_BINS  azint_histogram_local: the bins its local histogram holds (>= bins)
//   AZ_LOCAL_WIDE  the local sums of azint_local.cl (azint_histogram_local, azint_tiled) with
//                AZ_INT_SUM: 0 when the pixels a local bin sums times the largest |value| fit 32
//                bits (local sums in uint, two's complement for int), else 1 (ulong)
//   AZ_PER_ITEM, AZ_RUN  azint_histogram_local: pixels per work-item, consecutive pixels it
//                sums in registers before a local atomic
//   AZ_CSR_WG, AZ_FRAMES  azint_csr_group: work-group size, frames a work-group sums
//   AZ_STATIC_COUNTS  histogram, tiled: 1 when the host starts each frame's counts at its bins'
//                binned pixels (the tables' static counts, the same in every frame): the kernels
//                count no valid pixel, they take an invalid one off (rare: sentinels, NaN) with
//                one global atomic; 0: counts zeroed before, one count atomic per sum (csr and
//                sorted count their pixels: not set, 0)
//
// FP contraction is off so that no sum is fused differently.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#if !defined(DATA_T) || !defined(DATA_FLOAT) || !defined(VALID_LIMIT) || !defined(AZ_INT_SUM)
#error "azint.cl needs DATA_T, DATA_FLOAT, VALID_LIMIT and AZ_INT_SUM"
#endif
#if AZ_INT_SUM && DATA_FLOAT
#error "AZ_INT_SUM is for integer data"
#endif
#if !defined(AZ_STATIC_COUNTS)
#define AZ_STATIC_COUNTS 0 // csr, sorted: they count their pixels
#endif

inline bool azint_valid(DATA_T v) {
#if DATA_FLOAT
    return isfinite(v);
#elif VALID_LIMIT
    return (ulong)v < (ulong)(VALID_LIMIT);
#else
    return true;
#endif
}

// The signal sums: exact 64-bit integers (two's complement) or doubles.
#if AZ_INT_SUM
typedef long az_sum;
#else
typedef double az_sum;
#endif

// A double added to SPACE memory by compare-and-swap on its bits: azint_cas_global,
// azint_cas_local.
#define AZINT_ADD_DOUBLE(NAME, SPACE)                                                              \
    inline void NAME(volatile SPACE double* p, double v) {                                         \
        union {                                                                                    \
            double d;                                                                              \
            ulong u;                                                                               \
        } seen, next;                                                                              \
        do {                                                                                       \
            seen.d = *p;                                                                           \
            next.d = seen.d + v;                                                                   \
        } while (atom_cmpxchg((volatile SPACE ulong*)p, seen.u, next.u) != seen.u);                \
    }
AZINT_ADD_DOUBLE(azint_cas_global, __global)
AZINT_ADD_DOUBLE(azint_cas_local, __local)

// A signal sum added to global memory: one 64-bit integer atomic, or a double by CAS.
inline void azint_global_add(__global az_sum* p, az_sum v) {
#if AZ_INT_SUM
    atom_add((volatile __global long*)p, v);
#else
    azint_cas_global((volatile __global double*)p, v);
#endif
}

// A binned pixel's invalid value in a frame: with static counts (started at the bin's binned
// pixels), its count taken off; else nothing (only valid values are counted).
inline void azint_drop(__global uint* count) {
#if AZ_STATIC_COUNTS
    atomic_dec(count);
#endif
}

// Histogram with global atomics: one work-item per pixel and frame, global size (pixels,
// frames), sums zeroed before, counts zeroed or static (AZ_STATIC_COUNTS). Integer sums are
// exact whatever the order; double sums follow the schedule (within rounding); counts exactly.
__kernel void azint_histogram(__global const DATA_T* frames, __global const int* bin_of_pixel,
                              uint pixels, uint bins, __global az_sum* sum_signal,
                              __global uint* count) {
    const size_t k = get_global_id(0), t = get_global_id(1);
    if (k >= pixels) return;
    const int b = bin_of_pixel[k];
    if (b < 0) return;
    const DATA_T v = frames[t * pixels + k];
    const size_t at = t * bins + (size_t)b;
    if (!azint_valid(v)) {
        azint_drop(count + at);
        return;
    }
    azint_global_add(sum_signal + at, (az_sum)v);
    if (!AZ_STATIC_COUNTS) atomic_inc(count + at);
}

// CSR product in the reference's order: one work-item per bin and frame, global size (bins,
// frames), the bin's pixels ascending as the reference adds them: the same sums, bit for bit
// (the csr variant's kernel for float data, or with AZ_INT_SUM off).
__kernel void azint_csr(__global const DATA_T* frames, __global const long* row_start,
                        __global const int* row_pixels, uint pixels, uint bins,
                        __global az_sum* sum_signal, __global uint* count) {
    const size_t b = get_global_id(0), t = get_global_id(1);
    if (b >= bins) return;
    az_sum signal = 0;
    uint n = 0;
    for (long i = row_start[b]; i < row_start[b + 1]; ++i) {
        const DATA_T v = frames[t * pixels + (size_t)row_pixels[i]];
        if (!azint_valid(v)) continue;
        signal += (az_sum)v;
        ++n;
    }
    const size_t at = t * bins + b;
    sum_signal[at] = signal;
    count[at] = n;
}

// The normalisation sums where corrections are asked, global size (bins, frames), after the
// variant's kernel: where every pixel of the bin was valid in the frame (its count is the row's
// length) the bin's whole sum (bin_norm, summed by the host in the reference's order); else the
// valid pixels' c in the reference's order. Either way the reference's sum, bit for bit.
__kernel void azint_norm(__global const DATA_T* frames, __global const long* row_start,
                         __global const int* row_pixels, __global const double* row_norm,
                         __global const double* bin_norm, uint pixels, uint bins,
                         __global const uint* count, __global double* sum_normalization) {
    const size_t b = get_global_id(0), t = get_global_id(1);
    if (b >= bins) return;
    const size_t at = t * bins + b;
    const long first = row_start[b], end = row_start[b + 1];
    if ((long)count[at] == end - first) {
        sum_normalization[at] = bin_norm[b];
        return;
    }
    double norm = 0.0;
    for (long i = first; i < end; ++i)
        if (azint_valid(frames[t * pixels + (size_t)row_pixels[i]])) norm += row_norm[i];
    sum_normalization[at] = norm;
}
