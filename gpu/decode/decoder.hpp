// Compressed frames decoded on an OpenCL device (resources/kernels/bslz4.cl): bitshuffle-LZ4
// and LZ4 as DECTRIS' compression tag frames them (core/stream/block_plan.hpp). The frames'
// blocks are planned on the host from their headers, the compressed bytes uploaded as they
// are (2-10x fewer than the frames'), and one launch decodes every block of a batch, one
// work-group each, into one device buffer. The CPU decoder (core/stream/compression.hpp) is
// the reference: the bytes are the same.
#pragma once
#include "gpu/recipe.hpp"
#include "gpu/runtime/opencl.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace clscope {
class ClSession;
class StreamUpload;
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
// batches (pinned staging of the compressed bytes, the device buffers: grown, never shrunk), so
// a stream of batches costs no allocation or page fault after the first. A batch is decoded
// in three steps a stream overlaps: prepare() (host: plan the blocks, copy the bytes into
// pinned staging, start their DMA on a transfer queue), enqueue() (the kernel on the
// session's queue, after that DMA) and check() (the kernel's error flag). Two batches may be
// prepared ahead of their enqueue: batch i's DMA waits until batch i - 2's kernel is done.
class FrameDecoder {
  public:
    explicit FrameDecoder(ClSession& session);
    ~FrameDecoder();

    // Decodes `frames`, each `frameBytes` once decoded, into `out` (frame i at i * frameBytes,
    // `out` at least frames.size() * frameBytes bytes). InputError naming the frame for a
    // framing error (found on the host) and the frame and block for a corrupt block (found by
    // the kernel, which writes nothing outside that block's bytes); DeviceError for a block
    // larger than the device's local memory. `values` overrides tunables (WG). With
    // `outOffset`, frame i goes to outOffset + i * frameBytes instead.
    void decode(std::span<const CompressedFrame> frames, std::size_t frameBytes,
                const cl::Buffer& out, const TunableValues& values = {}, std::size_t outOffset = 0);

    // The host part of decode(): returns the batch's number for enqueue() and check(); the
    // frames' bytes may be freed when it returns.
    std::size_t prepare(std::span<const CompressedFrame> frames, std::size_t frameBytes,
                        std::size_t outOffset = 0);
    // The kernel of prepared batch `batch` on the session's queue (nothing waited for).
    void enqueue(std::size_t batch, const cl::Buffer& out, const TunableValues& values = {});
    // Waits for batch's error flag: InputError naming the frame and block it flags.
    void check(std::size_t batch);

  private:
    struct Planned; // one batch's blocks, for its kernel and its error message
    std::string blockName(const Planned& p, std::size_t block, std::size_t& frame) const;
    // `buffer` at least `bytes` long (a new one when it is shorter).
    void reserve(cl::Buffer& buffer, std::size_t& capacity, std::size_t bytes, const char* what);

    ClSession& session_;
    std::vector<std::unique_ptr<Planned>> planned_; // two, batch % 2
    std::unique_ptr<StreamUpload> upload_;          // the compressed bytes
    std::size_t uploadCapacity_ = 0, batches_ = 0;
    cl::Buffer table_;
    std::size_t tableCapacity_ = 0;
};

// One batch: FrameDecoder(session).decode(...).
void decodeFrames(ClSession& session, std::span<const CompressedFrame> frames,
                  std::size_t frameBytes, const cl::Buffer& out, const TunableValues& values = {});

} // namespace clscope::decode
