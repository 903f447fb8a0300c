// rbf variants tiled, tiled-fast and fp64 (rbf_pairs.cl prepended): a work-item holds
// RBF_TPW targets in registers; the work-group stages RBF_WG sources at a time through local
// memory and every work-item adds them to its targets. Each tile's fp32 partial sums go into
// a compensated total. Tuning: RBF_WG (work-group size = sources per tile), RBF_TPW, RBF_UNROLL
// (passed by the host, gpu/rbf/recipes.cpp).

// Source j of the tile added to the partial sums of the work-item's targets.
inline void rbf_tile_step(const real4* t, rbf_val* part, __local const real4* tile,
                          __local const real* tileIm, uint j, real scale, real k, bool checked) {
    const real4 s = tile[j];
    const real wi = RBF_COMPLEX_W ? tileIm[j] : 0;
#pragma unroll
    for (uint u = 0; u < RBF_TPW; ++u) part[u] += rbf_pair(t[u], s, wi, scale, k, checked);
}

// sum[u] = f(t[u]) over every source, staged RBF_WG at a time through the tile (every
// work-item of the group calls it: it holds barriers). checked: see rbf_pair.
inline void rbf_sweep(const real4* t, rbf_val* sum, bool checked, __global const real4* sources,
                      __global const real* sourcesIm, uint sourceCount, real coordScale,
                      real scale, real k, __local real4* tile, __local real* tileIm) {
    const uint lid = get_local_id(0);
    rbf_val comp[RBF_TPW];
#pragma unroll
    for (uint u = 0; u < RBF_TPW; ++u) sum[u] = 0, comp[u] = 0;
    for (uint base = 0; base < sourceCount; base += RBF_WG) {
        barrier(CLK_LOCAL_MEM_FENCE);
        tile[lid] = rbf_source(sources, base + lid, coordScale);
#if RBF_COMPLEX_W
        tileIm[lid] = sourcesIm[base + lid];
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        rbf_val part[RBF_TPW];
#pragma unroll
        for (uint u = 0; u < RBF_TPW; ++u) part[u] = 0;
        const uint count = min((uint)RBF_WG, sourceCount - base); // the last tile: fewer
        uint j = 0;
        for (; j + RBF_UNROLL <= count; j += RBF_UNROLL)
#pragma unroll
            for (uint q = 0; q < RBF_UNROLL; ++q)
                rbf_tile_step(t, part, tile, tileIm, j + q, scale, k, checked);
        for (; j < count; ++j) rbf_tile_step(t, part, tile, tileIm, j, scale, k, checked);
#pragma unroll
        for (uint u = 0; u < RBF_TPW; ++u) rbf_add(&sum[u], &comp[u], part[u]);
    }
}

// out[i] = f(target i) for i < targetCount. sources: sourceCount times (x, y, z, re c), the
// buffer padded to a multiple of RBF_WG; sourcesIm: im c (RBF_COMPLEX_W).
// Work-group g covers targets (firstGroup + g)*RBF_WG*RBF_TPW + u*RBF_WG + local id, u < RBF_TPW.
// coordScale multiplies every position (RBF_FAST Gaussian: sqrt(log2(e) / (2 sigma^2))).
// Positions are relative to `origin` (the host shifts sources and listed targets).
// Laplace and Helmholtz sum unchecked first (no r = 0 test per pair); a work-group where a
// target met a source at r = 0 (its sum is not finite) sums again with the test.
__kernel __attribute__((reqd_work_group_size(RBF_WG, 1, 1))) void
rbf_tiled(__global const real4* sources, __global const real* sourcesIm, uint sourceCount,
          __global const real* targets, uint targetCount, uint planes, real step,
          real coordScale, real scale, real k, __global real* out, uint firstGroup,
          real4 origin) {
    __local real4 tile[RBF_WG];
#if RBF_COMPLEX_W
    __local real tileIm[RBF_WG];
#else
    __local real* tileIm = 0;
#endif
    __local int redo;
    const uint lid = get_local_id(0);
    const uint first = (firstGroup + get_group_id(0)) * (RBF_WG * RBF_TPW) + lid;
    real4 t[RBF_TPW];
    rbf_val sum[RBF_TPW];
#pragma unroll
    for (uint u = 0; u < RBF_TPW; ++u) {
        const uint i = min(first + u * RBF_WG, targetCount - 1); // past the end: a copy
        t[u] = rbf_target(targets, i, planes, step, origin, coordScale);
    }
    if (lid == 0) redo = 0; // ordered before the write below by the sweep's barriers
    rbf_sweep(t, sum, false, sources, sourcesIm, sourceCount, coordScale, scale, k,
              tile, tileIm);
#if RBF_KERNEL != 0
    bool finite = true;
#pragma unroll
    for (uint u = 0; u < RBF_TPW; ++u) finite = finite && rbf_finite(sum[u]);
    if (!finite) redo = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (redo)
        rbf_sweep(t, sum, true, sources, sourcesIm, sourceCount, coordScale, scale, k, tile,
                  tileIm);
#endif
#pragma unroll
    for (uint u = 0; u < RBF_TPW; ++u)
        if (first + u * RBF_WG < targetCount) rbf_store(out, first + u * RBF_WG, sum[u]);
}
