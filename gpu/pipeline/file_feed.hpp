// The frames of an HDF5 stack whose chunks are single frames compressed with bitshuffle-LZ4
// (the EIGER / NXmx layout), read front to back as they are stored: libhdf5's chunk index gives
// each chunk's place and size, and the chunks' bytes are read on several threads (pread, outside
// libhdf5's lock). The pipeline uploads the compressed bytes and decodes them on the device, as
// it does a live stream's bslz4 images. A chunk stored without its filter (the chunk's filter
// mask) comes as its frame.
#pragma once
#include "core/file_ranges.hpp"
#include "core/hdf5_util.hpp"
#include "core/input/input_sources.hpp"
#include "gpu/pipeline/frame_feed.hpp"

#include <memory>

namespace clscope::pipeline {

class FileFeed : public FrameFeed {
  public:
    // The feed of the role's frames (the run's frame range of them) where the stack is held
    // so, else null (not a file, another layout or filter, or no LZ4 in this build: the run
    // reads the file as it did).
    static std::unique_ptr<FileFeed> open(const InputSources& sources, const InputRole& role);
    ~FileFeed() override;

    FrameFormat format() const override { return format_; }
    std::size_t frameCount() const override { return end_ - first_; }
    std::vector<stream::ReceivedFrame> takeNext(std::size_t maxCount) override;
    std::string name() const override { return name_; }

  private:
    FileFeed() = default;
    h5::Handle file_, dataset_;
    std::unique_ptr<ReadOnlyFile> data_; // the file holding the dataset (an EIGER link's)
    h5::Holder holder_;                  // that file: its name, user block and size
    FrameFormat format_;
    std::size_t first_ = 0, end_ = 0,
                next_ = 0; // the stack's frames [first_, end_), next_ read next
    std::string name_;
};

} // namespace clscope::pipeline
