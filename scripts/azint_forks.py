#!/usr/bin/env python3
"""azint's tiled program forked for the kernel lab (issue 53's last target, PERFORMANCE.md azint
large): reads the program as built (`lab azint --from tiled --print-source --set AZ_STATIC_COUNTS=1`)
and writes beside it
  copiesC.cl   the local histogram held AZ_COPIES = C times, a work-item adding to copy lid % C, so
               that the work-items of a warp whose runs fall in one bin add to different words
               (the copies summed once per slot before the global flush);
  preload.cl   every frame's runs of a work-item read into registers before any is summed
               (preload_copies8.cl: both);
  readonly.cl  the frames read as tiled reads them and nothing summed (the pattern's bound).
  noflush.cl   the runs' flushes never taken, novalid.cl the two-bin runs' validity test left
               out: ablations, wrong sums (timing only; session23_azint_forks*.log: the forks
               contig and onesel, now in tiled, are in 88c85ff's version of this script)
Usage: azint_forks.py BUILT.cl OUTDIR"""
import sys

src, out = sys.argv[1], sys.argv[2]
s = open(src).read()


def need(text):
    assert text in s, "the program changed: update the forks' edits: " + text[:60]
    return text


local_decl = need("    __local az_local_sum signal[AZ_LOCAL_SLOTS];\n")
zero = need("        for (uint k = lid; k < slots; k += AZ_TILE_WG) {\n            signal[k] = 0;\n")
flush_loop = need(
    "            if (!azint_local_used(signal, n, k)) continue;\n"
    "            const uint f = k / (uint)span;\n"
    "            const size_t at = (t0 + f0 + f) * bins + (size_t)base + (k - f * span);\n"
    "            azint_global_flush(sum_signal, count, at, signal[k], azint_local_count(n, k));\n")
local_add = need("        azint_local_flush(signal, n, key, s, m);\n")
call = need(
    "            azint_tile_frame(frames + t * pixels, &p, aligned, to, bin_of_pixel, signal + f * span,\n")

def with_copies(text, copies):
    c = text.replace(local_decl, "    __local az_local_sum signal[AZ_LOCAL_SLOTS * %d];\n" % copies)
    c = c.replace(zero, zero.replace("k < slots;", "k < slots * %d;" % copies))
    c = c.replace(flush_loop,
                  "            az_local_sum total = 0;\n"
                  "            for (uint c = 0; c < %d; ++c) total += signal[k * %d + c];\n"
                  "            if (total == 0) continue;\n"
                  "            const uint f = k / (uint)span;\n"
                  "            const size_t at = (t0 + f0 + f) * bins + (size_t)base + (k - f * span);\n"
                  "            azint_global_flush(sum_signal, count, at, total, 0);\n" % (copies, copies))
    c = c.replace(local_add, "        azint_local_flush(signal, n, key * %d + (int)(get_local_id(0) %% %d), s, m);\n"
                  % (copies, copies))
    return c.replace("signal + f * span,\n", "signal + f * span * %d,\n" % copies)


for copies in (2, 4, 8, 32):
    open("%s/copies%d.cl" % (out, copies), "w").write(with_copies(s, copies))

# preload: azint_tile_frame takes the values read before (one az_run per run).
read = need("        const az_run values = azint_tile_read(frame + p->first[j], aligned, p->offset[j]);\n")
frame_sig = need("inline void azint_tile_frame(__global const DATA_T* frame, const az_tile_pixels* p, bool aligned,\n")
call = need(
    "            azint_tile_frame(frames + t * pixels, &p, aligned, to, bin_of_pixel, signal + f * span,\n")
pre = s.replace(read, "        const az_run values = vals[j];\n")
pre = pre.replace(frame_sig, "inline void azint_tile_frame(const az_run* vals, const az_tile_pixels* p, bool aligned,\n")
glob = need("        for (size_t t = t0; t < t0 + here; ++t)\n"
            "            azint_tile_frame(frames + t * pixels, &p, aligned, to, bin_of_pixel, signal, n,\n"
            "                             sum_signal + t * bins, count + t * bins);\n")
pre = pre.replace(glob,
    "        for (size_t t = t0; t < t0 + here; ++t) {\n"
    "            az_run vals[AZ_ITEM_RUNS];\n"
    "            for (uint j = 0; j < AZ_ITEM_RUNS; ++j) if (p.any[j]) vals[j] = azint_tile_read(frames + t * pixels + p.first[j], aligned, p.offset[j]);\n"
    "            azint_tile_frame(vals, &p, aligned, to, bin_of_pixel, signal, n,\n"
    "                             sum_signal + t * bins, count + t * bins);\n        }\n")
pre = pre.replace(
    "    for (uint f0 = 0; f0 < here; f0 += per_pass) { // the same for the group\n",
    "    az_run all[AZ_TILE_FRAMES][AZ_ITEM_RUNS];\n"
    "#pragma unroll\n"
    "    for (uint f = 0; f < AZ_TILE_FRAMES; ++f)\n"
    "#pragma unroll\n"
    "        for (uint j = 0; j < AZ_ITEM_RUNS; ++j)\n"
    "            if (f < here && p.any[j]) all[f][j] = azint_tile_read(frames + (t0 + f) * pixels + p.first[j], aligned, p.offset[j]);\n"
    "    for (uint f0 = 0; f0 < here; f0 += per_pass) { // the same for the group\n")
pre = pre.replace(call, call.replace("frames + t * pixels", "all[f0 + f]"))
open(out + "/preload.cl", "w").write(pre)
open(out + "/preload_copies8.cl", "w").write(with_copies(pre, 8))

# readonly: the kernel's body after the pixels' offsets: every run of every frame read, one
# store that never happens.
body = need("    const bool aligned = width % AZ_TILE_RUN == 0;\n")
ro = s.replace(body, body +
               "    uint acc = 0;\n"
               "#pragma unroll\n"
               "    for (uint f = 0; f < AZ_TILE_FRAMES; ++f)\n"
               "#pragma unroll\n"
               "        for (uint j = 0; j < AZ_ITEM_RUNS; ++j)\n"
               "            if (f < here && p.any[j]) { const az_run v = azint_tile_read(frames + (t0 + f) * pixels + p.first[j], aligned, p.offset[j]);\n"
               "#pragma unroll\n"
               "                for (uint i = 0; i < AZ_TILE_RUN; ++i) acc += v.a[i]; }\n"
               "    if (acc == 0xFFFFFFFFu) count[0] = acc;\n"
               "    return;\n", 1)
open(out + "/readonly.cl", "w").write(ro)

# Ablations (wrong sums: timing only): noflush, the runs' flushes never taken (the sums kept
# live); novalid, the two-bin runs' validity test left out.
flush = need("    if (key != r->key) {\n        if (r->m) azint_tile_flush(")
open(out + "/noflush.cl", "w").write(
    s.replace(flush, "    if (key != r->key) {\n        if (r->m && r->s == 0xFFFFFFFFu) azint_tile_flush("))
valid = need("                valid &= azint_valid(values.a[i]);\n")
open(out + "/novalid.cl", "w").write(s.replace(valid, ""))
