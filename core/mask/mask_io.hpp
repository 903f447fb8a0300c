// Saving and loading pixel masks, q-bin label maps (with their label table) and the
// detector geometry, as HDF5 (NXmx / DESIGN.md §3 layout) or numpy .npy.
//
// HDF5 layout (all optional except what a loader asks for):
//   /entry/processing/qmask              (H,W) int32 labels, 0 = excluded
//   /entry/processing/qmask_q            (B) float64 q centre of each label, nm^-1
//   /entry/processing/qmask_phi          (B) float64 phi centre, degrees (NaN: full ring)
//   /entry/processing/qmask_label_ids    (B) int32 the labels those rows describe
//   /entry/instrument/detector/pixel_mask (H,W) uint8, non-zero = masked
//   /entry/processing/geometry/{beam_center_x, beam_center_y (pixels), distance,
//       pixel_size_x, pixel_size_y, wavelength (m), rot1, rot2, rot3 (rad, optional)}
//       scalar float64 datasets (read also from attributes of the group of the same names).
// NPY holds one array: a pixel mask (written |u1) or labels (written <i4, no label table).
// TIFF and EDF are not supported (no TIFF development library in the build environment).
#pragma once
#include "core/data.hpp"
#include "core/hdf5.hpp"
#include "core/mask/geometry.hpp"
#include "core/mask/partition.hpp"

#include <optional>
#include <string>

namespace clscope::mask {

namespace paths {
inline const std::string geometry = "/entry/processing/geometry";
inline const std::string qmaskQ = "/entry/processing/qmask_q";
inline const std::string qmaskPhi = "/entry/processing/qmask_phi";
inline const std::string qmaskLabelIds = "/entry/processing/qmask_label_ids";
} // namespace paths

enum class MaskFileFormat { Hdf5, Npy };
// By extension: .h5 .hdf5 .hdf .nxs .nx5 -> Hdf5, .npy -> Npy; anything else is a UsageError
// that names the file and the supported extensions.
MaskFileFormat maskFileFormat(const std::string& fileName);

// Geometry and label table inside HDF5 files.
void writeGeometry(H5Writer& out, const Geometry& g, const std::string& group = paths::geometry);
// Empty when the group is absent; InputError when it is incomplete or invalid.
std::optional<Geometry> readGeometry(const H5Reader& file,
                                     const std::string& group = paths::geometry);
void writeLabelCenters(H5Writer& out, const LabelCenters& centers);
// Empty when qmask_label_ids is absent; InputError when the three datasets disagree.
std::optional<LabelCenters> readLabelCenters(const H5Reader& file);

// Everything a mask file may hold.
struct MaskFile {
    std::optional<LabelMask> labels;
    std::optional<LabelCenters> centers;
    std::optional<PixelMask> pixelMask;
    std::optional<Geometry> geometry;
};
// Writes whatever is present (HDF5, temp name then rename). Throws InputError when the labels
// and the pixel mask differ in shape.
void writeMaskFile(const std::string& fileName, const MaskFile& content);
// Reads whatever is present at the default paths.
MaskFile readMaskFile(const std::string& fileName);

// One pixel mask, "FILE[:PATH]" (PATH for HDF5, default the NXmx pixel_mask). NPY: any
// supported dtype, non-zero (NaN included) = masked, shape (H,W).
PixelMask loadPixelMask(const std::string& spec);
void savePixelMask(const std::string& fileName, const PixelMask& mask);

// One label map, "FILE[:PATH]" (default /entry/processing/qmask). From HDF5 the label table
// and geometry come along when present. NPY: integer (H,W) whose values fit int32.
struct LabelMap {
    LabelMask labels;
    std::optional<LabelCenters> centers;
    std::optional<Geometry> geometry;
};
LabelMap loadLabelMap(const std::string& spec);
void saveLabelMap(const std::string& fileName, const LabelMap& map);

} // namespace clscope::mask
