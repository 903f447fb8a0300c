#include "core/mask/mask_io.hpp"

#include "core/errors.hpp"
#include "core/input/metadata.hpp"
#include "core/io.hpp"
#include "core/mask/npy.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>

namespace clscope::mask {

namespace {

// The geometry's values by their HDF5 names.
struct GeometryField {
    const char* name;
    double Geometry::*member;
    const char* units;
    bool required;
};
constexpr GeometryField geometryFields[] = {
    {"beam_center_x", &Geometry::beamCenterX, "pixel", true},
    {"beam_center_y", &Geometry::beamCenterY, "pixel", true},
    {"distance", &Geometry::distance, "m", true},
    {"pixel_size_x", &Geometry::pixelSizeX, "m", true},
    {"pixel_size_y", &Geometry::pixelSizeY, "m", true},
    {"wavelength", &Geometry::wavelength, "m", true},
    {"rot1", &Geometry::rot1, "rad", false},
    {"rot2", &Geometry::rot2, "rad", false},
    {"rot3", &Geometry::rot3, "rad", false},
};

// A geometry value from a scalar dataset, else from an attribute of the group.
std::optional<double> geometryValue(const H5Reader& file, const std::string& group,
                                    const char* name) {
    const std::string path = group + "/" + name;
    if (file.hasDataset(path)) return file.readScalar(path);
    const auto text = file.stringAttribute(group, name);
    if (!text) return std::nullopt;
    double v = 0;
    const auto res = std::from_chars(text->data(), text->data() + text->size(), v);
    if (res.ec != std::errc() || res.ptr != text->data() + text->size())
        throw InputError(file.where(group) + ": attribute " + name + " is not a number: '" + *text +
                         "'");
    return v;
}

std::string shapeText(std::size_t height, std::size_t width) {
    std::string text = "(";
    text += std::to_string(height);
    text += ", ";
    text += std::to_string(width);
    return text + ")";
}

// The label table rows as 1-D arrays.
Array doubles(const std::vector<double>& v) {
    return makeArray<double>({v.size()}, v);
}

// A 1-D float64 dataset of the label table with n rows.
std::vector<double> tableColumn(const H5Reader& file, const std::string& path, std::size_t n) {
    const Array a = file.read(path, DType::Float64);
    if (a.rank() != 1 || a.size() != n)
        throw InputError(file.where(path) + ": expected (" + std::to_string(n) +
                         ",) float64 like qmask_label_ids, found shape " + shapeString(a.shape()));
    return {a.as<double>().begin(), a.as<double>().end()};
}

// (H,W) of an NPY array, else an InputError naming the file and what was expected.
void checkImageShape(const Array& a, const std::string& fileName, const char* what) {
    if (a.rank() != 2)
        throw InputError(fileName + ": " + what + " must have rank 2 (H,W), found shape " +
                         shapeString(a.shape()));
}

PixelMask pixelMaskFromArray(const Array& a, const std::string& fileName) {
    checkImageShape(a, fileName, "pixel mask");
    PixelMask m{a.height(), a.width(), std::vector<std::uint8_t>(a.size())};
    for (std::size_t i = 0; i < a.size(); ++i)
        m.bad[i] = a.valueAt(i) != 0.0; // NaN: masked
    return m;
}

LabelMask labelsFromArray(const Array& a, const std::string& fileName) {
    checkImageShape(a, fileName, "q-bin labels");
    if (!dtypeIsInteger(a.dtype()))
        throw InputError(fileName + ": q-bin labels must be integer, found " +
                         dtypeName(a.dtype()));
    LabelMask m{a.height(), a.width(), std::vector<std::int32_t>(a.size())};
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double v = a.valueAt(i);
        if (v > std::numeric_limits<std::int32_t>::max() ||
            v < std::numeric_limits<std::int32_t>::min())
            throw InputError(fileName + ": label " + std::to_string(v) + " at pixel " +
                             std::to_string(i) + " does not fit int32");
        m.labels[i] = static_cast<std::int32_t>(v);
    }
    return m;
}

} // namespace

MaskFileFormat maskFileFormat(const std::string& fileName) {
    std::string ext = std::filesystem::path(fileName).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".npy") return MaskFileFormat::Npy;
    if (ext == ".h5" || ext == ".hdf5" || ext == ".hdf" || ext == ".nxs" || ext == ".nx5")
        return MaskFileFormat::Hdf5;
    throw UsageError(fileName + ": unknown mask file type '" + ext +
                     "', expected .h5, .hdf5, .hdf, .nxs, .nx5 or .npy (TIFF and EDF are not "
                     "supported)");
}

void writeGeometry(H5Writer& out, const Geometry& g, const std::string& group) {
    validate(g);
    out.createGroup(group);
    out.setAttribute(group, "NX_class", "NXcollection");
    for (const GeometryField& f : geometryFields) {
        const std::string path = group + "/" + f.name;
        out.writeScalar(path, g.*f.member);
        out.setAttribute(path, "units", f.units);
    }
}

std::optional<Geometry> readGeometry(const H5Reader& file, const std::string& group) {
    if (!file.hasObject(group)) return std::nullopt;
    Geometry g;
    for (const GeometryField& f : geometryFields) {
        std::optional<double> v = geometryValue(file, group, f.name);
        const std::string path = group + "/" + f.name;
        if (v && std::string(f.units) == "m" && file.hasDataset(path)) // lengths: m, mm, µm
            *v = lengthMetres(file, path, *v);
        if (v)
            g.*f.member = *v;
        else if (f.required)
            throw InputError(file.where(group) + ": geometry has no " + f.name +
                             " (expected a scalar dataset or attribute)");
    }
    try {
        validate(g);
    } catch (const UsageError& e) {
        throw InputError(file.where(group) + ": " + e.what());
    }
    return g;
}

void writeLabelCenters(H5Writer& out, const LabelCenters& c) {
    if (c.q.size() != c.labelIds.size() || c.phi.size() != c.labelIds.size())
        throw UsageError("label table: labelIds, q and phi differ in length");
    out.write(paths::qmaskLabelIds, makeArray<std::int32_t>({c.labelIds.size()}, c.labelIds));
    out.write(paths::qmaskQ, doubles(c.q));
    out.setAttribute(paths::qmaskQ, "units", "nm^-1");
    out.write(paths::qmaskPhi, doubles(c.phi));
    out.setAttribute(paths::qmaskPhi, "units", "deg");
}

std::optional<LabelCenters> readLabelCenters(const H5Reader& file) {
    if (!file.hasDataset(paths::qmaskLabelIds)) return std::nullopt;
    const Array ids = file.read(paths::qmaskLabelIds, DType::Int32);
    if (ids.rank() != 1)
        throw InputError(file.where(paths::qmaskLabelIds) + ": expected (B,) int32, found shape " +
                         shapeString(ids.shape()));
    LabelCenters c;
    c.labelIds.assign(ids.as<std::int32_t>().begin(), ids.as<std::int32_t>().end());
    c.q = tableColumn(file, paths::qmaskQ, ids.size());
    c.phi = file.hasDataset(paths::qmaskPhi)
                ? tableColumn(file, paths::qmaskPhi, ids.size())
                : std::vector<double>(ids.size(), std::numeric_limits<double>::quiet_NaN());
    return c;
}

void writeMaskFile(const std::string& fileName, const MaskFile& content) {
    if (content.labels && content.pixelMask &&
        (content.labels->height != content.pixelMask->height ||
         content.labels->width != content.pixelMask->width))
        throw InputError(
            fileName + ": labels " + shapeText(content.labels->height, content.labels->width) +
            " and pixel mask " + shapeText(content.pixelMask->height, content.pixelMask->width) +
            " differ in shape");
    H5Writer out(fileName);
    if (content.labels) out.write(clscope::paths::qmask, labelsArray(*content.labels));
    if (content.centers) writeLabelCenters(out, *content.centers);
    if (content.pixelMask) out.write(clscope::paths::pixelMask, pixelMaskArray(*content.pixelMask));
    if (content.geometry) writeGeometry(out, *content.geometry);
    out.commit();
}

MaskFile readMaskFile(const std::string& fileName) {
    const H5Reader file(fileName);
    MaskFile content;
    if (file.hasDataset(clscope::paths::qmask)) content.labels = readLabels(file);
    content.centers = readLabelCenters(file);
    if (file.hasDataset(clscope::paths::pixelMask)) content.pixelMask = readPixelMask(file);
    content.geometry = readGeometry(file);
    return content;
}

PixelMask loadPixelMask(const std::string& spec) {
    const DataLocation loc = parseLocation(spec, clscope::paths::pixelMask);
    if (maskFileFormat(loc.file) == MaskFileFormat::Npy)
        return pixelMaskFromArray(readNpy(loc.file), loc.file);
    return readPixelMask(H5Reader(loc.file), loc.path);
}

void savePixelMask(const std::string& fileName, const PixelMask& mask) {
    if (maskFileFormat(fileName) == MaskFileFormat::Npy) {
        writeNpy(fileName, pixelMaskArray(mask));
        return;
    }
    writeMaskFile(fileName, MaskFile{{}, {}, mask, {}});
}

LabelMap loadLabelMap(const std::string& spec) {
    const DataLocation loc = parseLocation(spec, clscope::paths::qmask);
    if (maskFileFormat(loc.file) == MaskFileFormat::Npy)
        return {labelsFromArray(readNpy(loc.file), loc.file), {}, {}};
    const H5Reader file(loc.file);
    LabelMap map{readLabels(file, loc.path), {}, {}};
    if (loc.path == clscope::paths::qmask) map.centers = readLabelCenters(file);
    map.geometry = readGeometry(file);
    return map;
}

void saveLabelMap(const std::string& fileName, const LabelMap& map) {
    if (maskFileFormat(fileName) == MaskFileFormat::Npy) {
        writeNpy(fileName, labelsArray(map.labels));
        return;
    }
    writeMaskFile(fileName, MaskFile{map.labels, map.centers, {}, map.geometry});
}

} // namespace clscope::mask
