// CsrFrames::openSparse: the CSR layout's checks, each naming the dataset it refuses.
#include "core/errors.hpp"
#include "core/sparse/csr_frames.hpp"

namespace clscope {

void CsrFrames::checkFramePtr(std::uint64_t entries) const {
    if (ptr_.front() != 0)
        throw InputError(where("frame_ptr") + ": must start at 0, found " +
                         std::to_string(ptr_.front()));
    for (std::size_t t = 0; t + 1 < ptr_.size(); ++t)
        if (ptr_[t + 1] < ptr_[t])
            throw InputError(where("frame_ptr") + ": must be non-decreasing, but frame_ptr[" +
                             std::to_string(t + 1) + "] = " + std::to_string(ptr_[t + 1]) +
                             " < frame_ptr[" + std::to_string(t) +
                             "] = " + std::to_string(ptr_[t]));
    if (static_cast<std::uint64_t>(ptr_.back()) != entries)
        throw InputError(where("frame_ptr") + ": frame_ptr[T] = " + std::to_string(ptr_.back()) +
                         " must equal the " + std::to_string(entries) +
                         " entries of pixel and count");
}

// The dense frames' type: the count column's, uint16 or uint32 (what a photon counter gives).
DType CsrFrames::countType() const {
    const std::string path = group_ + "/count";
    if (!file_->hasObject(path)) throw InputError(where("count") + ": dataset missing");
    const DatasetInfo di = file_->info(path);
    if (di.dtype != DType::UInt16 && di.dtype != DType::UInt32)
        throw InputError(where("count") + ": must be uint16 or uint32, found " + di.typeName);
    return *di.dtype;
}

CsrFrames CsrFrames::openSparse(const H5Reader& file, const std::string& group) {
    CsrFrames f(file, group);
    f.countName_ = "count";
    const std::uint64_t ptrLength = f.checkColumn("frame_ptr");
    const std::uint64_t entries = f.checkColumn("pixel");
    f.dtype_ = f.countType();
    if (const std::uint64_t counts = f.checkColumn("count"); counts != entries)
        throw InputError(f.where("count") + ": " + std::to_string(counts) + " counts for " +
                         std::to_string(entries) + " pixels");
    const std::vector<std::int64_t> shape = f.readShape("frame_ptr", 3);
    if (ptrLength != static_cast<std::uint64_t>(shape[0]) + 1)
        throw InputError(f.where("frame_ptr") + ": " + std::to_string(ptrLength) +
                         " entries, expected T + 1 = " + std::to_string(shape[0] + 1) +
                         " for shape (" + std::to_string(shape[0]) + ", " +
                         std::to_string(shape[1]) + ", " + std::to_string(shape[2]) + ")");
    // T + 1 int64 (8 MB for 10⁶ frames): what finds each frame's entries without a search.
    const Array ptr = file.read(group + "/frame_ptr", DType::Int64);
    f.ptr_.assign(ptr.as<std::int64_t>().begin(), ptr.as<std::int64_t>().end());
    f.checkFramePtr(entries);
    return f;
}

} // namespace clscope
