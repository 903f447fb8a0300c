// The xpcs program recipes (see recipes.hpp). Defaults are the values the kernels took before
// the host passed every tunable; the host's own values come from gpu/xpcs/tuning.cpp.
#include "gpu/xpcs/recipes.hpp"

#include <charconv>
#include <stdexcept>

namespace clscope::xpcs {

namespace {

using T = std::vector<Tunable>;

void append(T& to, const T& from) {
    to.insert(to.end(), from.begin(), from.end());
}

// xpcs_common.cl: element and sum types, chunk layout, CPU code paths.
T commonTunables() {
    return {fromInput(choiceTunable("DATA_T", "uchar", {"uchar", "ushort", "uint", "int", "float"},
                                    "element type of the frames")),
            fromInput(choiceTunable("SUM_T", "ulong", {"ulong", "long", "double"},
                                    "exact sum type of the Gram matrices and frame sums")),
            fromInput(choiceTunable("GRAM_T", "ulong", {"ulong", "long", "double", "uint"},
                                    "Gram entry type: SUM_T, or uint where every entry < 2^32")),
            fromInput(integerTunable("LAYOUT", 0, 0, 2,
                                     "chunk layout: 0 raw frames, 1 frame-major, 2 pixel-major")),
            flagTunable("XPCS_CPU", false,
                        "CPU-device kernels: no local tiles or barriers (set on CPU devices)")};
}

// xpcs_lags.cl: g2 and g2_err from the Gram diagonals.
T lagTunables() {
    return {fromInput(flagTunable("SUM_FLOAT", false, "float data: g2 in double")),
            flagTunable("XPCS_LAG_ORDER", true, "lag-sum groups over (bins, lag groups)"),
            fromInput(flagTunable("XPCS_NARROW", false,
                                  "uint Gram entries: the lag products formed in double")),
            flagTunable("MMA_LAGS", true, "0: the 128-bit lag path even on uint Gram entries")};
}

T seedTunables() {
    return {integerTunable("ORDERED_WG", 128, 1, 1024,
                           "ordered: work-items per (lag, bin) group, a power of two")};
}

T gemmTunables() {
    return {fromInput(flagTunable("DATA_UCHAR", false, "uint8 data (allows the uint8 fast paths)")),
            integerTunable("GEMM_TILE", 128, 16, 256, "frames per side of a Gram tile"),
            integerTunable("GEMM_WPT", 8, 4, 32, "frames per work-item and side (multiple of 4)"),
            integerTunable("GEMM_K", 16, 4, 256, "pixels per local-memory step"),
            flagTunable("GEMM_FAST_U8", false, "uint8: fp32 FMA sums (exact below 2^24)"),
            flagTunable("GEMM_DP4A", false, "uint8: 4 pixels a uint, dp4a sums"),
            flagTunable("GEMM_PTX_DP4A", false, "dp4a through inline PTX (NVIDIA)"),
            flagTunable("GEMM_MAC_DOUBLE", false, "multiply-add in double (uint16, exact)"),
            integerTunable("GEMM_CPU_TILE", 64, 16, 512, "XPCS_CPU: frames per side of a tile"),
            integerTunable("GEMM_CPU_CHUNK", 64, 1, 256, "XPCS_CPU: pixels converted per chunk"),
            integerTunable("GEMM_GLOBAL_ROWS", 65536, 16, 65536,
                           "pixel rows between flushes of the uint sums into the Gram matrix")};
}

T mmaTunables() {
    return {integerTunable("MMA_FLUSH_STEPS", 1032, 1, 1032,
                           "k32 steps between flushes of the s32 accumulators"),
            flagTunable("MMA_EMULATE", false, "the tensor-core tiling in plain C (any device)"),
            integerTunable("MMA_EMU_BITS", 32, 16, 32, "emulated accumulator width"),
            integerTunable("MMA_WM", 1, 1, 8, "warps of a work-group along rows"),
            integerTunable("MMA_WN", 1, 1, 8, "warps of a work-group along columns"),
            integerTunable("MMA_MI", 4, 1, 8, "A fragments (16 rows) per warp"),
            integerTunable("MMA_NJ", 8, 1, 16, "B fragments (8 columns) per warp"),
            flagTunable("MMA_PREFETCH", true, "load the next 64 pixels during the mma steps"),
            flagTunable("MMA_STAGE", false, "stage the tile's rows in local memory"),
            fromInput(flagTunable("MMA_FUSE", false, "lag sums fused into the Gram kernel")),
            integerTunable("MMA_PREP_WG", 64, 32, 256, "work-items of xpcs_mma_prepare"),
            integerTunable("MMA_PREP_FRAMES", 2, 1, 16, "frames a work-group of xpcs_mma_prepare"),
            flagTunable("MMA_WGMMA", false, "Hopper: the Gram kernel by warpgroup MMA"),
            integerTunable("MMA_WG_KB", 32, 32, 64, "wgmma: pixels a block (32 or 64)"),
            integerTunable("MMA_WG_STAGES", 5, 2, 6, "wgmma: local buffers of the copy ring"),
            flagTunable("MMA_WG_INFLIGHT", true, "wgmma: a group left running across the barrier"),
            flagTunable("MMA_WG_SWIZZLE", true, "wgmma: swizzled K-major local layout"),
            integerTunable("MMA_WG_GROUPS", 2, 1, 2, "wgmma: warpgroups a work-group")};
}

T multitauTunables() {
    return {fromInput(choiceTunable("DATA_T", "uchar", {"uchar", "ushort", "uint", "int"},
                                    "element type of the frames")),
            fromInput(choiceTunable("RING_T", "long", {"int", "long"},
                                    "ring element: int where every binned value fits")),
            fromInput(flagTunable("MT_WIDE", false, "128-bit sums (mt_lags_wide, 32-bit data)")),
            fromInput(integerTunable("MT_WG", 64, 1, 1024, "work-group size of mt_lags")),
            fromInput(integerTunable("MT_LAG0", 0, 0, 1 << 20, "mt_lags: first lag of the level")),
            fromInput(integerTunable("MT_LAGS", 16, 1, 1024, "mt_lags: lags of the level")),
            fromInput(integerTunable("MT_ROWS", 1, 1, 1024, "mt_lags: rows per work-group")),
            fromInput(choiceTunable("ACC_T", "long", {"int", "long"},
                                    "mt_lags partial sums: int where the host proved they fit"))};
}

ProgramRecipe seedRecipe() {
    T t = commonTunables();
    append(t, seedTunables());
    ProgramRecipe r(programs::seed, {"common", "xpcs_common", "xpcs_seed"}, t);
    r.launch("xpcs_naive", {{"32", "1"}, {}});               // (frames, bins)
    r.launch("xpcs_ordered", {{"ORDERED_WG", "1"}, {}});     // (ORDERED_WG * frames, bins)
    r.launch("xpcs_reorder_frame_major", {{"64", "1"}, {}}); // (padded pixels, frames)
    r.launch("xpcs_frame_sums", {{"32", "8"}, {}});          // GPU path: (frames, 8 * bins)
    return r;
}

ProgramRecipe gemmRecipe() {
    T t = commonTunables();
    append(t, gemmTunables());
    ProgramRecipe r(programs::gemm, {"common", "xpcs_common", "xpcs_gemm", "xpcs_gemm_gpu"}, t);
    // GPU path: (framePad, padded pixels) over 32 x 32 tiles, 4 pixels a work-item.
    r.launch("xpcs_reorder_pixel_major", {{"32", "8"}, {"1", "4"}});
    r.launch("xpcs_frame_sums", {{"32", "8"}, {}});
    // xpcs_gemm: work-groups of (GEMM_TILE / GEMM_WPT)^2 per (lower tile, work entry), made by
    // the host (a ratio of tunables).
    return r;
}

ProgramRecipe mmaRecipe() {
    T t = commonTunables();
    append(t, lagTunables());
    append(t, mmaTunables());
    ProgramRecipe r(programs::mma,
                    {"common", "xpcs_common", "xpcs_wide", "xpcs_lags", "xpcs_mma", "xpcs_mma_lags",
                     "xpcs_wgmma"},
                    t);
    r.launch("xpcs_mma_prepare", {{"MMA_PREP_WG", "1"}, {}}); // (groups * MMA_PREP_WG, bins)
    r.launch("xpcs_mma_lags", {{"64", "1"}, {}});             // (frames, bins)
    // xpcs_mma: 32 * MMA_WM * MMA_WN work-items; xpcs_wgmma: 128 * MMA_WG_GROUPS (host).
    return r;
}

ProgramRecipe lagSumsRecipe() {
    T t = commonTunables();
    append(t, lagTunables());
    ProgramRecipe r(programs::lagSums, {"common", "xpcs_common", "xpcs_wide", "xpcs_lags"}, t);
    r.launch("xpcs_lag_sums", {{"32", "8"}, {}}); // (32 lags, 8 lanes) per (bin, lag group)
    return r;
}

ProgramRecipe multitauRecipe() {
    ProgramRecipe r(programs::multitau, {"common", "xpcs_multitau"}, multitauTunables());
    r.launch("mt_gather", {{"64"}, {}});            // (pixels)
    r.launch("mt_bin", {{"64"}, {}});               // (pixels)
    r.launch("mt_largest", {{"64"}, {}});           // (pixels)
    r.launch("mt_lags", {{"MT_WG", "1"}, {}});      // (row groups * MT_WG, bins)
    r.launch("mt_lags_wide", {{"MT_WG", "1"}, {}}); // (rows * MT_WG, bins)
    return r;
}

ProgramRecipe sparseRecipe() {
    ProgramRecipe r(
        programs::sparse,
        {"common", "xpcs_wide", "xpcs_sparse", "xpcs_sparse_compact", "xpcs_sparse_levels",
         "xpcs_multitau_fold"},
        {fromInput(integerTunable("SP_LAG0", 0, 0, 1 << 20, "sp_lags: first lag of the level")),
         fromInput(integerTunable("SP_LAGS", 16, 1, 1024, "sp_lags: lags of the level")),
         fromInput(integerTunable("SP_WG", 64, 1, 1024,
                                  "work-items of a group (a power of two), set by the host")),
         fromInput(integerTunable("SP_LOCAL_BINS", 0, 0, 1 << 16,
                                  "sp_lags: bins of a row's sums in local memory (0: global)")),
         fromInput(integerTunable("SP_CHANNELS", 16, 2, 1024,
                                  "sp_pm_pairs: the run's channels, set by the host")),
         fromInput(choiceTunable("DATA_T", "ushort", {"uchar", "ushort", "uint"},
                                 "sp_count, sp_compact: element type of the dense frames")),
         integerTunable("SP_RUN", 8, 1, 64,
                        "sp_count, sp_compact: labelled pixels a work-item, a work-group apart; "
                        "sp_bin: list entries a work-item a round")});
    // sp_scatter: one work-group (SP_WG) a frame; sp_bin, sp_lags, sp_clear: (rows, chunks of a
    // row's list; sp_bin's chunks take rounds of SP_RUN·WG entries); sp_lags_dense: (rows · chunks,
    // bins); sp_forget: (four bitmap words, rows); sp_bin_values, sp_clean: (positions,
    // rows); sp_count, sp_compact: (stretches of SP_RUN·WG labelled pixels · WG, frames);
    // sp_pm_count, sp_pm_scatter: one work-group a frame; sp_pm_place (SP_WG), sp_pm_pairs:
    // (positions); sp_pm_row_sums: (rows, bins); mt_fold: 64 work-items per (lag, bin).
    return r;
}

// xpcs_sparse_pairs.cl after xpcs_common.cl (its Gram layout): each position's pairs of entries.
ProgramRecipe sparsePairsRecipe() {
    ProgramRecipe r(programs::sparsePairs, {"common", "xpcs_common", "xpcs_sparse_pairs"},
                    commonTunables());
    r.launch("xsp_pairs", {{"64"}, {}}); // (positions)
    return r;
}

} // namespace

const std::vector<ProgramRecipe>& recipes() {
    static const std::vector<ProgramRecipe> all{
        seedRecipe(),     gemmRecipe(),   mmaRecipe(),        lagSumsRecipe(),
        multitauRecipe(), sparseRecipe(), sparsePairsRecipe()};
    return all;
}

const ProgramRecipe& declared(const std::string& name) {
    for (const ProgramRecipe& r : recipes())
        if (r.name() == name) return r;
    throw std::out_of_range("xpcs: no program " + name);
}

std::map<std::string, int> integers(const TunableValues& values) {
    std::map<std::string, int> out;
    for (const auto& [name, text] : values) {
        int value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec == std::errc() && ptr == end && !text.empty()) out[name] = value;
    }
    return out;
}

} // namespace clscope::xpcs
