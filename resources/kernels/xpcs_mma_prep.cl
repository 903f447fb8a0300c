// ---- variant mma: prepare by spans of pixels (MMA_PREP = 1; after xpcs_mma.cl) ----------
//
// The same chunk rows and frame sums as xpcs_mma_prepare, byte for byte, with the work split
// the other way: a work-group per (span of MMA_PREP_SPAN pixels of a bin, block of
// MMA_PREP_BLOCK frames) loads the span's source indices once, into registers, and gathers
// every frame of its block through them (xpcs_mma_prepare reads them again for every
// MMA_PREP_FRAMES frames: as many bytes of indices as of frames on the large case). Its frame
// sums are per span; xpcs_mma_prepare_sums adds a bin's spans in span order (integers: exact)
// and stores or adds them, so no atomics are needed.

#ifdef MMA_FLUSH_STEPS

#ifndef MMA_PREP_BLOCK
#define MMA_PREP_BLOCK 16
#endif
#if MMA_PREP_BLOCK > MMA_PREP_WG
#error "xpcs mma: MMA_PREP_BLOCK must be at most MMA_PREP_WG (one work-item per frame sum)"
#endif

// Raw frames [tBegin, tEnd) (raw starts at frame tBegin) -> rows of the frame-major chunk and
// spanSums[bin][span][t] (uint: a span sums at most 1024 * 255). Global (MMA_PREP_WG * most
// spans of a bin, frame blocks, binCount); work-group (MMA_PREP_WG, 1, 1). Work-item lid
// gathers pixels q + lid + MMA_PREP_WG i (neighbouring work-items, neighbouring source pixels)
// into local memory, then writes 16 of them as one uint4 and sums them. Frames alternate
// between two local buffers: one barrier per frame (the barrier of frame f + 1 comes after
// every read of frame f's buffer, before frame f + 2 writes it again).
kernel void xpcs_mma_prepare_spans(global const uchar* raw, global const int* source,
                                   global const int* offsets, global uchar* out,
                                   global uint* spanSums, int frames, int rawFrameSize,
                                   int stride, int mostSpans, int tBegin, int tEnd) {
    local uint4 staged[2][MMA_PREP_WG];
    local uint partial[MMA_PREP_BLOCK][MMA_PREP_WG];
    const int lid = get_local_id(0), span = get_group_id(0), bin = get_group_id(2);
    const int base = offsets[bin] + span * MMA_PREP_SPAN, end = offsets[bin + 1];
    if (base >= end) return; // the whole work-group: past the bin's spans
    const int t0 = tBegin + get_group_id(1) * MMA_PREP_BLOCK;
    const int count = min(MMA_PREP_BLOCK, tEnd - t0);
    int from[16]; // source pixel of gather slot i, -1 for padding and past the bin
#pragma unroll
    for (int i = 0; i < 16; ++i) {
        const int q = base + MMA_PREP_WG * i + lid;
        from[i] = q < end ? source[q] : -1;
    }
    const int q = base + 16 * lid; // the work-item's 16 output pixels
    for (int f = 0; f < count; ++f) {
        global const uchar* row = raw + (size_t)(t0 + f - tBegin) * rawFrameSize;
        local uchar* buf = (local uchar*)staged[f & 1];
#pragma unroll
        for (int i = 0; i < 16; ++i)
            buf[MMA_PREP_WG * i + lid] = from[i] < 0 ? 0 : row[from[i]];
        barrier(CLK_LOCAL_MEM_FENCE);
        uint sum = 0;
        if (q < end) {
            const uint4 v = staged[f & 1][lid];
            *(global uint4*)(out + (size_t)(t0 + f) * stride + q) = v;
            sum = xpcs_mma_byte_sum(v);
        }
        partial[f][lid] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid >= count) return;
    uint total = 0;
    for (int i = 0; i < MMA_PREP_WG; ++i)
        total += partial[lid][i];
    spanSums[((size_t)bin * mostSpans + span) * frames + t0 + lid] = total;
}

// sums[bin][t] (stored, or added to with accumulate) = the sum of the bin's span sums, for
// t in [tBegin, tEnd). Global (frames of the block rounded up to 64, binCount); work-group
// (64, 1).
kernel void xpcs_mma_prepare_sums(global const uint* spanSums, global const int* offsets,
                                  global ulong* sums, int frames, int mostSpans, int accumulate,
                                  int tBegin, int tEnd) {
    const int t = tBegin + get_global_id(0), bin = get_global_id(1);
    if (t >= tEnd) return;
    const int spans = (offsets[bin + 1] - offsets[bin] + MMA_PREP_SPAN - 1) / MMA_PREP_SPAN;
    ulong total = 0;
    for (int span = 0; span < spans; ++span)
        total += spanSums[((size_t)bin * mostSpans + span) * frames + t];
    xpcs_store(&sums[(size_t)bin * frames + t], total, accumulate);
}

#endif // MMA_FLUSH_STEPS
