// The kernel lab's probes of a device's peaks (gpu/lab/device_peaks.cpp), for its roofline:
// probe_copy streams global memory (one float4 read and one written per work-item) and
// probe_mad keeps the arithmetic units busy (8 independent float8 multiply-add chains of
// PROBE_STEPS steps per work-item: 64 lanes, 2 operations each; vectors so that a CPU device's
// SIMD units are used, as a GPU's are by its work-items). Tunables (declared in gpu/lab/device_peaks.cpp):
//   PROBE_WG     work-group size of both kernels
//   PROBE_STEPS  multiply-adds per chain

__kernel void probe_copy(__global const float4* restrict in, __global float4* restrict out,
                         uint n) {
    const uint i = get_global_id(0);
    if (i < n) out[i] = in[i];
}

__kernel void probe_mad(__global float* out, float x, float y) {
    const uint i = get_global_id(0);
    const float8 a = (float8)((float)(i & 1023) * 1e-4f);
    float8 a0 = a, a1 = a + 0.1f, a2 = a + 0.2f, a3 = a + 0.3f;
    float8 a4 = a + 0.4f, a5 = a + 0.5f, a6 = a + 0.6f, a7 = a + 0.7f;
    for (int s = 0; s < PROBE_STEPS; ++s) {
        a0 = mad(a0, x, y), a1 = mad(a1, x, y), a2 = mad(a2, x, y), a3 = mad(a3, x, y);
        a4 = mad(a4, x, y), a5 = mad(a5, x, y), a6 = mad(a6, x, y), a7 = mad(a7, x, y);
    }
    const float8 t = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
    out[i] = t.s0 + t.s1 + t.s2 + t.s3 + t.s4 + t.s5 + t.s6 + t.s7; // kept: no dead code
}
