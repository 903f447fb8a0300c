// ---- variant mma: the prepare by bands of raw pixels (MMA_PREP_BAND=1; after xpcs_mma.cl) ---
//
// xpcs_mma_prepare gathers each bin's pixels from the raw frames: every bin's work-group reads
// the 32-byte sectors its pixels lie in, so a frame's sectors cross L2 once per bin they hold
// (a ring of ~6 pixels across a row reads ~40 KB of sectors for its ~6 KB). Here a work-group
// reads a band of MMA_BAND_PIXELS consecutive raw pixels once, coalesced, for MMA_BAND_FRAMES
// frames: the host lists, per band, the chunk positions its labelled pixels go to in increasing
// order (the pixels of one bin in one band are consecutive positions), then the padding
// positions it is given; slot[p] is raw pixel p's place in its band's list (0xffff: not in the
// chunk). Per frame the group scatters the band's bytes into local memory by slot, then writes
// the list in order (neighbouring work-items, neighbouring positions; padding gets 0).
//
// No frame sums here: row `frames` of the chunk holds ones (the host fills it), the Gram
// kernels read it for the rows past the frames (MMA_LAST_ROW), so Gram row `frames` holds
// S[bin][t], which xpcs_mma_sums_from_gram copies out after the Gram kernel.

#ifdef MMA_FLUSH_STEPS

#ifndef MMA_BAND_PIXELS
#define MMA_BAND_PIXELS 4096
#endif
#ifndef MMA_BAND_FRAMES
#define MMA_BAND_FRAMES 8
#endif
#define MMA_BAND_WG 256

// Raw frames [tBegin, tEnd) (raw starts at frame tBegin) -> rows tBegin..tEnd-1 of the chunk.
// lists[band] .. lists[band + 1]: the band's positions; real[band]: how many are pixels.
// Global (bands * MMA_BAND_WG, frame blocks); work-group (MMA_BAND_WG, 1).
kernel void xpcs_mma_prepare_band(global const uchar* raw, global const ushort* slot,
                                  global const int* lists, global const int* real,
                                  global const int* positions, global uchar* out,
                                  int rawFrameSize, int stride, int tBegin, int tEnd) {
    local uchar staged[MMA_BAND_PIXELS];
    const int lid = get_local_id(0), band = get_group_id(0);
    const int p0 = band * MMA_BAND_PIXELS, pEnd = min(p0 + MMA_BAND_PIXELS, rawFrameSize);
    const int first = lists[band], count = lists[band + 1] - first, pixels = real[band];
    const int t0 = tBegin + (int)get_group_id(1) * MMA_BAND_FRAMES;
    global const int* list = positions + first;
    for (int t = t0; t < min(t0 + MMA_BAND_FRAMES, tEnd); ++t) { // the same t for the group
        global const uchar* row = raw + (size_t)(t - tBegin) * rawFrameSize;
        for (int p = p0 + lid; p < pEnd; p += MMA_BAND_WG) {
            const ushort s = slot[p];
            if (s != 0xffff) staged[s] = row[p];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        global uchar* to = out + (size_t)t * stride;
        for (int j = lid; j < count; j += MMA_BAND_WG)
            to[list[j]] = j < pixels ? staged[j] : (uchar)0;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// S[bin][t] = Gram row `frames` (the row of ones against frame t), summed over the slots;
// global (frames, binCount).
kernel void xpcs_mma_sums_from_gram(global const GRAM_T* gram, global SUM_T* sums, int frames,
                                    int framePad, int binCount, int slots) {
    const int t = get_global_id(0), bin = get_global_id(1);
    if (t >= frames) return;
    SUM_T total = 0;
    for (int slot = 0; slot < slots; ++slot)
        total += (SUM_T)gram[xpcs_gram_index(slot, bin, binCount, framePad, frames, t)];
    sums[(size_t)bin * frames + t] = total;
}

#endif // MMA_FLUSH_STEPS
