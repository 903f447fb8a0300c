// The per-geometry part of an OpenCL azint run (the bins and the device tables: set-up that
// costs hundreds of ms for a 16M detector, against well under a ms a frame of kernels), kept
// for the next run of the same geometry, as pyFAI's integrator keeps its engine: one per device
// and method, replaced when a run differs in the geometry, the parameters, the detector shape or
// either mask (compared exactly: the masks are copied into the key). What is kept stays on the
// device for the process's life: for a 16M detector 64 MiB of bins (histogram) or 64 MiB of CSR
// pixels (+ 64 MiB of entry bins for sorted), or 32 MiB of 16-bit offsets (tiled; its sorted
// form: 32 MiB of 16-bit order and 12 bytes a segment), + 128 MiB of normalisations under
// corrections; histogram and tiled each bin's pixel count too (4 bytes a bin).
#pragma once
#include "core/azint/azint.hpp"
#include "core/azint/binning.hpp"
#include "gpu/azint/device_tables.hpp"

#include <functional>
#include <memory>
#include <string>

namespace clscope::azint {

// Everything the bins and the tables depend on (not the frames' values or type); the masks are
// the run's, copied only when a preparation is kept.
struct GeometryKey {
    std::string device; // DeviceInfo::spec and key(): one card
    Method method = Method::Csr;
    Geometry geometry;
    Params params;
    std::size_t height = 0, width = 0;
    const PixelMask* mask = nullptr;
    const PixelMask* pixelMask = nullptr;
    TileShape tiles; // tiled's tables' layout ({} for the other methods)
};

struct PreparedGeometry {
    Binning binning;
    std::shared_ptr<DeviceTables> tables;
};

// The kept preparation when its key equals `key`, else make() (and kept in its place).
std::shared_ptr<const PreparedGeometry>
preparedGeometry(const GeometryKey& key, const std::function<PreparedGeometry()>& make);

} // namespace clscope::azint
