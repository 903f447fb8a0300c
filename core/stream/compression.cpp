#include "core/stream/compression.hpp"

#include "core/errors.hpp"
#include "core/stream/block_plan.hpp"

#include <lz4.h>

#include <cstring>
#include <vector>

namespace clscope::stream {
namespace {

// One LZ4 block that must give exactly out.size() bytes.
void lz4Exact(const std::string& what, std::span<const std::byte> in, std::span<std::byte> out) {
    const int got =
        LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()),
                            reinterpret_cast<char*>(out.data()), int(in.size()), int(out.size()));
    if (got != int(out.size()))
        throw InputError(what + " data: a corrupt LZ4 block (" + std::to_string(in.size()) +
                         " bytes gave " + std::to_string(got) + ", expected " +
                         std::to_string(out.size()) + ")");
}

} // namespace

void decompress(const std::string& algorithm, std::uint64_t elemSize,
                std::span<const std::byte> src, std::span<std::byte> dst) {
    const FramePlan plan = planBlocks(algorithm, elemSize, src, dst.size());
    std::vector<std::byte> block(plan.blockBytes);
    for (const Block& b : plan.blocks) {
        const auto in = src.subspan(b.src, b.srcBytes);
        const auto out = dst.subspan(b.dst, b.dstBytes);
        if (b.kind == BlockKind::Stored) {
            std::memcpy(out.data(), in.data(), in.size());
        } else if (b.kind == BlockKind::Lz4) {
            lz4Exact(algorithm, in, out);
        } else {
            lz4Exact(algorithm, in, {block.data(), out.size()});
            bitUnshuffle(block.data(), out.data(), out.size() / elemSize, elemSize);
        }
    }
}

} // namespace clscope::stream
