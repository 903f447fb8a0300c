// The toy's frame sums: one work-item per frame. Every tunable comes from the recipe
// (tests/toy/algorithm.cpp): LOCAL_SIZE, the work-group size of the launch. Embedded into
// clscope_toy (tests/CMakeLists.txt), added to the kernel sources by toy::registerForTests.
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1))) void
frame_sums(__global const uint* frames, __global double* sums, uint frameSize, double scale,
           int fault, uint frameCount) {
    const size_t t = get_global_id(0);
    if (t >= frameCount) return;
    ulong total = 0;
    for (uint i = 0; i < frameSize; ++i) total += frames[t * frameSize + i];
    sums[t] = fault == 1 ? NAN : scale * (double)total + (fault == 2 && t == 3 ? 1.0 : 0.0);
}
