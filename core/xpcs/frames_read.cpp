#include "core/xpcs/frames_read.hpp"

#include "core/errors.hpp"
#include "core/input/chunked_frames.hpp"
#include "core/io.hpp"
#include "core/limits.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace clscope::xpcs {

Array readFramesParallel(const H5Reader& file, const std::string& fileName, const std::string& path,
                         unsigned threads, std::optional<double> frameTime) {
    const std::vector<std::string> parts = frameDatasets(file, path);
    // Not one dataset (EIGER parts, or a sparse group): readFrames joins or densifies them.
    if (parts.size() != 1 || !file.hasDataset(parts[0])) return readFrames(file, path, frameTime);
    const DatasetInfo info = file.info(parts[0]);
    if (!info.dtype || info.shape.size() != 3 || info.shape[0] == 0) return readFrames(file, path);
    const std::unique_ptr<ChunkedFrames> chunks = ChunkedFrames::open(fileName, parts[0]);
    if (!chunks) return readFrames(file, path);
    const std::optional<std::uint64_t> bytes = checkedBytes(info.shape, dtypeSize(*info.dtype));
    if (!bytes)
        throw InputError(file.where(path) + ": shape " + shapeString(info.shape) + " overflows");
    checkHostMemory(*bytes, file.where(path) + " " + shapeString(info.shape) + " " +
                                dtypeName(*info.dtype));
    Array out(*info.dtype, info.shape);
    if (chunks->read(0, info.shape[0], out.bytes(), threads)) return out;
    out = Array(); // let HDF5 report what is wrong, without holding two stacks
    return readFrames(file, path);
}

} // namespace clscope::xpcs
