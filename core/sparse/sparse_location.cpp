#include "core/sparse/sparse_location.hpp"

#include "core/errors.hpp"

#include <cmath>

namespace clscope {

namespace {

std::optional<SparseLocation> groupKind(const H5Reader& file, const std::string& group) {
    if (!file.hasObject(group) || file.hasDataset(group)) return std::nullopt;
    const auto has = [&](const char* name) { return file.hasObject(group + "/" + name); };
    if (has("time")) return SparseLocation{SparseLocation::Kind::Events, group};
    // Any of its columns makes it the CSR layout, so that a missing one is named when opened.
    if (has("frame_ptr") || has("pixel") || has("count"))
        return SparseLocation{SparseLocation::Kind::Csr, group};
    return std::nullopt;
}

} // namespace

std::optional<SparseLocation> findSparse(const H5Reader& file, const std::string& path) {
    if (file.hasObject(path)) return groupKind(file, path);
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return std::nullopt;
    const std::string parent = path.substr(0, slash);
    // The sibling groups by name alone: a `sparse` group without frame_ptr is the CSR layout
    // with its frame_ptr missing (said so when opened), not a reason to look elsewhere.
    for (const auto& [name, kind] : {std::pair{"/sparse", SparseLocation::Kind::Csr},
                                     std::pair{"/events", SparseLocation::Kind::Events}})
        if (file.hasObject(parent + name) && !file.hasDataset(parent + name))
            return SparseLocation{kind, parent + name};
    return std::nullopt;
}

std::uint64_t eventFrameCount(const H5Reader& file, const std::string& group,
                              std::uint64_t frameNs) {
    const std::string time = group + "/time";
    const DatasetInfo di = file.info(time);
    if (di.shape.size() != 1 || di.shape[0] == 0 || !di.integer) return 0; // refused when opened
    const Array last = file.readSlab(time, di.shape[0] - 1, 1, DType::Int64);
    const std::int64_t t = last.as<std::int64_t>()[0];
    return t < 0 ? 0 : static_cast<std::uint64_t>(t) / frameNs + 1;
}

std::uint64_t binWidthNs(std::optional<double> frameTime, const std::string& where) {
    if (!frameTime)
        throw UsageError(where +
                         ": an event list is binned into frames at read time: give the frame "
                         "width with --frame-time SECONDS");
    // Time stamps are whole nanoseconds, so is the bin width: every edge k·Δ is then an exact
    // integer and an event at an edge falls in the later frame, on every platform.
    const double ns = std::round(*frameTime * 1e9);
    if (!(ns >= 1) || ns > 9.2e18)
        throw UsageError(where + ": --frame-time " + std::to_string(*frameTime) +
                         " s is not a bin width of 1 ns or more");
    return static_cast<std::uint64_t>(ns);
}

} // namespace clscope
