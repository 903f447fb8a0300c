// xpcs dense lags (and, below, multi-tau) on sparse frames, variant `sparse-pairs` (DESIGN.md §5
// "Sparse correlation"; host side gpu/xpcs/lags_sparse_device.cpp; after xpcs_common.cl, whose
// Gram layout it fills for xpcs_lag_sums and the two-time maps). The frames' entries arrive
// pixel-major: for each labelled position (bins' order) the frames where it is not zero,
// ascending, and its counts there. Each pair of a position's entries (t1 >= t2, an entry with
// itself too) adds v1 * v2 to gram[bin][t1][t2], and each entry adds v to S[bin][t]: the work is
// the pairs that exist, Σ_p n_p (n_p + 1) / 2, not T² × pixels. Every sum is an exact 64-bit
// integer (the host refuses series whose sums could pass 2^64, as the dense variants do), so the
// order of the atomics does not matter and the Gram matrices equal the dense ones bit for bit.
//
// One work-item per position; the host sorts nothing on the device. Set by the host (-D): the
// common macros of xpcs_common.cl (SUM_T ulong, GRAM_T ulong).

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

inline void xsp_add(global ulong* at, ulong v) {
    atom_add((volatile global ulong*)at, v);
}

// positions: labelled positions; first[p] .. first[p+1]-1 are position p's entries, frame[e]
// ascending, count[e] > 0; bin[p] its bin. gram and sums are zero before the launch.
kernel void xsp_pairs(global const long* first, global const int* frame, global const uint* count,
                      global const int* bin, int positions, global ulong* gram,
                      global ulong* sums, int frames, int framePad, int binCount) {
    const int p = get_global_id(0);
    if (p >= positions) return;
    const long e0 = first[p], e1 = first[p + 1];
    const int b = bin[p];
    for (long i = e0; i < e1; ++i) {
        const int t1 = frame[i];
        const ulong v1 = count[i];
        xsp_add(sums + (size_t)b * frames + t1, v1);
        for (long j = e0; j <= i; ++j)
            xsp_add(gram + xpcs_gram_index(0, b, binCount, framePad, t1, frame[j]),
                    v1 * (ulong)count[j]);
    }
}

// Multi-tau (--multitau; gpu/xpcs/multitau_pairs.cpp), from the same pixel-major entries: each
// entry adds its count to level 0's frame sums (sums[t * binCount + b]; the host bins the levels
// above), and each pair of a position's entries (t1 >= t2, an entry with itself too) adds
// v1 * v2 to the lag products of the rows it meets: level 0's row t1 at lag t1 - t2 < channels
// (products[(t1 * binCount + b) * channels + lag]) and, at each level k >= 1, row t1 >> k at lag
// m = (t1 >> k) - (t2 >> k) where channels / 2 <= m < channels and the row is whole (below
// rows[k]; products from at[k] on, channels / 2 lags a row). J_t of level k is the sum of its
// 2^k frames, so Σ_p J_t(p) J_{t-m}(p) is the sum over the pairs whose entries fall in those
// two blocks: the rows' products of the dense multi-tau, exact 64-bit integers (the host
// refuses binned frames whose products could pass 2^63). A position's entries are walked from
// each entry back, and stop where even the top level's lags cannot reach. Zero before.
kernel void xsp_level_sums(global const long* first, global const int* frame,
                           global const uint* count, global const int* bin, int positions,
                           global ulong* sums, int binCount) {
    const int p = get_global_id(0);
    if (p >= positions) return;
    const int b = bin[p];
    for (long i = first[p]; i < first[p + 1]; ++i)
        xsp_add(sums + (size_t)frame[i] * binCount + b, count[i]);
}

kernel void xsp_multitau(global const long* first, global const int* frame,
                         global const uint* count, global const int* bin, int positions,
                         global const int* rows, global const long* at, int levels, int channels,
                         int binCount, global ulong* products) {
    const int p = get_global_id(0);
    if (p >= positions) return;
    const long e0 = first[p], e1 = first[p + 1];
    const int b = bin[p], lowest = channels / 2, top = levels - 1;
    for (long i = e0; i < e1; ++i) {
        const int t1 = frame[i];
        const ulong v1 = count[i];
        for (long j = i; j >= e0; --j) {
            const int d = t1 - frame[j];
            if ((d >> top) >= channels) break; // no level's lag reaches it, nor the ones before
            const ulong v = v1 * (ulong)count[j];
            if (d < channels) xsp_add(products + ((size_t)t1 * binCount + b) * channels + d, v);
            int k = 1;
            while (k < levels && (d >> k) >= channels)
                ++k;
            for (; k < levels; ++k) {
                const int r = t1 >> k, m = r - (frame[j] >> k);
                if (m < lowest) break; // and smaller at every level above
                if (m >= channels || r >= rows[k]) continue; // beyond the lags, or a partial block
                const size_t row = (size_t)at[k] + ((size_t)r * binCount + b) * lowest;
                xsp_add(products + row + (m - lowest), v);
            }
        }
    }
}
