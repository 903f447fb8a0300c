#include "core/sparse/sparse_frames.hpp"

namespace clscope {

std::unique_ptr<CsrFrames> openSparseFrames(const H5Reader& file, const std::string& path,
                                            std::optional<double> frameTime) {
    const std::optional<SparseLocation> at = findSparse(file, path);
    if (!at) return nullptr;
    if (at->kind == SparseLocation::Kind::Csr)
        return std::make_unique<CsrFrames>(CsrFrames::openSparse(file, at->group));
    const std::uint64_t ns = binWidthNs(frameTime, file.where(at->group));
    return std::make_unique<CsrFrames>(CsrFrames::openEvents(file, at->group, ns));
}

} // namespace clscope
