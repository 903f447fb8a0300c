// azint: azimuthal integration without pixel splitting (DESIGN.md §5 "azint"), two kernels over
// what core/azint computes once per geometry: each pixel's bin (binOfPixel, -1 = none) and its
// normalisation c (solid angle x polarisation, or 1). Not yet a registered variant: tested by
// tst_azint through tests/azint_kernels.py (pyopencl on PoCL) against the `cpu` reference.
//
// Set by the host (-D), every one always:
//   DATA_T       element type: uchar, ushort, uint, int, float
//   DATA_FLOAT   1 for float data (non-finite values are left out)
//   VALID_LIMIT  values >= it are left out (2^bits - 2 for unsigned data, the sentinels); 0: none
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

// A double added to global memory by compare-and-swap on its bits.
inline void azint_atomic_add(volatile __global double* p, double v) {
    union {
        double d;
        ulong u;
    } seen, next;
    do {
        seen.d = *p;
        next.d = seen.d + v;
    } while (atom_cmpxchg((volatile __global ulong*)p, seen.u, next.u) != seen.u);
}

// Histogram with atomics: one work-item per pixel and frame, global size (pixels, frames). The
// sums' order follows the schedule: equal to the reference within rounding, counts exactly.
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

// CSR product: one work-item per bin and frame, global size (bins, frames), the bin's pixels
// in ascending order as the reference adds them: the same sums, bit for bit.
__kernel void azint_csr(__global const DATA_T* frames, __global const long* row_start,
                        __global const int* row_pixels, __global const double* normalization,
                        uint pixels, uint bins, __global double* sum_signal,
                        __global double* sum_normalization, __global uint* count) {
    const size_t b = get_global_id(0), t = get_global_id(1);
    if (b >= bins) return;
    double signal = 0.0, norm = 0.0;
    uint n = 0;
    for (long i = row_start[b]; i < row_start[b + 1]; ++i) {
        const int k = row_pixels[i];
        const DATA_T v = frames[t * pixels + (size_t)k];
        if (!azint_valid(v)) continue;
        signal += (double)v;
        norm += normalization[k];
        ++n;
    }
    const size_t at = t * bins + b;
    sum_signal[at] = signal;
    sum_normalization[at] = norm;
    count[at] = n;
}
