// Where a frame stack is stored sparsely (DESIGN.md §3 "Sparse frames"): the CSR layout
// (frame_ptr, pixel, count) or an event list (pixel, time) that a frames path names, either
// the group itself or, when that path is absent, its sibling group `sparse` or `events`.
#pragma once
#include "core/hdf5.hpp"

#include <optional>
#include <string>

namespace clscope {

struct SparseLocation {
    enum class Kind { Csr, Events } kind = Kind::Csr;
    std::string group; // e.g. /entry/data/sparse
};

// The sparse layout `path` names, or nothing (a dense dataset, or nothing at all, is there:
// the dense readers say which). `path` names it when it is a group holding frame_ptr (CSR) or
// time (events); when `path` is absent, its sibling group `sparse` is taken, else `events`.
std::optional<SparseLocation> findSparse(const H5Reader& file, const std::string& path);

// The number of frames an event list bins into with frames of `frameNs` nanoseconds:
// ⌊last time / Δ⌋ + 1, read from its last time stamp alone (the list is checked when opened).
std::uint64_t eventFrameCount(const H5Reader& file, const std::string& group,
                              std::uint64_t frameNs);

// A frame time in seconds (--frame-time) as the whole nanoseconds an event list is binned by;
// UsageError naming `where` when there is none (an event list needs one) or it is below 1 ns.
std::uint64_t binWidthNs(std::optional<double> frameTime, const std::string& where);

} // namespace clscope
