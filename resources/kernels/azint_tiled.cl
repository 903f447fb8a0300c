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
// each. Against the histogram: the per-pixel table is read once for
// AZ_TILE_FRAMES frames at a half or a quarter of the size, and a group's local histogram holds
// its tile's few bins, not all of them. A tile whose span does not fit AZ_LOCAL_SLOTS once
// (large cakes, a small local memory) adds each run to the global sums instead; one spanning
// more than 16 bits of offsets (span > AZ_OFFSET_MAX: its offsets are 0 for binned pixels) takes
// its pixels' bins from the 32-bit table. Global size (tiles x AZ_TILE_WG, frames /
// AZ_TILE_FRAMES).
//
// Set by the host (-D): AZ_TILE_H, AZ_TILE_W  the tile (AZ_TILE_RUN divides AZ_TILE_W);
// AZ_TILE_WG  the work-group size; AZ_TILE_FRAMES  frames a work-group sums; AZ_TILE_RUN
// consecutive pixels a work-item reads at once (1, 2, 4, 8 or 16); AZ_LOCAL_SLOTS  the local
// histogram's bins (a tile's span x the frames of a pass); AZ_TILE_BYTES  1: the offsets are
// bytes (the host's, from the tables)

#if !defined(AZ_TILE_H) || !defined(AZ_TILE_W) || !defined(AZ_TILE_WG) ||                          \
    !defined(AZ_TILE_FRAMES) || !defined(AZ_TILE_RUN) || !defined(AZ_LOCAL_SLOTS) ||               \
    !defined(AZ_TILE_BYTES)
#error "azint_tiled.cl needs AZ_TILE_H, _W, _WG, _FRAMES, _RUN, _BYTES and AZ_LOCAL_SLOTS"
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

// A work-item's pixels: where each of its runs starts in a frame, and each pixel's offset.
typedef struct {
    size_t first[AZ_ITEM_RUNS];
    az_offset offset[AZ_ITEM_RUNS][AZ_TILE_RUN];
    bool any[AZ_ITEM_RUNS]; // a pixel of the run in a bin
} az_tile_pixels;

// The work-item's runs of the tile: run r of a tile is row r / (AZ_TILE_W / AZ_TILE_RUN), columns
// (r mod that) x AZ_TILE_RUN on; a work-item takes runs lid, lid + AZ_TILE_WG, ...
inline az_tile_pixels azint_tile_pixels(__global const az_offset* tile_offsets, size_t tile,
                                        uint width, size_t lid) {
    const size_t across = (width + AZ_TILE_W - 1) / AZ_TILE_W; // tiles a row
    const size_t top = tile / across * AZ_TILE_H, left = tile % across * AZ_TILE_W;
    az_tile_pixels p;
#pragma unroll
    for (uint j = 0; j < AZ_ITEM_RUNS; ++j) {
        const size_t r = lid + j * AZ_TILE_WG;
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

inline void azint_tile_flush(az_tile_target to, volatile __local az_local_sum* signal,
                             volatile __local uint* n, __global az_sum* sum_signal,
                             __global uint* count, int key, az_local_sum s, uint m) {
    if (to.local_sums)
        azint_local_flush(signal, n, key, s, m);
    else
        azint_global_flush(sum_signal, count, (size_t)key, s, m);
}

// One frame of a work-item's pixels: the valid values of one bin (consecutive in its runs)
// summed in registers, each run added once to the target.
inline void azint_tile_frame(__global const DATA_T* frame, const az_tile_pixels* p, bool aligned,
                             az_tile_target to, __global const int* bin_of_pixel,
                             volatile __local az_local_sum* signal, volatile __local uint* n,
                             __global az_sum* sum_signal, __global uint* count) {
    int run = -1; // the key of the run summed in s, m
    az_local_sum s = 0;
    uint m = 0;
#pragma unroll
    for (uint j = 0; j < AZ_ITEM_RUNS; ++j) {
        if (!p->any[j]) continue;
        const az_run values = azint_tile_read(frame + p->first[j], aligned, p->offset[j]);
#pragma unroll
        for (uint i = 0; i < AZ_TILE_RUN; ++i) {
            const az_offset o = p->offset[j][i];
            if (o == AZ_NO_BIN || !azint_valid(values.a[i])) continue;
            const int key = to.local_sums ? (int)o
                            : to.wide     ? bin_of_pixel[p->first[j] + i]
                                          : to.base + (int)o;
            if (key != run) {
                if (m) azint_tile_flush(to, signal, n, sum_signal, count, run, s, m);
                run = key, s = 0, m = 0;
            }
            s += azint_local_value(values.a[i]), ++m;
        }
    }
    if (m) azint_tile_flush(to, signal, n, sum_signal, count, run, s, m);
}

// A work-group per tile (group 0) and AZ_TILE_FRAMES frames (group 1); tile_bins: each tile's
// lowest bin and span; bin_of_pixel: the 32-bit bins where a tile spans more than 16 bits (else
// a buffer of one). Outputs zeroed before.
__kernel __attribute__((reqd_work_group_size(AZ_TILE_WG, 1, 1))) void
azint_tiled(__global const DATA_T* frames, __global const int* tile_bins,
            __global const az_offset* tile_offsets, __global const int* bin_of_pixel, uint width,
            uint height, uint bins, uint frame_count, __global az_sum* sum_signal,
            __global uint* count) {
    __local az_local_sum signal[AZ_LOCAL_SLOTS];
    __local uint n[AZ_LOCAL_SLOTS];
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
        for (uint k = lid; k < slots; k += AZ_TILE_WG)
            signal[k] = 0, n[k] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint f = 0; f * span < slots; ++f) {
            const size_t t = t0 + f0 + f;
            azint_tile_frame(frames + t * pixels, &p, aligned, to, bin_of_pixel, signal + f * span,
                             n + f * span, sum_signal, count);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = lid; k < slots; k += AZ_TILE_WG) {
            if (!n[k]) continue;
            const uint f = k / (uint)span;
            const size_t at = (t0 + f0 + f) * bins + (size_t)base + (k - f * span);
            azint_global_flush(sum_signal, count, at, signal[k], n[k]);
        }
        barrier(CLK_LOCAL_MEM_FENCE); // the slots are zeroed for the next pass
    }
}
