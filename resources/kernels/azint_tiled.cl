// azint's tiled variant (after azint.cl and azint_local.cl, whose helpers it uses): the image
// cut into tiles of AZ_TILE_H x AZ_TILE_W pixels (the last ones cut by the image's edges), each
// with its lowest bin and its span of bins, each pixel's bin stored as a 16-bit offset from its
// tile's lowest, 8-bit where every tile spans at most 255 bins (AZ_TILE_BYTES), AZ_NO_BIN for
// none or outside the image, tile by tile (the host's tables, core/azint/tiles.hpp). A
// work-group takes one tile and AZ_TILE_FRAMES frames: its work-items read their pixels'
// offsets into registers once, then for each frame read the pixels' values AZ_TILE_RUN
// consecutive ones at a time (one vector load where the width is a multiple of AZ_TILE_RUN), sum
// those of one bin in registers, and add each run to a local histogram of the tile's span x the
// frames of a pass; its non-empty bins go to the global sums (zeroed before) with one atomic
// each, and to the counts with another (AZ_STATIC_COUNTS 0). With static counts (the host starts
// each frame's counts at its bins' binned pixels) neither the runs nor the flushes count: an
// invalid value (a sentinel, NaN: rare) takes its pixel off its bin's global count with one
// atomic, and the local histogram holds the sums only. Against the histogram: the per-pixel
// table is read once for AZ_TILE_FRAMES frames at a half or a quarter of the size, and a group's
// local histogram holds its tile's few bins, not all of them. A tile whose span does not fit
// AZ_LOCAL_SLOTS once (large cakes, a small local memory) adds each run to the global sums instead;
// one spanning more than 16 bits of offsets (span > AZ_OFFSET_MAX: its offsets are 0 for binned
// pixels) takes its pixels' bins from the 32-bit table. Global size (tiles x AZ_TILE_WG, frames /
// AZ_TILE_FRAMES).
//
// Set by the host (-D): AZ_TILE_H, AZ_TILE_W  the tile (AZ_TILE_RUN divides AZ_TILE_W);
// AZ_TILE_WG  the work-group size; AZ_TILE_FRAMES  frames a work-group sums; AZ_TILE_RUN
// consecutive pixels a work-item reads at once (1, 2, 4, 8 or 16); AZ_LOCAL_SLOTS  the local
// histogram's bins (a tile's span x the frames of a pass); AZ_TILE_BYTES  1: the offsets are
// bytes (the host's, from the tables); AZ_TILE_SORTED  1: the sorted form azint_tiled_sorted
// (below: its own tables), else azint_tiled; AZ_TILE_TWO  integer sums: a run of at most two
// bins (every pixel binned, every value valid) summed without a branch a pixel, then at most two
// flushes (0: pixel by pixel, as the others); AZ_STATIC_COUNTS (azint.cl)

#if !defined(AZ_TILE_H) || !defined(AZ_TILE_W) || !defined(AZ_TILE_WG) ||                          \
    !defined(AZ_TILE_FRAMES) || !defined(AZ_TILE_RUN) || !defined(AZ_LOCAL_SLOTS) ||               \
    !defined(AZ_TILE_BYTES) || !defined(AZ_TILE_SORTED) || !defined(AZ_TILE_TWO)
#error "azint_tiled.cl needs AZ_TILE_H, _W, _WG, _FRAMES, _RUN, _BYTES, _SORTED, _TWO, AZ_LOCAL_SLOTS"
#endif

#if AZ_TILE_BYTES
typedef uchar az_offset;
#define AZ_NO_BIN 0xFF
#else
typedef ushort az_offset;
#define AZ_NO_BIN 0xFFFF
#endif
#define AZ_OFFSET_MAX 0xFFFF // the widest span of 16-bit offsets (0 .. 0xFFFE)
#define AZ_TILE_RUNS (AZ_TILE_H * AZ_TILE_W / AZ_TILE_RUN)          // runs of a tile
#define AZ_ITEM_RUNS ((AZ_TILE_RUNS + AZ_TILE_WG - 1) / AZ_TILE_WG) // runs of a work-item

// AZ_TILE_RUN values of a frame: a vector (DATA_T ## AZ_TILE_RUN) or its elements.
#define AZ_CAT_(a, b) a##b
#define AZ_CAT(a, b) AZ_CAT_(a, b)
typedef union {
#if AZ_TILE_RUN > 1
    AZ_CAT(DATA_T, AZ_TILE_RUN) v;
#endif
    DATA_T a[AZ_TILE_RUN];
} az_run;

// Runs of one or two bins summed without a branch a pixel (AZ_TILE_TWO: integer sums).
#define AZ_TILE_TWO_RUNS (AZ_INT_SUM && AZ_TILE_RUN > 1 && AZ_TILE_TWO)

// A work-item's pixels: where each of its runs starts in a frame, and each pixel's offset.
typedef struct {
    size_t first[AZ_ITEM_RUNS];
    az_offset offset[AZ_ITEM_RUNS][AZ_TILE_RUN];
    bool any[AZ_ITEM_RUNS]; // a pixel of the run in a bin
#if AZ_TILE_TWO_RUNS
    uchar cut[AZ_ITEM_RUNS]; // a run of at most two bins, every pixel binned: where the second
                             // starts (AZ_TILE_RUN: one bin); else 0
#endif
} az_tile_pixels;

// A run's two pieces: where its second bin starts (AZ_TILE_RUN: one bin), 0 where a pixel is in
// no bin or the run spans more than two.
inline uchar azint_tile_cut(const az_offset* offset) {
    bool two = offset[0] != AZ_NO_BIN;
    uint cut = 0;
#pragma unroll
    for (uint i = 1; i < AZ_TILE_RUN; ++i) {
        if (offset[i] == AZ_NO_BIN || (offset[i] != offset[i - 1] && cut != 0)) two = false;
        if (offset[i] != offset[i - 1] && cut == 0) cut = i;
    }
    return two ? (uchar)(cut ? cut : AZ_TILE_RUN) : 0;
}

// The work-item's runs of the tile: run r of a tile is row r / (AZ_TILE_W / AZ_TILE_RUN), columns
// (r mod that) x AZ_TILE_RUN on; a work-item takes AZ_ITEM_RUNS runs side by side, lid x
// AZ_ITEM_RUNS on, so that its runs mostly fall in one bin and flush once (on an H200, 16 frames
// of 4096^2: 8 % faster than runs AZ_TILE_WG apart; each line is then read by AZ_ITEM_RUNS of a
// warp's loads, not one).
inline az_tile_pixels azint_tile_pixels(__global const az_offset* tile_offsets, size_t tile,
                                        uint width, size_t lid) {
    const size_t across = (width + AZ_TILE_W - 1) / AZ_TILE_W; // tiles a row
    const size_t top = tile / across * AZ_TILE_H, left = tile % across * AZ_TILE_W;
    az_tile_pixels p;
#pragma unroll
    for (uint j = 0; j < AZ_ITEM_RUNS; ++j) {
        const size_t r = lid * AZ_ITEM_RUNS + j;
        const size_t row = r / (AZ_TILE_W / AZ_TILE_RUN),
                     column = r % (AZ_TILE_W / AZ_TILE_RUN) * AZ_TILE_RUN;
        p.first[j] = (top + row) * width + left + column;
        p.any[j] = false;
#pragma unroll
        for (uint i = 0; i < AZ_TILE_RUN; ++i) {
            const az_offset o = r < AZ_TILE_RUNS
                                    ? tile_offsets[(tile * AZ_TILE_RUNS + r) * AZ_TILE_RUN + i]
                                    : AZ_NO_BIN;
            p.offset[j][i] = o;
            p.any[j] |= o != AZ_NO_BIN;
        }
#if AZ_TILE_TWO_RUNS
        p.cut[j] = azint_tile_cut(p.offset[j]);
#endif
    }
    return p;
}

// A run's values: one vector load where runs are aligned (the width a multiple of AZ_TILE_RUN: no
// run crosses the image's edge), else each binned pixel's (none outside the image).
inline az_run azint_tile_read(__global const DATA_T* p, bool aligned, const az_offset* offset) {
    az_run values;
#if AZ_TILE_RUN > 1
    if (aligned) {
        values.v = *(__global const AZ_CAT(DATA_T, AZ_TILE_RUN)*)p;
        return values;
    }
#endif
#pragma unroll
    for (uint i = 0; i < AZ_TILE_RUN; ++i)
        values.a[i] = offset[i] != AZ_NO_BIN ? p[i] : (DATA_T)0;
    return values;
}

// Where a tile's sums go: its local histogram (the pass's frame f at f x span), or the global
// sums (the frame's row of them), with what turns an offset into an index there.
typedef struct {
    bool local_sums; // the local histogram; else the global sums
    bool wide;       // global: the bins from bin_of_pixel (the tile spans more than 16 bits)
    int base;        // global: the tile's lowest bin
} az_tile_target;

// A pixel's bin: its tile's lowest + its offset, or the 32-bit table's where the tile spans more
// than 16 bits (k: the pixel's index in the frame).
inline int azint_tile_bin(az_tile_target to, az_offset o, __global const int* bin_of_pixel,
                          size_t k) {
    return to.wide ? bin_of_pixel[k] : to.base + (int)o;
}

inline void azint_tile_flush(az_tile_target to, volatile __local az_local_sum* signal,
                             volatile __local uint* n, __global az_sum* sum_signal,
                             __global uint* count, int key, az_local_sum s, uint m) {
    if (to.local_sums)
        azint_local_flush(signal, n, key, s, m);
    else
        azint_global_flush(sum_signal, count, (size_t)key, s, m);
}

// The sums of a work-item's run of pixels in one bin (key), not yet added to the target.
typedef struct {
    int key; // -1: none yet
    az_local_sum s;
    uint m;
} az_tile_sums;

// m values of bin key summing s after the run in r: added to it where it is of that bin, else the
// run flushed to the target (where it has pixels) and a new one started.
inline void azint_tile_add(az_tile_sums* r, int key, az_local_sum s, uint m, az_tile_target to,
                           volatile __local az_local_sum* signal, volatile __local uint* n,
                           __global az_sum* sum_signal, __global uint* count) {
    if (key != r->key) {
        if (r->m) azint_tile_flush(to, signal, n, sum_signal, count, r->key, r->s, r->m);
        r->key = key, r->s = 0, r->m = 0;
    }
    r->s += s, r->m += m;
}

// One frame of a work-item's pixels: the valid values of one bin (consecutive in its runs)
// summed in registers, each run added once to the target; sum_signal, count: the frame's rows of
// the global sums (invalid values taken off its counts where static).
inline void azint_tile_frame(__global const DATA_T* frame, const az_tile_pixels* p, bool aligned,
                             az_tile_target to, __global const int* bin_of_pixel,
                             volatile __local az_local_sum* signal, volatile __local uint* n,
                             __global az_sum* sum_signal, __global uint* count) {
    az_tile_sums run = {-1, 0, 0};
#pragma unroll
    for (uint j = 0; j < AZ_ITEM_RUNS; ++j) {
        if (!p->any[j]) continue;
        const az_run values = azint_tile_read(frame + p->first[j], aligned, p->offset[j]);
#if AZ_TILE_TWO_RUNS
        // A run of one or two bins with every value valid: its two sums without a branch a
        // pixel, then at most two flushes (integer sums: the same whatever the order).
        const uint cut = p->cut[j];
        if (to.local_sums && cut) {
            bool valid = true;
            az_local_sum first = 0, second = 0;
#pragma unroll
            for (uint i = 0; i < AZ_TILE_RUN; ++i) {
                valid &= azint_valid(values.a[i]);
                const az_local_sum v = azint_local_value(values.a[i]);
                second += v;
                first += i < cut ? v : 0;
            }
            second -= first; // the whole run's less the first piece: one select a pixel
            if (valid) {
                azint_tile_add(&run, (int)p->offset[j][0], first, cut, to, signal, n, sum_signal,
                               count);
                if (cut < AZ_TILE_RUN)
                    azint_tile_add(&run, (int)p->offset[j][AZ_TILE_RUN - 1], second,
                                   AZ_TILE_RUN - cut, to, signal, n, sum_signal, count);
                continue;
            }
        }
#endif
#pragma unroll
        for (uint i = 0; i < AZ_TILE_RUN; ++i) {
            const az_offset o = p->offset[j][i];
            if (o == AZ_NO_BIN) continue;
            if (!azint_valid(values.a[i])) {
                azint_drop(count + azint_tile_bin(to, o, bin_of_pixel, p->first[j] + i));
                continue;
            }
            const int key =
                to.local_sums ? (int)o : azint_tile_bin(to, o, bin_of_pixel, p->first[j] + i);
            azint_tile_add(&run, key, azint_local_value(values.a[i]), 1, to, signal, n,
                           sum_signal, count);
        }
    }
    if (run.m) azint_tile_flush(to, signal, n, sum_signal, count, run.key, run.s, run.m);
}

// A work-group per tile (group 0) and AZ_TILE_FRAMES frames (group 1); tile_bins: each tile's
// lowest bin and span; bin_of_pixel: the 32-bit bins where a tile spans more than 16 bits (else
// a buffer of one). Sums zeroed before, counts zeroed or static (AZ_STATIC_COUNTS). No
// reqd_work_group_size: ptxas takes it as launch bounds and then ignores the host's register cap
// (AZ_TILE_REGS, gpu/azint/recipes.cpp).
__kernel void azint_tiled(__global const DATA_T* frames, __global const int* tile_bins,
                          __global const az_offset* tile_offsets, __global const int* bin_of_pixel,
                          uint width, uint height, uint bins, uint frame_count,
                          __global az_sum* sum_signal, __global uint* count) {
    __local az_local_sum signal[AZ_LOCAL_SLOTS];
    __local uint n[AZ_COUNT_SLOTS(AZ_LOCAL_SLOTS)];
    const size_t tile = get_group_id(0), lid = get_local_id(0);
    const int base = tile_bins[2 * tile], span = tile_bins[2 * tile + 1];
    const size_t pixels = (size_t)width * height, t0 = get_group_id(1) * AZ_TILE_FRAMES;
    if (span == 0 || t0 >= frame_count) return; // no binned pixel or no frame: the whole group
    const uint here = (uint)min((size_t)AZ_TILE_FRAMES, frame_count - t0); // frames of the group
    const az_tile_pixels p = azint_tile_pixels(tile_offsets, tile, width, lid);
    const bool aligned = width % AZ_TILE_RUN == 0;
    // Frames a pass of the local histogram holds; 0: the global sums directly.
    const uint per_pass = span <= AZ_OFFSET_MAX ? min((uint)AZ_LOCAL_SLOTS / span, here) : 0;
    if (per_pass == 0) {
        const az_tile_target to = {false, span > AZ_OFFSET_MAX, base};
        for (size_t t = t0; t < t0 + here; ++t)
            azint_tile_frame(frames + t * pixels, &p, aligned, to, bin_of_pixel, signal, n,
                             sum_signal + t * bins, count + t * bins);
        return;
    }
    const az_tile_target to = {true, false, base};
    for (uint f0 = 0; f0 < here; f0 += per_pass) { // the same for the group
        const uint slots = min(per_pass, here - f0) * (uint)span;
        for (uint k = lid; k < slots; k += AZ_TILE_WG) {
            signal[k] = 0;
            if (!AZ_STATIC_COUNTS) n[k] = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint f = 0; f * span < slots; ++f) {
            const size_t t = t0 + f0 + f;
            azint_tile_frame(frames + t * pixels, &p, aligned, to, bin_of_pixel, signal + f * span,
                             n + (AZ_STATIC_COUNTS ? 0 : f * span), sum_signal + t * bins,
                             count + t * bins);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = lid; k < slots; k += AZ_TILE_WG) {
            if (!azint_local_used(signal, n, k)) continue;
            const uint f = k / (uint)span;
            const size_t at = (t0 + f0 + f) * bins + (size_t)base + (k - f * span);
            azint_global_flush(sum_signal, count, at, signal[k], azint_local_count(n, k));
        }
        barrier(CLK_LOCAL_MEM_FENCE); // the slots are zeroed for the next pass
    }
}

#if AZ_TILE_SORTED

// The sorted form: no local atomics. Its tables (core/azint/tiles.hpp SortedTiles): each tile's
// binned pixels sorted by bin as 16-bit in-tile indices (tile_order, AZ_TILE_H x AZ_TILE_W a
// tile), cut into segments of one bin each (segments: bin, first entry, end; tile_segments: each
// tile's first). A work-group takes one tile and AZ_TILE_FRAMES frames: it copies the frames'
// pixels of the tile into local memory (AZ_TILE_RUN at a time, one vector load where runs are
// aligned) and the tile's order once, then each work-item sums one segment of one frame from
// local memory in registers (consecutive work-items: one segment's frames, the same loop) and
// adds it to the global sums with one atomic (two where it counts): one global atomic per
// (tile, bin, frame), none in local memory. Local memory: AZ_TILE_FRAMES frames of the tile
// (each padded by a 32-bit word, so that the frames of one entry fall in different banks) and
// its order; the host checks that it fits. Global size (tiles x AZ_TILE_WG, frames /
// AZ_TILE_FRAMES).

#define AZ_TILE_AREA (AZ_TILE_H * AZ_TILE_W)
#define AZ_FRAME_STRIDE (AZ_TILE_AREA + (sizeof(DATA_T) < 4 ? 4 / sizeof(DATA_T) : 1))

// The group's frames of the tile into local memory (pixels outside the image left unset: no
// entry reads them), and the tile's order.
inline void azint_sorted_stage(__global const DATA_T* frames, size_t tile, uint width, uint height,
                               size_t t0, uint here, __global const ushort* tile_order,
                               __local DATA_T* values, __local ushort* order, size_t lid) {
    const size_t across = (width + AZ_TILE_W - 1) / AZ_TILE_W, pixels = (size_t)width * height;
    const size_t top = tile / across * AZ_TILE_H, left = tile % across * AZ_TILE_W;
    for (size_t k = lid; k < AZ_TILE_AREA; k += AZ_TILE_WG)
        order[k] = tile_order[tile * AZ_TILE_AREA + k];
    for (size_t k = lid; k < (size_t)here * AZ_TILE_RUNS; k += AZ_TILE_WG) {
        const size_t f = k / AZ_TILE_RUNS, r = k % AZ_TILE_RUNS;
        const size_t row = r / (AZ_TILE_W / AZ_TILE_RUN),
                     column = r % (AZ_TILE_W / AZ_TILE_RUN) * AZ_TILE_RUN;
        if (top + row >= height || left + column >= width) continue;
        __global const DATA_T* p = frames + (t0 + f) * pixels + (top + row) * width + left + column;
        __local DATA_T* to = values + f * AZ_FRAME_STRIDE + row * AZ_TILE_W + column;
#if AZ_TILE_RUN > 1
        if (width % AZ_TILE_RUN == 0) { // aligned, the whole run inside the image
            az_run run;
            run.v = *(__global const AZ_CAT(DATA_T, AZ_TILE_RUN)*)p;
#pragma unroll
            for (uint i = 0; i < AZ_TILE_RUN; ++i)
                to[i] = run.a[i];
            continue;
        }
#endif
        for (uint i = 0; i < AZ_TILE_RUN && left + column + i < width; ++i)
            to[i] = p[i];
    }
}

// A work-group per tile (group 0) and AZ_TILE_FRAMES frames (group 1). Sums zeroed before,
// counts zeroed or static (AZ_STATIC_COUNTS).
__kernel __attribute__((reqd_work_group_size(AZ_TILE_WG, 1, 1))) void
azint_tiled_sorted(__global const DATA_T* frames, __global const int* tile_segments,
                   __global const int* segments, __global const ushort* tile_order, uint width,
                   uint height, uint bins, uint frame_count, __global az_sum* sum_signal,
                   __global uint* count) {
    __local DATA_T values[AZ_TILE_FRAMES * AZ_FRAME_STRIDE];
    __local ushort order[AZ_TILE_AREA];
    const size_t tile = get_group_id(0), lid = get_local_id(0);
    const int s0 = tile_segments[tile], s1 = tile_segments[tile + 1];
    const size_t t0 = get_group_id(1) * AZ_TILE_FRAMES;
    if (s0 == s1 || t0 >= frame_count) return; // no binned pixel or no frame: the whole group
    const uint here = (uint)min((size_t)AZ_TILE_FRAMES, frame_count - t0); // frames of the group
    azint_sorted_stage(frames, tile, width, height, t0, here, tile_order, values, order, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = lid; k < (size_t)(s1 - s0) * here; k += AZ_TILE_WG) {
        const uint f = k % here;
        __global const int* segment = segments + 3 * (s0 + k / here);
        const size_t at = (t0 + f) * bins + (size_t)segment[0];
        __local const DATA_T* frame = values + f * AZ_FRAME_STRIDE;
        az_local_sum s = 0;
        uint m = 0;
        for (int e = segment[1]; e < segment[2]; ++e) {
            const DATA_T v = frame[order[e]];
            if (!azint_valid(v)) {
                azint_drop(count + at);
                continue;
            }
            s += azint_local_value(v), ++m;
        }
        if (m) azint_global_flush(sum_signal, count, at, s, m);
    }
}

#endif
