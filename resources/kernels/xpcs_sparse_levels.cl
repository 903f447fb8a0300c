// xpcs multi-tau on sparse frames, variant `sparse`: the levels below K (SP_PAIRS, chosen by
// the host) by each position's pairs of entries instead of rings (host side
// gpu/xpcs/sparse_pairs_levels.cpp; appended to xpcs_sparse.cl). At a photon detector's low
// occupancy a row of a low level holds few of the positions, and two rows a lag apart share
// fewer still: looking every listed position up in every lag row (sp_lags) reads far more than
// the products it finds. Here a block's entries are turned position-major on the device
// (sp_pm_count, sp_pm_place, sp_pm_scatter: a counting sort; each position's few entries then
// sorted by frame in place), and one work-item a position walks its entries of the block and of
// the block before, binned level by level, multiplying each new row's value with the values of
// the rows within its level's lags that hold one: every product the rings would make that is
// not zero, and no other. Level K's rows of the block are written whole into its ring (values),
// where the rings take over (sp_lags_dense, sp_bin_values). The frame sums of level 0 come from
// the count pass, those of levels 1 .. K - 1 from them (sp_pm_row_sums). Every sum is an exact
// 64-bit integer (the host bounds them), so the order of the atomics does not matter.
//
// The host keeps every block but the last 2^K frames long at least, and (C - 1)·2^(K-1) frames
// at least, so that a row of a level below K lies in one block and its lags reach back into the
// block before at most.
//
// Set by the host (-D): SP_CHANNELS the run's channels C; SP_WG the work-group size of
// sp_pm_place (a power of two); SP_LOCAL_BINS as in xpcs_sparse.cl.

#ifndef SP_CHANNELS
#define SP_CHANNELS 16
#endif

// Frame f of the block (one work-group a frame): each labelled non-zero entry counted at its
// position (cnt[p], zero before the block) and its count added to its bin's sum of the frame,
// sums[sumsAt + f·bins + b] (the block's rows of level 0).
__kernel void sp_pm_count(__global const long* ptr, __global const int* pixel,
                          __global const uint* count, __global const int* position,
                          __global const int* binOf, __global int* cnt, int bins,
                          __global long* sums, long sumsAt) {
    const int f = get_group_id(0);
#if SP_LOCAL_BINS > 0
    __local long acc[SP_LOCAL_BINS];
    for (int i = get_local_id(0); i < bins; i += get_local_size(0))
        acc[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    for (long e = ptr[f] + get_local_id(0); e < ptr[f + 1]; e += get_local_size(0)) {
        const int p = position[pixel[e]];
        const uint c = count[e];
        if (p < 0 || c == 0) continue;
        atomic_inc(cnt + p);
#if SP_LOCAL_BINS > 0
        atom_add((volatile __local long*)(acc + binOf[p]), (long)c);
#else
        sp_add(sums + sumsAt + (long)f * bins + binOf[p], (long)c);
#endif
    }
#if SP_LOCAL_BINS > 0
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_local_id(0); i < bins; i += get_local_size(0))
        sums[sumsAt + (long)f * bins + i] = acc[i];
#endif
}

// Each position's stretch of the block's position-major entries (one work-item a position,
// local size SP_WG): a work-group's positions side by side (common.cl's group scan), the
// groups' stretches where one atomic on *total (zero before the block) places them.
// len[p] = cnt[p].
__kernel void sp_pm_place(__global const int* cnt, __global int* start, __global int* len,
                          int positions, __global int* total) {
    __local uint scan[SP_WG];
    __local int base;
    const int p = get_global_id(0);
    const uint n = p < positions ? (uint)cnt[p] : 0u;
    uint sum;
    const uint before = clscope_group_exclusive_scan(n, scan, SP_WG, &sum);
    if (get_local_id(0) == 0) base = atomic_add(total, (int)sum);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (p < positions) start[p] = base + (int)before, len[p] = (int)n;
}

// Frame f of the block (one work-group a frame): each labelled non-zero entry into its
// position's stretch as (the run's frame index, count), in any order; cnt[p] counts down to
// zero, ready for the next block.
__kernel void sp_pm_scatter(__global const long* ptr, __global const int* pixel,
                            __global const uint* count, __global const int* position,
                            __global int* cnt, __global const int* start, long first,
                            __global int* frameOf, __global uint* countOf) {
    const int f = get_group_id(0);
    for (long e = ptr[f] + get_local_id(0); e < ptr[f + 1]; e += get_local_size(0)) {
        const int p = position[pixel[e]];
        const uint c = count[e];
        if (p < 0 || c == 0) continue;
        const int at = start[p] + atomic_dec(cnt + p) - 1;
        frameOf[at] = (int)(first + f);
        countOf[at] = c;
    }
}

// n entries (frame, count) sorted by frame in place: a position holds few in a block.
inline void sp_pm_sort(__global int* frame, __global uint* count, int n) {
    for (int i = 1; i < n; ++i) {
        const int f = frame[i];
        const uint c = count[i];
        int j = i - 1;
        for (; j >= 0 && frame[j] > f; --j)
            frame[j + 1] = frame[j], count[j + 1] = count[j];
        frame[j + 1] = f, count[j + 1] = c;
    }
}

// One work-item a position p (bin binOf[p]): its entries of the block (start, len; sorted here)
// after those of the block before (prevStart, prevLen; none where first is 0), binned at each
// level k < levels: a row's value J_r(p) is the sum of its entries in frames r·2^k ..
// (r + 1)·2^k - 1. Each row r of the block (first >> k <= r < (first + frames) >> k) adds
// J_r(p)·J_{r-m}(p) for every lag m of the level whose row holds p to
// products[at_k + ((r - lo)·bins + b)·lags + m - lag0] (at_k: level k's first product, from
// prodsAt). A level-0 value beyond `largest` (a pixel listed twice in a frame) sets *beyond to
// the pixel + 1. Then level `levels`' rows of the block, whole, into `ring` (`rows` slots).
__kernel void sp_pm_pairs(__global const int* prevStart, __global const int* prevLen,
                          __global const int* prevFrame, __global const uint* prevCount,
                          __global const int* start, __global const int* len,
                          __global int* frame, __global uint* count, __global const int* binOf,
                          __global const int* pixelOf, int positions, long first, int frames,
                          int levels, int bins, __global long* products, long prodsAt,
                          __global uint* ring, int rows, long largest, __global int* beyond) {
    const int p = get_global_id(0);
    if (p >= positions) return;
    const int cs = start[p], cn = len[p], ps = first > 0 ? prevStart[p] : 0,
              pn = first > 0 ? prevLen[p] : 0, b = binOf[p];
    sp_pm_sort(frame + cs, count + cs, cn);
    long at = prodsAt;
    for (int k = 0; k < levels; ++k) {
        const int lag0 = k ? SP_CHANNELS / 2 : 0, lags = k ? SP_CHANNELS / 2 : SP_CHANNELS;
        const long lo = first >> k, hi = (first + frames) >> k;
        int wr[SP_CHANNELS]; // the last rows that hold p (a ring of them) and their values
        uint wj[SP_CHANNELS];
        int held = 0, r = -1;
        uint value = 0;
        for (int i = 0; i <= pn + cn; ++i) {
            int ri = INT_MAX;
            uint ci = 0;
            if (i < pn) {
                ri = prevFrame[ps + i] >> k, ci = prevCount[ps + i];
                if (ri + SP_CHANNELS <= lo) continue; // beyond every lag of the block's rows
            } else if (i < pn + cn) {
                ri = frame[cs + i - pn] >> k, ci = count[cs + i - pn];
            }
            if (ri == r) {
                value += ci;
                continue;
            }
            if (r >= 0) {
                if (k == 0 && r >= lo && value > largest) atomic_max(beyond, pixelOf[p] + 1);
                wr[held % SP_CHANNELS] = r, wj[held % SP_CHANNELS] = value;
                ++held;
                if (r >= lo && r < hi)
                    for (int w = 0; w < min(held, SP_CHANNELS); ++w) {
                        const int m = r - wr[w];
                        if (m >= lag0 && m < lag0 + lags)
                            sp_add(products + at + ((r - lo) * bins + b) * lags + m - lag0,
                                   (long)((ulong)value * wj[w]));
                    }
            }
            r = ri, value = ci;
        }
        at += (hi - lo) * bins * lags;
    }
    // Level `levels`: the block's rows lie in it whole (first is a multiple of 2^levels).
    const long lo = first >> levels, hi = (first + frames) >> levels;
    int i = 0;
    for (long r = lo; r < hi; ++r) {
        uint value = 0;
        for (; i < cn && (frame[cs + i] >> levels) == r; ++i)
            value += count[cs + i];
        ring[(r % rows) * positions + p] = value;
    }
}

// Rows of level k >= 1 of the block (work-item (i, b) of (count rounded up, bins)): row i's sum
// in bin b, the sum of its `span` (2^k) frames' sums among the block's rows of level 0.
__kernel void sp_pm_row_sums(__global long* sums, long from, long to, int count, int bins,
                             int span) {
    const int i = get_global_id(0), b = get_global_id(1);
    if (i >= count) return;
    long s = 0;
    for (int f = 0; f < span; ++f)
        s += sums[from + ((long)i * span + f) * bins + b];
    sums[to + (long)i * bins + b] = s;
}
