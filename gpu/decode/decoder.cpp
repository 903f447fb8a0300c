#include "gpu/decode/decoder.hpp"

#include "core/errors.hpp"
#include "core/stream/block_plan.hpp"
#include "gpu/session.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace clscope::decode {
namespace {

constexpr std::uint32_t LocalStep = 8192; // MAX_BLOCK in steps of the bitshuffle default block

// What the kernel's error codes mean (resources/kernels/bslz4.cl).
std::string errorText(int code) {
    switch (code) {
    case 1:
        return "a literal run or match beyond the block's bytes (truncated)";
    case 2:
        return "a match reaching before the block's start";
    case 3:
        return "more bytes than the block decodes to";
    case 4:
        return "fewer bytes than the block decodes to";
    case 5:
        return "the block lies beyond the buffers";
    case 6:
        return "a block larger than the decoder's local memory";
    default:
        return "error code " + std::to_string(code);
    }
}

// The blocks of a batch, one entry of 4 ulongs each (the kernel's layout), and where each
// frame's blocks start.
struct BatchPlan {
    std::vector<cl_ulong> entries;
    std::vector<std::size_t> firstBlock; // per frame, then the total
    std::vector<std::byte> bytes;        // the frames' compressed bytes, one after the other
    std::uint32_t maxBlock = 0;          // the largest bitshuffled block, in bytes
};

BatchPlan planBatch(std::span<const CompressedFrame> frames, std::size_t frameBytes) {
    BatchPlan batch;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const CompressedFrame& frame = frames[f];
        stream::FramePlan plan;
        try {
            plan = stream::planBlocks(frame.algorithm, frame.elemSize, frame.bytes, frameBytes);
        } catch (const InputError& e) {
            throw InputError("frame " + std::to_string(f) + ": " + e.what());
        }
        const std::uint64_t src = batch.bytes.size(), dst = std::uint64_t(f) * frameBytes;
        batch.bytes.insert(batch.bytes.end(), frame.bytes.begin(), frame.bytes.end());
        batch.firstBlock.push_back(batch.entries.size() / 4);
        for (const stream::Block& b : plan.blocks) {
            batch.entries.insert(batch.entries.end(), {src + b.src, dst + b.dst,
                                                       b.srcBytes | (cl_ulong(b.dstBytes) << 32),
                                                       plan.elemSize | (cl_ulong(b.kind) << 32)});
            if (b.kind == stream::BlockKind::Bitshuffled)
                batch.maxBlock = std::max(batch.maxBlock, b.dstBytes);
        }
    }
    batch.firstBlock.push_back(batch.entries.size() / 4);
    return batch;
}

// "frame F, block B of N": block `block` of the batch, and that frame.
std::string blockName(const BatchPlan& batch, std::size_t block, std::size_t& frame) {
    const auto next = std::upper_bound(batch.firstBlock.begin(), batch.firstBlock.end(), block) - 1;
    frame = std::size_t(next - batch.firstBlock.begin());
    return "frame " + std::to_string(frame) + ", block " + std::to_string(block - *next) + " of " +
           std::to_string(*(next + 1) - *next);
}

} // namespace

const ProgramRecipe& decodeRecipe() {
    static const ProgramRecipe recipe =
        ProgramRecipe("bslz4", {"bslz4"},
                      {integerTunable("WG", 64, 1, 1024, "work-items decoding one block"),
                       fromInput(integerTunable("MAX_BLOCK", LocalStep, LocalStep, 1 << 20,
                                                "local bytes for a bitshuffled block"))})
            .launch("decode_blocks", {{"WG"}, {"1"}});
    return recipe;
}

void decodeFrames(ClSession& session, std::span<const CompressedFrame> frames,
                  std::size_t frameBytes, const cl::Buffer& out, const TunableValues& values) {
    const BatchPlan batch = planBatch(frames, frameBytes);
    const std::size_t blocks = batch.entries.size() / 4;
    if (blocks == 0) return;
    const std::uint32_t local =
        std::max(LocalStep, (batch.maxBlock + LocalStep - 1) / LocalStep * LocalStep);
    if (local > session.info().localMemBytes)
        throw DeviceError(session.info().name + ": bslz4 blocks of " +
                          std::to_string(batch.maxBlock) + " bytes exceed its " +
                          std::to_string(session.info().localMemBytes) +
                          " bytes of local memory (decode them on the CPU)");
    TunableValues v = values;
    v["MAX_BLOCK"] = std::to_string(local);
    const ProgramRecipe& recipe = decodeRecipe();
    const TunableValues resolved = recipe.resolve(v);
    cl::Buffer src = session.allocate(std::max<std::size_t>(batch.bytes.size(), 1), "compressed");
    cl::Buffer table = session.allocate(batch.entries.size() * sizeof(cl_ulong), "blocks");
    cl::Buffer error = session.allocate(2 * sizeof(cl_int), "decode error");
    if (!batch.bytes.empty())
        session.upload(src, batch.bytes.data(), batch.bytes.size(), "upload compressed");
    session.upload(table, batch.entries.data(), batch.entries.size() * sizeof(cl_ulong),
                   "upload blocks");
    const cl_int zero[2] = {0, 0};
    session.upload(error, zero, sizeof zero, "upload decode error");
    cl::Kernel k = session.kernel(recipe, resolved, "decode_blocks");
    k.setArg(0, src), k.setArg(1, cl_ulong(batch.bytes.size())), k.setArg(2, table);
    k.setArg(3, out), k.setArg(4, cl_ulong(frames.size() * frameBytes)), k.setArg(5, error);
    const std::size_t wg = std::stoul(resolved.at("WG"));
    session.launch(k, "decode", recipe.shape("decode_blocks", resolved, {blocks * wg}));
    cl_int flagged[2] = {0, 0};
    session.download(error, flagged, sizeof flagged, "download decode error");
    if (!flagged[0]) return;
    std::size_t frame = 0;
    const std::string where = blockName(batch, std::size_t(flagged[1]), frame);
    throw InputError(where + ": corrupt " + frames[frame].algorithm +
                     " data: " + errorText(flagged[0]));
}

} // namespace clscope::decode
