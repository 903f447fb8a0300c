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
    std::unique_ptr<FileFeed> feed(new FileFeed);
    feed->file_ =
        h5::Handle(H5Fopen(at.file.c_str(), H5F_ACC_RDONLY, h5::readAccessList().get()), H5Fclose);
    if (!feed->file_.valid() || H5Lexists(feed->file_.get(), at.path.c_str(), H5P_DEFAULT) <= 0)
        return nullptr;
    feed->dataset_ =
        h5::Handle(H5Dopen2(feed->file_.get(), at.path.c_str(), H5P_DEFAULT), H5Dclose);
    if (!feed->dataset_.valid()) return nullptr;
    const h5::Handle dcpl(H5Dget_create_plist(feed->dataset_.get()), H5Pclose);
    const h5::Handle type(H5Dget_type(feed->dataset_.get()), H5Tclose);
    const h5::Handle space(H5Dget_space(feed->dataset_.get()), H5Sclose);
    hsize_t dims[3] = {0, 0, 0}, chunk[3] = {0, 0, 0};
    std::string typeName;
    const std::optional<DType> dtype = h5::dtypeOfStored(type.get(), typeName);
    if (H5Pget_layout(dcpl.get()) != H5D_CHUNKED || !h5::bitshuffleLz4Only(dcpl.get()) ||
        H5Sget_simple_extent_ndims(space.get()) != 3 || !dtype ||
        H5Tequal(type.get(), h5::nativeType(*dtype)) <= 0 ||
        H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 3 ||
        H5Pget_chunk(dcpl.get(), 3, chunk) != 3 || chunk[0] != 1 || chunk[1] != dims[1] ||
        chunk[2] != dims[2] || dims[0] == 0)
        return nullptr;
    // The chunks are read from the file that holds the dataset (an external link's target).
    const std::optional<h5::Holder> holder = h5::holderOf(feed->dataset_.get());
    if (!holder) return nullptr;
    feed->data_ = std::make_unique<ReadOnlyFile>(holder->file);
    feed->base_ = holder->base;
    feed->fileBytes_ = std::filesystem::file_size(holder->file, ec);
    if (ec) return nullptr;
    const auto [first, end] = sources.frames.within(dims[0], at.file + ":" + at.path);
    feed->format_ = {std::size_t(dims[1]), std::size_t(dims[2]), *dtype};
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
            hsize_t offset[3] = {next_, 0, 0}, bytes = 0;
            haddr_t address = HADDR_UNDEF;
            unsigned mask = 0;
            if (H5Dget_chunk_info_by_coord(dataset_.get(), offset, &mask, &address, &bytes) < 0 ||
                address == HADDR_UNDEF || bytes == 0 || base_ + address > fileBytes_ ||
                bytes > fileBytes_ - base_ - address)
                throw InputError(where(next_) +
                                 ": its chunk is not stored (or lies beyond the file's end)");
            if ((mask & 1u) && bytes != frameBytes) // stored without the filter: the frame
                throw InputError(where(next_) + ": an unfiltered chunk of " +
                                 std::to_string(bytes) + " bytes, expected " +
                                 std::to_string(frameBytes));
            ranges.push_back({base_ + address, std::size_t(bytes)});
            unfiltered.push_back(mask & 1u);
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
