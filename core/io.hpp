// Reading and writing the HDF5 layouts of DESIGN.md §3, by role.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/hdf5.hpp"

#include <optional>
#include <string>

namespace clscope {

namespace paths {
inline const std::string frames = "/entry/data/data";
inline const std::string qmask = "/entry/processing/qmask";
inline const std::string pixelMask = "/entry/instrument/detector/pixel_mask";
inline const std::string frameTime = "/entry/instrument/detector/frame_time";
// Synthetic brownian data: the diffusion coefficient it was made with (Å²/s), for checking fits.
inline const std::string trueDiffusion = "/entry/sample/diffusion_coefficient";
} // namespace paths

// "FILE[:PATH]" split into its parts; PATH defaults to defaultPath.
struct DataLocation {
    std::string file, path;
};
DataLocation parseLocation(const std::string& spec, const std::string& defaultPath);

// Frame stacks (T,H,W) or one image (H,W) of uint8/16/32, int32 or float32. When the
// default path is absent, EIGER master files' /entry/data/data_NNNNNN links are joined.
// Sparse frames and event lists (DESIGN.md §3; core/sparse) are read densified, an event list
// binned into frames of `frameTime` seconds (UsageError without one).
Array readFrames(const H5Reader& file, const std::string& path = paths::frames,
                 std::optional<double> frameTime = std::nullopt);
// One frame dataset's type and shape as readFrames accepts them (InputError otherwise).
DatasetInfo checkFrameDataset(const H5Reader& file, const std::string& path);
// The datasets that readFrames would join, in order (a sparse layout is one group: the path
// itself, readFrames and FrameStream find it).
std::vector<std::string> frameDatasets(const H5Reader& file, const std::string& path);

// (H,W) integer labels; shape checked against (height, width) when given.
LabelMask readLabels(const H5Reader& file, const std::string& path = paths::qmask,
                     std::size_t height = 0, std::size_t width = 0);
// (H,W) integer NXmx pixel mask, non-zero = bad.
PixelMask readPixelMask(const H5Reader& file, const std::string& path = paths::pixelMask,
                        std::size_t height = 0, std::size_t width = 0);
// (N,3) float32/float64 positions as doubles; InputError naming the dataset otherwise.
std::vector<double> readPositions(const H5Reader& file, const std::string& path);
// A 1-D integer column of uint16 values: its length (InputError for another shape),
// or `count` values from `first` (InputError naming a value that does not fit).
std::size_t checkUInt16Column(const H5Reader& file, const std::string& path);
std::vector<std::uint16_t> readUInt16Range(const H5Reader& file, const std::string& path,
                                           std::size_t first, std::size_t count);
// Writers for the same layouts (used by generate and by exports).
Array labelsArray(const LabelMask& mask);
Array pixelMaskArray(const PixelMask& mask);

} // namespace clscope
