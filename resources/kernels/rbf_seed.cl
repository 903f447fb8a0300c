// rbf variant seed (rbf_pairs.cl prepended): the seed notebook's CUDA kernel. A work-group of
// SEED_SX x SEED_N work-items, one per (target, source) pair: the first column loads the
// group's SEED_SX targets, the first row all SEED_N sources into local memory; every
// work-item writes its term into a local SEED_SX x SEED_N table, and the first column sums its
// row. SEED_N is the source count (set by the host), so N is limited by the work-group size.
// Tunables: gpu/rbf/recipes.cpp.
__kernel __attribute__((reqd_work_group_size(SEED_SX, SEED_N, 1))) void
rbf_seed(__global const real4* sources, __global const real* sourcesIm,
         __global const real* targets, uint targetCount, uint planes, real step, real scale,
         real k, __global real* out, real4 origin) {
    __local rbf_val terms[SEED_SX][SEED_N];
    __local real4 localTargets[SEED_SX];
    __local real4 localSources[SEED_N];
    __local real localIm[SEED_N];
    const uint tx = get_local_id(0), ty = get_local_id(1), px = get_global_id(0);
    // Unlike the seed, work-items past the last target stay for the barriers.
    if (ty == 0) localTargets[tx] = rbf_target(targets, min(px, targetCount - 1), planes, step, origin, 1);
    if (tx == 0) {
        localSources[ty] = sources[ty];
#if RBF_COMPLEX_W
        localIm[ty] = sourcesIm[ty];
#else
        localIm[ty] = 0;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    terms[tx][ty] = rbf_pair(localTargets[tx], localSources[ty], localIm[ty], scale, k, true);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ty == 0 && px < targetCount) {
        rbf_val f = 0;
        for (uint j = 0; j < SEED_N; ++j) f += terms[tx][j];
        rbf_store(out, px, f);
    }
}
