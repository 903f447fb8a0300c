// The one entry point of the frame readers (FrameStream, readFrames) into core/sparse: the
// sparse frames or event list a frames path names, opened and checked.
#pragma once
#include "core/sparse/csr_frames.hpp"
#include "core/sparse/sparse_location.hpp"

#include <memory>
#include <optional>

namespace clscope {

// The frames stored sparsely at `path` (findSparse's rule), or null where a dense dataset (or
// nothing) is: the dense readers go on. An event list is binned into frames of `frameTime`
// seconds (UsageError without one). `file` must outlive the result.
std::unique_ptr<CsrFrames> openSparseFrames(const H5Reader& file, const std::string& path,
                                            std::optional<double> frameTime);

} // namespace clscope
