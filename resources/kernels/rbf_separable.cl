// rbf variant separable: the Gaussian sum on the seed's plane grids as matrix products.
// On plane p with in-plane axes (u, v) and normal axis w (xy: x, y | z; xz: x, z | y;
// yz: y, z | x), target (a_i, b_j) and source s:
//   exp(-|t - s|^2 / (2 sigma^2)) c_s = A_p[i,s] B_p[j,s],
//   A_p[i,s] = exp(-((a_i - s_u)^2 + s_w^2) scale) c_s,  B_p[j,s] = exp(-(b_j - s_v)^2 scale),
// so F_p = A_p B_p^T: 2 n N exponentials per plane instead of n^2 N. fp32 throughout; the
// sum over sources is compensated per SEP_KT-source tile. Tuning: SEP_TS (work-group side),
// SEP_WPT (outputs per work-item side), SEP_KT (sources per local tile); all passed by the host
// (gpu/rbf/recipes.cpp).
#define SEP_TILE (SEP_TS * SEP_WPT)
#define SEP_COMPONENTS (RBF_COMPLEX_W ? 2 : 1)

// In-plane and normal coordinates of a source for plane p.
inline float3 sep_axes(float4 s, uint p) {
    return p == 0 ? (float3)(s.x, s.y, s.z) : p == 1 ? (float3)(s.x, s.z, s.y)
                                                     : (float3)(s.y, s.z, s.x);
}

// Work-item (i, s, p): A_p[c][s][i] for each weight component c and B_p[s][i], zero for
// i >= n or s >= count (padding). Sources [first, first + count) of the run.
// A: [(p*C + c)*kPad + s]*nPad + i; B: (p*kPad + s)*nPad + i.
__kernel void rbf_sep_factors(__global const float4* sources, __global const float* sourcesIm,
                              uint first, uint count, uint n, float step, float scale,
                              uint nPad, uint kPad, __global float* a, __global float* b) {
    const uint i = get_global_id(0), s = get_global_id(1), p = get_global_id(2);
    if (i >= nPad || s >= kPad) return;
    float fa[SEP_COMPONENTS], fb = 0;
#pragma unroll
    for (uint c = 0; c < SEP_COMPONENTS; ++c) fa[c] = 0;
    if (i < n && s < count) {
        const float4 src = sources[first + s];
        const float3 axes = sep_axes(src, p);
        const float x = (float)i * step, du = x - axes.x, dv = x - axes.y;
        const float g = exp(-(du * du + axes.z * axes.z) * scale);
        fa[0] = g * src.w;
#if RBF_COMPLEX_W
        fa[1] = g * sourcesIm[first + s];
#endif
        fb = exp(-dv * dv * scale);
    }
#pragma unroll
    for (uint c = 0; c < SEP_COMPONENTS; ++c)
        a[((p * SEP_COMPONENTS + c) * kPad + s) * nPad + i] = fa[c];
    b[(p * kPad + s) * nPad + i] = fb;
}

// F_p[i][j] (+)= sum_s A_p[c][s][i] B_p[s][j] into out[((p*n + i)*n + j)*C + c]. Work-group
// (SEP_TS, SEP_TS) computes a SEP_TILE x SEP_TILE block; dimension 2 is p*C + c.
__kernel __attribute__((reqd_work_group_size(SEP_TS, SEP_TS, 1))) void
rbf_sep_gemm(__global const float* a, __global const float* b, uint n, uint nPad, uint kPad,
             int accumulate, __global float* out) {
    __local float tileA[SEP_KT][SEP_TILE], tileB[SEP_KT][SEP_TILE];
    const uint tx = get_local_id(0), ty = get_local_id(1), pc = get_group_id(2);
    const uint p = pc / SEP_COMPONENTS, c = pc % SEP_COMPONENTS;
    const uint i0 = get_group_id(1) * SEP_TILE, j0 = get_group_id(0) * SEP_TILE;
    __global const float* ap = a + (size_t)pc * kPad * nPad;
    __global const float* bp = b + (size_t)p * kPad * nPad;
    float sum[SEP_WPT][SEP_WPT], comp[SEP_WPT][SEP_WPT];
#pragma unroll
    for (uint u = 0; u < SEP_WPT; ++u)
#pragma unroll
        for (uint v = 0; v < SEP_WPT; ++v) sum[u][v] = comp[u][v] = 0;
    const uint flat = ty * SEP_TS + tx;
    for (uint k0 = 0; k0 < kPad; k0 += SEP_KT) {
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint e = flat; e < SEP_KT * SEP_TILE; e += SEP_TS * SEP_TS) {
            const uint kk = e / SEP_TILE, col = e % SEP_TILE;
            tileA[kk][col] = ap[(size_t)(k0 + kk) * nPad + i0 + col];
            tileB[kk][col] = bp[(size_t)(k0 + kk) * nPad + j0 + col];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        float part[SEP_WPT][SEP_WPT];
#pragma unroll
        for (uint u = 0; u < SEP_WPT; ++u)
#pragma unroll
            for (uint v = 0; v < SEP_WPT; ++v) part[u][v] = 0;
#pragma unroll
        for (uint kk = 0; kk < SEP_KT; ++kk) {
            float ra[SEP_WPT], rb[SEP_WPT];
#pragma unroll
            for (uint u = 0; u < SEP_WPT; ++u) ra[u] = tileA[kk][ty + u * SEP_TS];
#pragma unroll
            for (uint v = 0; v < SEP_WPT; ++v) rb[v] = tileB[kk][tx + v * SEP_TS];
#pragma unroll
            for (uint u = 0; u < SEP_WPT; ++u)
#pragma unroll
                for (uint v = 0; v < SEP_WPT; ++v) part[u][v] = fma(ra[u], rb[v], part[u][v]);
        }
#pragma unroll
        for (uint u = 0; u < SEP_WPT; ++u) // compensated add of the tile's partial sums
#pragma unroll
            for (uint v = 0; v < SEP_WPT; ++v) {
                const float y = part[u][v] - comp[u][v], t = sum[u][v] + y;
                comp[u][v] = (t - sum[u][v]) - y;
                sum[u][v] = t;
            }
    }
#pragma unroll
    for (uint u = 0; u < SEP_WPT; ++u)
#pragma unroll
        for (uint v = 0; v < SEP_WPT; ++v) {
            const uint i = i0 + ty + u * SEP_TS, j = j0 + tx + v * SEP_TS;
            if (i >= n || j >= n) continue;
            const size_t at = (((size_t)p * n + i) * n + j) * SEP_COMPONENTS + c;
            out[at] = accumulate ? out[at] + sum[u][v] : sum[u][v];
        }
}
