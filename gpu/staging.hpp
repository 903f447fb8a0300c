// Uploads from ordinary (pageable) host memory at pinned-memory speed: the data are copied by
// several host threads into one of two pinned staging halves while the other half's DMA runs,
// then written to the device without blocking. Used where a run streams large inputs (spots
// frames). The destructor waits for its copies before the staging memory goes, so no error
// path can free memory a queue still reads.
#pragma once
#include "gpu/session.hpp"

#include <array>
#include <string>

namespace clscope {

class StagedUpload {
  public:
    // pieceBytes: size of each staging half (the unit of overlap).
    explicit StagedUpload(ClSession& session, std::size_t pieceBytes = std::size_t(32) << 20);
    ~StagedUpload();
    StagedUpload(const StagedUpload&) = delete;
    StagedUpload& operator=(const StagedUpload&) = delete;

    // Copy bytes from data into buffer at offset; data may be reused as soon as this returns
    // (it has been copied to staging); the device copy is queued on the session's queue, so
    // later commands of that queue see it. Recorded under label in the session's timings.
    void upload(const cl::Buffer& buffer, std::size_t offset, const void* data, std::size_t bytes,
                const std::string& label);

  private:
    ClSession& session_;
    std::size_t piece_;
    std::array<cl::Buffer, 2> pinned_;
    std::array<void*, 2> host_{nullptr, nullptr};
    std::array<cl::Event, 2> busy_;
    int next_ = 0;
};

// memcpy over several threads (large copies only; small ones on the calling thread).
void parallelCopy(void* to, const void* from, std::size_t bytes);

} // namespace clscope
