// xpcs multi-tau on sparse frames, variant `sparse` (DESIGN.md §5 "Sparse correlation"; host
// side gpu/xpcs/sparse_rings.cpp). A block's frames arrive as entries (frame_ptr, pixel,
// count), never densified on the host. Each level k keeps a ring of R_k rows, one value per
// labelled pixel (positions in bin order, zero where a row has nothing) and, per row, the list
// of its non-zero positions (at slot * stride, listLen[slot] of them). A frame's entries are
// scattered into level 0, pairs of rows merged into the next level by their lists, and a row's
// frame sums and lag products summed per bin from its list alone: the work follows the
// entries, not the pixels. Each list-held row also keeps a bitmap of its listed positions
// (`words` 32-bit words a row, bit p % 32 of word p / 32): sp_lags reads a lag row's value only
// where its bit is set, so the lags' reads of the mostly zero rows go to the bitmaps (1/32 of
// the rows' bytes, held by the cache) instead of the rows. Above level 0 every read of a
// list-held row's value is such a read (sp_bin and sp_bin_values too), so a row no lag can
// reach any more needs only its bitmap and list length back to zero (sp_forget), its values
// left as they are; level 0's rows, which sp_scatter adds into, are also cleared by their lists
// (sp_clear); a level that turns to values has its rows' unlisted values zeroed once
// (sp_clean). A value is
// 32-bit: the host bounds every binned frame's counts below 2^32 (and so every value); every sum
// is an exact 64-bit integer (the host bounds them), so the order of the atomics does not matter.
// Long lists are spread over several work-groups a row (sp_bin, sp_lags, sp_clear).
//
// A level whose rows are no longer sparse (the host's bound on their entries above a fraction
// of the positions) takes its sums from the values instead: sp_lags_dense, one work-group per
// (row, bin) over the bin's positions, a reduction in local memory and no atomics.
//
// Dense frames already on the device become a block's entries there: xpcs_sparse_compact.cl.
//
// Set by the host (-D): SP_LAGS the lags of the level, SP_LAG0 the first (sp_lags,
// sp_lags_dense); SP_WG the work-group size of sp_lags_dense (a power of two); SP_LOCAL_BINS
// the bins where a row's sums fit local memory (sp_lags sums there, else global atomics), else 0;
// DATA_T: xpcs_sparse_compact.cl.

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#ifndef SP_LAGS
#define SP_LAGS 16
#endif
#ifndef SP_LAG0
#define SP_LAG0 0
#endif
#ifndef SP_WG
#define SP_WG 64
#endif
#ifndef SP_LOCAL_BINS
#define SP_LOCAL_BINS 0
#endif
#ifndef SP_RUN
#define SP_RUN 8 // labelled pixels a work-item of sp_count and sp_compact; list entries, sp_bin
#endif

inline long sp_add(__global long* at, long v) {
    return atom_add((volatile __global long*)at, v);
}

// A work-group's row t: where its lags' rows t - SP_LAG0 - j (j < SP_LAGS) start in the ring
// and in the bitmaps (-1 before the first row, t < m), computed once for the group, so that the
// lag loops below read every lag's value of a position with no division or product, all loads
// issued before the first sum.
typedef struct {
    long ring[SP_LAGS], bits[SP_LAGS];
} sp_lag_starts;

inline void sp_lag_rows(long t, int rows, int positions, int words, __local sp_lag_starts* at) {
    for (int j = get_local_id(0); j < SP_LAGS; j += get_local_size(0)) {
        const long m = SP_LAG0 + j, slot = m <= t ? (t - m) % rows : -1;
        at->ring[j] = slot >= 0 ? slot * positions : -1;
        at->bits[j] = slot >= 0 ? slot * words : -1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

// Position p's values in the group's lag rows (0 for a row before the first).
inline void sp_lag_values(__global const uint* ring, __local const sp_lag_starts* at, long p,
                          uint* w) {
#pragma unroll
    for (int j = 0; j < SP_LAGS; ++j)
        w[j] = at->ring[j] >= 0 ? ring[at->ring[j] + p] : 0;
}

// The same for list-held rows: a value read only where the row's bitmap lists p (the others
// are zero).
inline void sp_lag_listed_values(__global const uint* ring, __global const uint* bits,
                                 __local const sp_lag_starts* at, int p, uint* w) {
    uint listed[SP_LAGS];
#pragma unroll
    for (int j = 0; j < SP_LAGS; ++j)
        listed[j] = at->bits[j] >= 0 ? bits[at->bits[j] + (p >> 5)] >> (p & 31) & 1u : 0u;
#pragma unroll
    for (int j = 0; j < SP_LAGS; ++j)
        w[j] = listed[j] ? ring[at->ring[j] + p] : 0;
}

// Whether a row's bitmap (`row` its first word) lists position p.
inline uint sp_listed(__global const uint* row, int p) {
    return row[p >> 5] >> (p & 31) & 1u;
}

// Position p listed in a row's bitmap (`row` its first word).
inline void sp_list_bit(__global uint* row, int p) {
    atomic_or(row + (p >> 5), 1u << (p & 31));
}

// Frame f of the block (one work-group a frame) into level 0's row first + f: each labelled
// entry's count added at its position; the entry that finds the position zero lists it.
// `largest`: the count type's largest value; a sum beyond it sets *beyond to the pixel + 1.
__kernel void sp_scatter(__global const long* ptr, __global const int* pixel,
                         __global const uint* count, __global const int* position,
                         __global uint* ring, __global uint* bits, __global int* list,
                         __global int* listLen, int rows, int positions, int words, int stride,
                         long first, long largest, __global int* beyond) {
    __local int listedHere; // the row is this group's alone: its list counted locally
    const int f = get_group_id(0);
    const int slot = (int)((first + f) % rows);
    __global uint* row = ring + (long)slot * positions;
    __global int* listed = list + (long)slot * stride;
    if (get_local_id(0) == 0) listedHere = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (long e = ptr[f] + get_local_id(0); e < ptr[f + 1]; e += get_local_size(0)) {
        const int p = position[pixel[e]];
        const uint c = count[e];
        if (p < 0 || c == 0) continue;
        const long before = (long)atomic_add(row + p, c);
        if (before == 0) {
            listed[atomic_inc(&listedHere)] = p;
            sp_list_bit(bits + (long)slot * words, p);
        }
        if (before + c > largest) atomic_max(beyond, pixel[e] + 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) listLen[slot] = listedHere;
}

// Rows first .. first + count - 1 of level k + 1: the merge of level k's rows 2t and 2t + 1 by
// their lists (a position in both listed once). Work-group (r, c) of (count, chunks): row
// first + r; a round of a group takes WG·SP_RUN entries of the pair's lists one after the other
// (SP_RUN a work-item, WG apart), rounds c, c + chunks, ...; each round's new positions are
// appended to the row's list at a place one atomic per work-group reserves (the row's list
// length starts at 0: new rows, or cleared by sp_forget). A source row's value is read only
// where its bitmap lists the position (its other values may be an earlier row's).
__kernel void sp_bin(__global const uint* src, __global const uint* srcBits,
                     __global const int* srcList, __global const int* srcLen, int srcRows,
                     int srcStride, __global uint* dst, __global uint* dstBits,
                     __global int* dstList, __global int* dstLen, int dstRows, int dstStride,
                     int positions, int words, long first) {
    __local int listedHere, base;
    const long t = first + get_group_id(0);
    const int a = (int)((2 * t) % srcRows), b = (int)((2 * t + 1) % srcRows);
    const int slot = (int)(t % dstRows);
    __global const uint* ra = src + (long)a * positions;
    __global const uint* rb = src + (long)b * positions;
    __global uint* row = dst + (long)slot * positions;
    __global int* listed = dstList + (long)slot * dstStride;
    __global const int* la = srcList + (long)a * srcStride;
    __global const int* lb = srcList + (long)b * srcStride;
    __global const uint* ba = srcBits + (long)a * words;
    __global const uint* bb = srcBits + (long)b * words;
    const int na = srcLen[a], n = na + srcLen[b], wg = get_local_size(0), round = wg * SP_RUN;
    for (int start = get_group_id(1) * round; start < n; start += get_num_groups(1) * round) {
        if (get_local_id(0) == 0) listedHere = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        int p[SP_RUN], mine = 0;
#pragma unroll
        for (int k = 0; k < SP_RUN; ++k) {
            const int i = start + get_local_id(0) + k * wg;
            p[k] = -1;
            if (i < na) {
                p[k] = la[i];
                row[p[k]] = ra[p[k]] + (sp_listed(bb, p[k]) ? rb[p[k]] : 0u);
            } else if (i < n) {
                const int q = lb[i - na];
                if (!sp_listed(ba, q)) row[q] = rb[q], p[k] = q; // else listed with row a's
            }
            mine += p[k] >= 0;
        }
        const int at = mine ? atomic_add(&listedHere, mine) : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0) base = atomic_add(dstLen + slot, listedHere);
        barrier(CLK_LOCAL_MEM_FENCE);
        int e = base + at;
#pragma unroll
        for (int k = 0; k < SP_RUN; ++k)
            if (p[k] >= 0) {
                listed[e++] = p[k];
                sp_list_bit(dstBits + (long)slot * words, p[k]);
            }
        barrier(CLK_LOCAL_MEM_FENCE); // base and listedHere are read before the next round
    }
}

// Rows first .. first + count - 1 of a level whose rows are summed from their values (one
// work-item a (position, row)): every position of the merge of the rows 2t and 2t + 1 below,
// so nothing of the slot's earlier row is left (no list, no clearing). From a list-held level
// (srcListed), a source value only where its row's bitmap lists the position.
__kernel void sp_bin_values(__global const uint* src, __global const uint* srcBits, int srcListed,
                            int words, int srcRows, __global uint* dst, int dstRows,
                            int positions, long first) {
    const int p = get_global_id(0);
    const long t = first + get_global_id(1);
    if (p >= positions) return;
    const long a = (2 * t) % srcRows, b = (2 * t + 1) % srcRows;
    uint va = src[a * positions + p], vb = src[b * positions + p];
    if (srcListed) {
        va = sp_listed(srcBits + a * words, p) ? va : 0u;
        vb = sp_listed(srcBits + b * words, p) ? vb : 0u;
    }
    dst[(t % dstRows) * positions + p] = va + vb;
}

// Every row of a level's ring as its bitmap lists it: unlisted values to 0 (one work-item a
// (position, row)), once, where the level turns from lists to values (sp_lags_dense and
// sp_bin_values then read whole rows).
__kernel void sp_clean(__global uint* ring, __global const uint* bits, int positions, int words) {
    const int p = get_global_id(0);
    const long r = get_global_id(1);
    if (p < positions && !sp_listed(bits + r * words, p)) ring[r * positions + p] = 0;
}

// The frame sums and lag products of rows first .. first + count - 1 of a level (one
// work-group a row, r = the group): per listed position p of row t, sums[sumsAt + r·bins + b]
// += v and products[prodsAt + (r·bins + b)·SP_LAGS + j] += v · (row t - m)(p) for the lags
// m = SP_LAG0 + j of rows that exist (t >= m); b = binOf[p].
__kernel void sp_lags(__global const uint* ring, __global const uint* bits,
                      __global const int* list, __global const int* listLen,
                      __global const int* binOf, int rows, int positions, int words, int stride,
                      long first, int bins, __global long* sums, long sumsAt,
                      __global long* products, long prodsAt) {
    // Work-group (r, c) of (count, chunks): row first + r, list entries c·WG, c·WG + chunks·WG...
    const long r = get_group_id(0), t = first + r;
    const int chunk = get_group_id(1), chunks = get_num_groups(1);
    const int slot = (int)(t % rows);
    __global const uint* now = ring + (long)slot * positions;
    __global const int* listed = list + (long)slot * stride;
    const int n = listLen[slot];
#if SP_LOCAL_BINS > 0
    // The row's sums (bins x (1 + SP_LAGS)) in local memory, then once each to its word: the
    // row is this group's alone, so no global atomic.
    __local long acc[SP_LOCAL_BINS * (SP_LAGS + 1)];
    for (int i = get_local_id(0); i < bins * (SP_LAGS + 1); i += get_local_size(0))
        acc[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    __local sp_lag_starts lagAt;
    sp_lag_rows(t, rows, positions, words, &lagAt);
    const int step = get_local_size(0) * chunks;
    for (int i = chunk * get_local_size(0) + get_local_id(0); i < n; i += step) {
        const int p = listed[i];
        const long v = now[p];
        const int b = binOf[p];
        uint w[SP_LAGS];
        sp_lag_listed_values(ring, bits, &lagAt, p, w);
#if SP_LOCAL_BINS > 0
        __local long* at = acc + b * (SP_LAGS + 1);
        atom_add((volatile __local long*)at, v);
#else
        const long at = r * bins + b;
        sp_add(sums + sumsAt + at, v);
#endif
#pragma unroll
        for (int j = 0; j < SP_LAGS; ++j) {
            if (w[j] == 0) continue;
#if SP_LOCAL_BINS > 0
            atom_add((volatile __local long*)(at + 1 + j), v * (long)w[j]);
#else
            sp_add(products + prodsAt + at * SP_LAGS + j, v * (long)w[j]);
#endif
        }
    }
#if SP_LOCAL_BINS > 0
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_local_id(0); i < bins * (SP_LAGS + 1); i += get_local_size(0)) {
        if (acc[i] == 0) continue;
        const int b = i / (SP_LAGS + 1), j = i % (SP_LAGS + 1);
        __global long* to = j == 0 ? sums + sumsAt + r * bins + b
                                   : products + prodsAt + (r * bins + b) * SP_LAGS + j - 1;
        if (chunks == 1)
            *to = acc[i];
        else
            sp_add(to, acc[i]); // the row's other chunks add theirs
    }
#endif
}

// The same sums from the values of rows first .. first + count - 1 (work-group (r·chunks + c,
// b): row first + r, bin b over its positions offsets[b] .. offsets[b + 1] - 1, chunk c of
// `chunks` taking every chunks-th stretch of SP_WG; local size SP_WG; a bin's chunks add their
// sums to its words, one chunk writes them).
__kernel void sp_lags_dense(__global const uint* ring, __global const long* offsets, int rows,
                            int positions, long first, int bins, int chunks, __global long* sums,
                            long sumsAt, __global long* products, long prodsAt) {
    __local long part[SP_WG * (SP_LAGS + 1)];
    const int lid = get_local_id(0), b = get_group_id(1), chunk = get_group_id(0) % chunks;
    const long r = get_group_id(0) / chunks, t = first + r;
    __global const uint* now = ring + (t % rows) * positions;
    __local sp_lag_starts lagAt;
    sp_lag_rows(t, rows, positions, 0, &lagAt);
    long sum = 0, prod[SP_LAGS];
    for (int j = 0; j < SP_LAGS; ++j)
        prod[j] = 0;
    for (long p = offsets[b] + chunk * SP_WG + lid; p < offsets[b + 1]; p += SP_WG * chunks) {
        const long v = now[p];
        if (v == 0) continue;
        uint w[SP_LAGS];
        sp_lag_values(ring, &lagAt, p, w);
        sum += v;
#pragma unroll
        for (int j = 0; j < SP_LAGS; ++j)
            prod[j] += v * (long)w[j];
    }
    part[lid] = sum;
    for (int j = 0; j < SP_LAGS; ++j)
        part[(j + 1) * SP_WG + lid] = prod[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = SP_WG / 2; step > 0; step /= 2) {
        if (lid < step)
            for (int j = 0; j <= SP_LAGS; ++j)
                part[j * SP_WG + lid] += part[j * SP_WG + lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid != 0) return;
    const long at = r * bins + b;
    if (chunks == 1) {
        sums[sumsAt + at] = part[0];
        for (int j = 0; j < SP_LAGS; ++j)
            products[prodsAt + at * SP_LAGS + j] = part[(j + 1) * SP_WG];
        return;
    }
    if (part[0] != 0) sp_add(sums + sumsAt + at, part[0]);
    for (int j = 0; j < SP_LAGS; ++j)
        if (part[(j + 1) * SP_WG] != 0)
            sp_add(products + prodsAt + at * SP_LAGS + j, part[(j + 1) * SP_WG]);
}

// Rows first .. first + count - 1 of a level back to zero by their lists: work-group (r, c)
// of (count, chunks) clears row first + r's list entries c·WG, c·WG + chunks·WG, ... Their list
// lengths stay: sp_forget sets them to 0 after.
__kernel void sp_clear(__global uint* ring, __global const int* list,
                       __global const int* listLen, int rows, int positions, int stride,
                       long first) {
    const int slot = (int)((first + get_group_id(0)) % rows);
    const int n = listLen[slot], step = get_local_size(0) * get_num_groups(1);
    for (int i = get_group_id(1) * get_local_size(0) + get_local_id(0); i < n; i += step)
        ring[(long)slot * positions + list[(long)slot * stride + i]] = 0;
}

// The list lengths and bitmaps of `count` rows of a level from slot slot0 on (wrapping at
// `rows`) to 0: work-item (i, r) of (⌈words / 4⌉, count) zeroes words 4i .. 4i + 3 of the r-th
// row's bitmap (one 16-byte store where the rows' words are a multiple of 4), i = 0 its length.
__kernel void sp_forget(__global int* listLen, __global uint* bits, int rows, int words,
                        int slot0) {
    const int w = get_global_id(0) * 4;
    int slot = slot0 + get_global_id(1);
    if (slot >= rows) slot -= rows;
    if (w == 0) listLen[slot] = 0;
    __global uint* row = bits + (long)slot * words;
    if ((words & 3) == 0 && w < words)
        *(__global uint4*)(row + w) = (uint4)(0);
    else
        for (int k = w; k < min(w + 4, words); ++k)
            row[k] = 0;
}
