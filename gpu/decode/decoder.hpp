// Compressed frames decoded on an OpenCL device (resources/kernels/bslz4.cl): bitshuffle-LZ4
// and LZ4 as DECTRIS' compression tag frames them (core/stream/block_plan.hpp). The frames'
// blocks are planned on the host from their headers, the compressed bytes uploaded as they
// are (2-10x fewer than the frames'), and one launch decodes every block of a batch, one
// work-group each, into one device buffer. The CPU decoder (core/stream/compression.hpp) is
// the reference: the bytes are the same.
#pragma once
#include "gpu/opencl.hpp"
#include "gpu/recipe.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace clscope {
class ClSession;
struct PinnedBlock;
} // namespace clscope

namespace clscope::decode {

// The program: WG (work-items per block) and MAX_BLOCK (local bytes for a bitshuffled block,
// set from the input: the batch's largest, in steps of 8 KiB).
const ProgramRecipe& decodeRecipe();

struct CompressedFrame {
    std::string algorithm;      // "bslz4" or "lz4" (DECTRIS' compression tag)
    std::uint64_t elemSize = 1; // bytes per element (bslz4)
    std::span<const std::byte> bytes;
};

// Decodes batches of compressed frames on one session, keeping what a batch needs between
// batches (the host copy of the compressed bytes, the device buffers: grown, never shrunk), so
// a stream of batches costs no allocation or page fault after the first.
class FrameDecoder {
  public:
    explicit FrameDecoder(ClSession& session) : session_(session) {}

    // Decodes `frames`, each `frameBytes` once decoded, into `out` (frame i at i * frameBytes,
    // `out` at least frames.size() * frameBytes bytes). InputError naming the frame for a
    // framing error (found on the host) and the frame and block for a corrupt block (found by
    // the kernel, which writes nothing outside that block's bytes); DeviceError for a block
    // larger than the device's local memory. `values` overrides tunables (WG). With
    // `outOffset`, frame i goes to outOffset + i * frameBytes instead.
    void decode(std::span<const CompressedFrame> frames, std::size_t frameBytes,
                const cl::Buffer& out, const TunableValues& values = {}, std::size_t outOffset = 0);

  private:
    // Plans the batch's blocks into entries_/firstBlock_/maxBlock_ and copies its bytes into
    // bytes_; returns the bytes' length.
    std::size_t plan(std::span<const CompressedFrame> frames, std::size_t frameBytes,
                     std::size_t outOffset);
    std::string blockName(std::size_t block, std::size_t& frame) const;
    // `buffer` at least `bytes` long (a new one when it is shorter).
    void reserve(cl::Buffer& buffer, std::size_t& capacity, std::size_t bytes, const char* what);

    ClSession& session_;
    // Host memory for the batch's compressed bytes, one frame after another: pinned (the
    // upload is DMA from there, not through the driver's staging), the heap where pinning fails.
    std::byte* hostBytes(std::size_t bytes);
    std::shared_ptr<PinnedBlock> pinned_;
    std::vector<std::byte> bytes_;
    std::vector<cl_ulong> entries_;       // 4 per block, the kernel's layout
    std::vector<std::size_t> firstBlock_; // per frame, then the total
    std::uint32_t maxBlock_ = 0;          // the largest bitshuffled block, in bytes
    cl::Buffer src_, table_, error_;
    std::size_t srcCapacity_ = 0, tableCapacity_ = 0;
};

// One batch: FrameDecoder(session).decode(...).
void decodeFrames(ClSession& session, std::span<const CompressedFrame> frames,
                  std::size_t frameBytes, const cl::Buffer& out, const TunableValues& values = {});

} // namespace clscope::decode
