// The xpcs tuning table (see tuning.hpp). Measurements behind the values: docs/PERFORMANCE.md.
#include "gpu/xpcs/tuning.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace clscope::xpcs {

namespace {

using Values = std::map<std::string, int>;
using When = std::function<bool(const DeviceInfo&, DType)>;

struct Row {
    std::string variant; // "*": every dense OpenCL variant
    When when;
    Values values;
};

bool always(const DeviceInfo&, DType) {
    return true;
}
bool onCpu(const DeviceInfo& d, DType) {
    return d.type == "CPU";
}
bool onGpu(const DeviceInfo& d, DType) {
    return d.type == "GPU";
}
bool onNvidia(const DeviceInfo& d, DType) {
    return d.platform.find("NVIDIA") != std::string::npos;
}
bool onNvidiaGpu(const DeviceInfo& d, DType t) {
    return onNvidia(d, t) && onGpu(d, t);
}
bool bytes(const DeviceInfo&, DType t) {
    return t == DType::UInt8;
}
bool notBytes(const DeviceInfo&, DType t) {
    return t != DType::UInt8;
}
bool words(const DeviceInfo&, DType t) {
    return t == DType::UInt16;
}
bool bytesOnNvidia(const DeviceInfo& d, DType t) {
    return bytes(d, t) && onNvidia(d, t);
}
bool hopper(const DeviceInfo& d, DType) {
    return d.nvComputeMajor == 9;
}

const std::vector<Row>& table() {
    static const std::vector<Row> rows{
        // CPU devices (PoCL): the kernels without local-memory tiles and barriers.
        {"*", onCpu, {{"XPCS_CPU", 1}}},
        {"ordered", always, {{"ORDERED_WG", 128}}},
        // gemm: 64-frame tiles of 4 x 4 per work-item; uint16 multiplies in double (exact).
        {"gemm",
         notBytes,
         {{"GEMM_TILE", 64}, {"GEMM_WPT", 4}, {"GEMM_K", 16}, {"GEMM_MAC_DOUBLE", 0}}},
        {"gemm", words, {{"GEMM_MAC_DOUBLE", 1}}},
        // uint8: 128-frame tiles, dp4a through PTX on NVIDIA, fp32 FMA elsewhere (both exact).
        {"gemm",
         bytes,
         {{"GEMM_TILE", 128},
          {"GEMM_WPT", 8},
          {"GEMM_K", 16},
          {"GEMM_FAST_U8", 1},
          {"GEMM_DP4A", 0},
          {"GEMM_PTX_DP4A", 0}}},
        {"gemm", bytesOnNvidia, {{"GEMM_DP4A", 1}, {"GEMM_PTX_DP4A", 1}}},
        // CPU devices: 64-frame tiles of one work-item, 128-pixel chunks.
        {"gemm", onCpu, {{"GEMM_CPU_TILE", 64}, {"GEMM_CPU_CHUNK", 128}}},
        // mma: flushes at the s32 bound (1032 k32 steps), emulated off NVIDIA, frames streamed
        // on GPUs. Where wgmma does not run, one warp of 4 x 8 fragments (64 x 64 tiles, the
        // fastest of five on the H200's large case); xpcs_mma_prepare of 256 work-items
        // (0.697 ms on the large case against 0.703 for 128, 0.747 for 64, 1.091 for 32) over
        // 2 frames a group; frames per streamed block 0 (64 MiB worth); the wgmma kernel's
        // block, stages, groups in flight and swizzle (under MMA_WGMMA=1); no register cap.
        {"mma",
         always,
         {{"MMA_FLUSH_STEPS", 1032},
          {"MMA_EMULATE", 1},
          {"MMA_SLOTS", 1},
          {"MMA_STREAM", 0},
          {"MMA_WM", 1},
          {"MMA_WN", 1},
          {"MMA_MI", 4},
          {"MMA_NJ", 8},
          {"MMA_PREP_FRAMES", 2},
          {"MMA_PREP_WG", 256},
          {"MMA_STREAM_FRAMES", 0},
          {"MMA_WG_KB", 32},
          {"MMA_WG_STAGES", 5},
          {"MMA_WG_INFLIGHT", 1},
          {"MMA_WG_SWIZZLE", 1},
          {"MMA_WG_GROUPS", 2},
          {"MMA_WG_REGS", 0}}},
        {"mma", onNvidiaGpu, {{"MMA_EMULATE", 0}}}, // compute capability 8.x: mma.sync
        {"mma", onGpu, {{"MMA_STREAM", 1}}},
        // Compute capability 9 (Hopper, sm_90a): xpcs_wgmma by one warpgroup of two
        // accumulators over 128 x 128 tiles, 64-pixel blocks in two stages, at most 168
        // registers so that 3 work-groups are resident on a multiprocessor: 1.48 ms on the
        // H200's large case where xpcs_mma (the shape above) took 1.93 and two warpgroups 1.96
        // (192 registers uncapped, 2 resident: 1.97; blocks of 32 pixels in 4 or 5 stages:
        // 2.17). --tune MMA_WGMMA=0 with the shape above runs xpcs_mma.
        {"mma",
         hopper,
         {{"MMA_WGMMA", 1},
          {"MMA_WM", 8},
          {"MMA_WN", 1},
          {"MMA_MI", 1},
          {"MMA_NJ", 16},
          {"MMA_WG_GROUPS", 1},
          {"MMA_WG_KB", 64},
          {"MMA_WG_STAGES", 2},
          {"MMA_WG_INFLIGHT", 0},
          {"MMA_WG_REGS", 168}}},
    };
    return rows;
}

} // namespace

std::map<std::string, int> tuningOf(const std::string& variant, const DeviceInfo& device,
                                    DType dtype) {
    Values values;
    for (const Row& row : table())
        if ((row.variant == variant || row.variant == "*") && row.when(device, dtype))
            for (const auto& [name, value] : row.values)
                values[name] = value;
    return values;
}

TunableValues tuningTable(const std::string& variant, const DeviceInfo& device, DType dtype) {
    return tunableValues(tuningOf(variant, device, dtype));
}

int tuned(const Params& params, const std::string& name, int fallback) {
    const auto it = params.tuning.find(name);
    return it != params.tuning.end() ? std::max(1, it->second) : fallback;
}

} // namespace clscope::xpcs
