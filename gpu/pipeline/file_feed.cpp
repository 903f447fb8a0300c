#include "gpu/pipeline/file_feed.hpp"

#include "core/errors.hpp"

#include <cstring>
#include <filesystem>

namespace clscope::pipeline {

std::unique_ptr<FileFeed> FileFeed::open(const InputSources& sources, const InputRole& role) {
    if (sources.live || !role.stack || sources.inMemory(role)) return nullptr;
    const DataLocation at = sources.locate(role);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(at.file, ec)) return nullptr;
    std::lock_guard lock(h5::mutex());
    // A file that crashes or hangs libhdf5 is refused as every reader refuses it (InputError),
    // before this process opens it.
    h5::probeFile(at.file);
    if (H5Fis_hdf5(at.file.c_str()) <= 0) return nullptr;
    std::optional<h5::OpenDataset> opened = h5::openDataset(at.file, at.path);
    if (!opened) return nullptr;
    std::unique_ptr<FileFeed> feed(new FileFeed);
    feed->file_ = std::move(opened->file), feed->dataset_ = std::move(opened->dataset);
    const h5::Handle dcpl(H5Dget_create_plist(feed->dataset_.get()), H5Pclose);
    const std::optional<h5::FrameChunks> stack = h5::frameChunks(feed->dataset_.get());
    if (!stack || stack->chunkFrames != 1 || !h5::bitshuffleLz4Only(dcpl.get())) return nullptr;
    // The chunks are read from the file that holds the dataset (an external link's target).
    const std::optional<h5::Holder> holder = h5::holderOf(feed->dataset_.get());
    if (!holder) return nullptr;
    feed->data_ = std::make_unique<ReadOnlyFile>(holder->file);
    feed->holder_ = *holder;
    const auto [first, end] = sources.frames.within(stack->frames, at.file + ":" + at.path);
    feed->format_ = {stack->height, stack->width, stack->dtype};
    feed->first_ = first, feed->end_ = end, feed->next_ = first;
    feed->name_ = "file " + at.file + ":" + at.path;
    return feed;
}

FileFeed::~FileFeed() {
    std::lock_guard lock(h5::mutex());
    dataset_.reset(), file_.reset();
}

std::vector<stream::ReceivedFrame> FileFeed::takeNext(std::size_t maxCount) {
    std::vector<stream::ReceivedFrame> out;
    std::vector<FileRange> ranges;
    std::vector<bool> unfiltered;
    const std::size_t frameBytes = format_.frameBytes(), element = dtypeSize(format_.dtype);
    const auto where = [&](std::size_t frame) {
        return name_ + ": frame " + std::to_string(frame - first_);
    };
    {
        std::lock_guard lock(h5::mutex());
        for (; next_ < end_ && ranges.size() < maxCount; ++next_) {
            const hsize_t offset[3] = {next_, 0, 0};
            const std::optional<h5::ChunkPlace> chunk =
                h5::chunkPlace(dataset_.get(), offset, holder_);
            if (!chunk)
                throw InputError(where(next_) +
                                 ": its chunk is not stored (or lies beyond the file's end)");
            const bool raw = chunk->filterMask & 1u; // stored without the filter: the frame
            if (raw && chunk->bytes != frameBytes)
                throw InputError(where(next_) + ": an unfiltered chunk of " +
                                 std::to_string(chunk->bytes) + " bytes, expected " +
                                 std::to_string(frameBytes));
            ranges.push_back({chunk->at, std::size_t(chunk->bytes)});
            unfiltered.push_back(raw);
        }
    }
    out.resize(ranges.size()); // each chunk read into its frame's bytes
    for (std::size_t i = 0; i < out.size(); ++i)
        ranges[i].into = &out[i].packed.bytes;
    data_->read(ranges);
    for (std::size_t i = 0; i < out.size(); ++i) {
        stream::ReceivedFrame& f = out[i];
        if (unfiltered[i]) { // the frame's bytes
            f.frame = Array(format_.dtype, {format_.height, format_.width});
            std::memcpy(f.frame.bytes(), f.packed.bytes.data(), frameBytes);
            f.packed.bytes.clear();
            continue;
        }
        f.packed.algorithm = "bslz4", f.packed.elemSize = element;
        f.packed.height = format_.height, f.packed.width = format_.width;
        f.packed.dtype = format_.dtype;
    }
    return out;
}

} // namespace clscope::pipeline
