// q-bin partitions: rings in q (nm^-1) or in radius (pixels), linear or logarithmic,
// optionally split into azimuthal sectors, with the q and phi centre of every label.
#pragma once
#include "core/data.hpp"
#include "core/mask/geometry.hpp"

#include <cstdint>
#include <vector>

namespace clscope::mask {

enum class BinAxis { Q, Radius }; // q in nm^-1, or radius from the beam centre in pixels
enum class BinSpacing { Linear, Logarithmic };

// Bins are half-open, [edge_k, edge_k+1); values outside [min, max) get label 0.
// Label of ring k (0-based) and sector s (0-based) is k * sectors + s + 1.
// Sector s covers phi in [phi0 + s*360/sectors, phi0 + (s+1)*360/sectors), modulo 360.
struct PartitionSpec {
    BinAxis axis = BinAxis::Q;
    BinSpacing spacing = BinSpacing::Linear;
    double min = 0.0, max = 0.0; // Logarithmic needs min > 0
    int bins = 10;
    int sectors = 1;
    double phi0 = 0.0; // degrees
};

// The seed's rings, labels floor(r / width) (0 for r < width), up to maxLabel.
PartitionSpec seedRings(double width, int maxLabel);

// Throws UsageError on bins < 1, sectors < 1, max <= min or log bins with min <= 0.
void validate(const PartitionSpec& spec);

// Bin edges along the axis (bins + 1 values).
std::vector<double> binEdges(const PartitionSpec& spec);

// Label table kept beside the labels: nominal centre of each label. q centre: middle of the
// bin (linear) or geometric mean of its edges (log); for radius bins, the q at that radius in
// the direction of the sector's centre. phi centre: middle of the sector, NaN for full rings.
struct LabelCenters {
    std::vector<std::int32_t> labelIds; // 1..bins*sectors
    std::vector<double> q;              // nm^-1
    std::vector<double> phi;            // degrees
};

// A partition of one image: labels (H,W) plus its label table.
struct Partition {
    LabelMask labels;
    LabelCenters centers;
};

Partition makePartition(const Geometry& g, const PartitionSpec& spec, std::size_t height,
                        std::size_t width);
// The same from a q map that was already computed (radius bins still need g's centre).
Partition makePartition(const Geometry& g, const PixelQMap& qmap, const PartitionSpec& spec);

// Combined labels: pixels that the pixel mask marks (non-zero) get label 0.
// Throws InputError when the shapes differ.
LabelMask applyPixelMask(const LabelMask& labels, const PixelMask& pixelMask);

// Per-label statistics of a label map (labels > 0 in ascending order), for tables.
struct LabelStats {
    std::int32_t label = 0;
    std::int64_t pixels = 0;
    double qMean = 0.0; // mean pixel q (nm^-1), NaN without a q map
    double qMin = 0.0, qMax = 0.0;
};
// qmap may be null; otherwise its shape must match the labels.
std::vector<LabelStats> labelStats(const LabelMask& labels, const PixelQMap* qmap);

} // namespace clscope::mask
