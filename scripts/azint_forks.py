#!/usr/bin/env python3
"""azint's tiled program forked for the kernel lab (issue 53's last target, PERFORMANCE.md azint
large): reads the program as built (`lab azint --from tiled --print-source --set AZ_STATIC_COUNTS=1`)
and writes beside it
  readonly.cl  the frames read as tiled reads them and nothing summed (the pattern's bound).
  noflush.cl   the runs' flushes never taken, novalid.cl the two-bin runs' validity test left
               out, noglobal.cl the local histogram's flush to the global sums never taken: ablations, wrong sums (timing only; session23_azint_forks*.log: the forks
               contig and onesel, now in tiled, are in 88c85ff's version of this script; copiesC
               (the local histogram held C times) and preload (every frame read before any is
               summed), both slower (session22_azint_forks_h200.log), in 66372c2's)
Usage: azint_forks.py BUILT.cl OUTDIR"""
import sys

src, out = sys.argv[1], sys.argv[2]
s = open(src).read()


def need(text):
    assert text in s, "the program changed: update the forks' edits: " + text[:60]
    return text


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
glob = need("            azint_global_flush(sum_signal, count, at, signal[k], azint_local_count(n, k));\n")
open(out + "/noglobal.cl", "w").write(s.replace(glob, "            if (signal[k] == 0xFFFFFFFFu) " + glob.lstrip()))
