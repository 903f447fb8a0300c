// azint: azimuthal integration without pixel splitting (DESIGN.md §5 "azint"), over what
// core/azint computes once per geometry: each pixel's bin (-1 = none), its normalisation c
// (solid angle x polarisation, or 1) and the CSR matrix bin -> pixels (gpu/azint/recipes.cpp
// declares the programs; gpu/azint/device_run.cpp launches them). Outputs per (frame, bin):
// sum_signal, sum_normalization (double) and count (uint), (frames, bins) row-major.
//
// Set by the host (-D), every one always:
//   DATA_T       element type: uchar, ushort, uint, int, float
//   DATA_FLOAT   1 for float data (non-finite values are left out)
//   VALID_LIMIT  values >= it are left out (2^bits - 2 for unsigned data, the sentinels); 0: none
//   AZ_LOCAL_BINS  azint_histogram_local: the bins its local histogram holds (>= bins)
//   AZ_PER_ITEM  azint_histogram_local: pixels per work-item
//
// Sums are in double (cl_khr_fp64); FP contraction is off so that no sum is fused differently.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#if !defined(DATA_T) || !defined(DATA_FLOAT) || !defined(VALID_LIMIT)
#error "azint.cl needs DATA_T, DATA_FLOAT and VALID_LIMIT"
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

// A double added to SPACE memory by compare-and-swap on its bits: azint_atomic_add (global),
// azint_local_add (local).
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
AZINT_ADD_DOUBLE(azint_atomic_add, __global)
AZINT_ADD_DOUBLE(azint_local_add, __local)

// Histogram with global atomics: one work-item per pixel and frame, global size (pixels,
// frames), outputs zeroed before. The sums' order follows the schedule: equal to the reference
// within rounding, counts exactly.
__kernel void azint_histogram(__global const DATA_T* frames, __global const int* bin_of_pixel,
                              __global const double* normalization, uint pixels, uint bins,
                              __global double* sum_signal, __global double* sum_normalization,
                              __global uint* count) {
    const size_t k = get_global_id(0), t = get_global_id(1);
    if (k >= pixels) return;
    const int b = bin_of_pixel[k];
    if (b < 0) return;
    const DATA_T v = frames[t * pixels + k];
    if (!azint_valid(v)) return;
    const size_t at = t * bins + (size_t)b;
    azint_atomic_add(sum_signal + at, (double)v);
    azint_atomic_add(sum_normalization + at, normalization[k]);
    atomic_inc(count + at);
}

#if AZ_LOCAL_BINS
// Histogram in local memory (the GPU form): each work-group sums its AZ_PER_ITEM x group size
// pixels of one frame into a local histogram of every bin, then adds its non-empty bins to the
// global sums (zeroed before) with atomics: contention on local memory, one global atomic per
// bin and group. Global size (pixels / AZ_PER_ITEM, frames).
__kernel void azint_histogram_local(__global const DATA_T* frames, __global const int* bin_of_pixel,
                                    __global const double* normalization, uint pixels, uint bins,
                                    __global double* sum_signal,
                                    __global double* sum_normalization, __global uint* count) {
    __local double signal[AZ_LOCAL_BINS], norm[AZ_LOCAL_BINS];
    __local uint n[AZ_LOCAL_BINS];
    const size_t t = get_global_id(1), lid = get_local_id(0), size = get_local_size(0);
    for (size_t b = lid; b < bins; b += size)
        signal[b] = 0.0, norm[b] = 0.0, n[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const size_t first = get_group_id(0) * size * AZ_PER_ITEM;
    for (size_t i = 0; i < AZ_PER_ITEM; ++i) {
        const size_t k = first + i * size + lid; // consecutive work-items, consecutive pixels
        if (k >= pixels) break;
        const int b = bin_of_pixel[k];
        if (b < 0) continue;
        const DATA_T v = frames[t * pixels + k];
        if (!azint_valid(v)) continue;
        azint_local_add(signal + b, (double)v);
        azint_local_add(norm + b, normalization[k]);
        atomic_inc(n + b);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t b = lid; b < bins; b += size) {
        if (!n[b]) continue;
        const size_t at = t * bins + b;
        azint_atomic_add(sum_signal + at, signal[b]);
        azint_atomic_add(sum_normalization + at, norm[b]);
        atomic_add(count + at, n[b]);
    }
}
#endif

// CSR product: one work-item per bin and frame, global size (bins, frames), the bin's pixels in
// ascending order as the reference adds them, their normalisations in the same order
// (row_norm): the same sums, bit for bit.
__kernel void azint_csr(__global const DATA_T* frames, __global const long* row_start,
                        __global const int* row_pixels, __global const double* row_norm,
                        uint pixels, uint bins, __global double* sum_signal,
                        __global double* sum_normalization, __global uint* count) {
    const size_t b = get_global_id(0), t = get_global_id(1);
    if (b >= bins) return;
    double signal = 0.0, norm = 0.0;
    uint n = 0;
    for (long i = row_start[b]; i < row_start[b + 1]; ++i) {
        const DATA_T v = frames[t * pixels + (size_t)row_pixels[i]];
        if (!azint_valid(v)) continue;
        signal += (double)v;
        norm += row_norm[i];
        ++n;
    }
    const size_t at = t * bins + b;
    sum_signal[at] = signal;
    sum_normalization[at] = norm;
    count[at] = n;
}
