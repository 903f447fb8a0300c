// rbf variants tiled, tiled-fast and fp64 (rbf_pairs.cl prepended): a work-item holds
// RBF_TPW targets in registers; the work-group stages RBF_WG sources at a time through local
// memory and every work-item adds them to its targets. Each tile's fp32 partial sums go into
// a compensated total. Tuning: RBF_WG (work-group size = sources per tile), RBF_TPW, RBF_UNROLL.
#ifndef RBF_WG
#define RBF_WG 128
#endif
#ifndef RBF_TPW
#define RBF_TPW 4
#endif
#ifndef RBF_UNROLL
#define RBF_UNROLL 4
#endif

#if RBF_COMPLEX_W
#define TILE_IM tileIm
#else
#define TILE_IM 0
#endif

// Source j of the tile added to the partial sums of the work-item's targets.
inline void rbf_tile_step(const real4* t, rbf_val* part, __local const real4* tile,
                          __local const real* tileIm, uint j, real scale, real k) {
    const real4 s = tile[j];
    const real wi = RBF_COMPLEX_W ? tileIm[j] : 0;
#pragma unroll
    for (uint u = 0; u < RBF_TPW; ++u) part[u] += rbf_pair(t[u], s, wi, scale, k);
}

// out[i] = f(target i) for i < targetCount. sources: sourceCount times (x, y, z, re c), the
// buffer padded to a multiple of RBF_WG; sourcesIm: im c (RBF_COMPLEX_W).
// Work-group g covers targets (firstGroup + g)*RBF_WG*RBF_TPW + u*RBF_WG + local id, u < RBF_TPW.
// coordScale multiplies every position (RBF_FAST Gaussian: sqrt(log2(e) / (2 sigma^2))).
// Positions are relative to `origin` (the host shifts sources and listed targets).
__kernel __attribute__((reqd_work_group_size(RBF_WG, 1, 1))) void
rbf_tiled(__global const real4* sources, __global const real* sourcesIm, uint sourceCount,
          __global const real* targets, uint targetCount, uint planes, real step,
          real coordScale, real scale, real k, __global real* out, uint firstGroup,
          real4 origin) {
    __local real4 tile[RBF_WG];
#if RBF_COMPLEX_W
    __local real tileIm[RBF_WG];
#endif
    const uint lid = get_local_id(0);
    const uint first = (firstGroup + get_group_id(0)) * (RBF_WG * RBF_TPW) + lid;
    real4 t[RBF_TPW];
    rbf_val sum[RBF_TPW], comp[RBF_TPW];
#pragma unroll
    for (uint u = 0; u < RBF_TPW; ++u) {
        const uint i = min(first + u * RBF_WG, targetCount - 1); // past the end: a copy
        t[u] = rbf_target(targets, i, planes, step, origin, coordScale);
        sum[u] = 0;
        comp[u] = 0;
    }
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
            for (uint q = 0; q < RBF_UNROLL; ++q) rbf_tile_step(t, part, tile, TILE_IM, j + q, scale, k);
        for (; j < count; ++j) rbf_tile_step(t, part, tile, TILE_IM, j, scale, k);
#pragma unroll
        for (uint u = 0; u < RBF_TPW; ++u) rbf_add(&sum[u], &comp[u], part[u]);
    }
#pragma unroll
    for (uint u = 0; u < RBF_TPW; ++u)
        if (first + u * RBF_WG < targetCount) rbf_store(out, first + u * RBF_WG, sum[u]);
}
