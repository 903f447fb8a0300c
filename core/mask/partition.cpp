#include "core/mask/partition.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace clscope::mask {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Angle in degrees wrapped into (-180, 180].
double wrapPhi(double degrees) {
    double d = std::fmod(degrees, 360.0);
    if (d > 180.0) d -= 360.0;
    if (d <= -180.0) d += 360.0;
    return d;
}

// Finds the half-open bin [edges[k], edges[k+1]) holding a value; -1 outside.
class BinLocator {
  public:
    explicit BinLocator(const PartitionSpec& spec) : spec_(spec), edges_(binEdges(spec)) {}

    int operator()(double v) const {
        if (!(v >= edges_.front() && v < edges_.back())) return -1;
        const double fraction = spec_.spacing == BinSpacing::Linear
                                    ? (v - spec_.min) / (spec_.max - spec_.min)
                                    : std::log(v / spec_.min) / std::log(spec_.max / spec_.min);
        int k = std::clamp(static_cast<int>(std::floor(fraction * spec_.bins)), 0, spec_.bins - 1);
        // The first guess may be one off by rounding: the edges decide.
        while (k > 0 && v < edges_[k])
            --k;
        while (k + 1 < spec_.bins && v >= edges_[k + 1])
            ++k;
        return k;
    }

  private:
    PartitionSpec spec_;
    std::vector<double> edges_;
};

// Sector of an azimuth (degrees), 0..sectors-1.
int sectorOf(double phi, const PartitionSpec& spec) {
    if (spec.sectors == 1) return 0;
    double d = std::fmod(phi - spec.phi0, 360.0);
    if (d < 0) d += 360.0;
    return std::min(static_cast<int>(std::floor(d / (360.0 / spec.sectors))), spec.sectors - 1);
}

double sectorCenter(const PartitionSpec& spec, int sector) {
    if (spec.sectors == 1) return nan;
    return wrapPhi(spec.phi0 + (sector + 0.5) * 360.0 / spec.sectors);
}

// Radius of every pixel centre from the beam centre, in pixels.
std::vector<double> pixelRadii(const Geometry& g, const PixelQMap& qmap) {
    std::vector<double> r(qmap.height * qmap.width);
    for (std::size_t j = 0; j < qmap.height; ++j)
        for (std::size_t i = 0; i < qmap.width; ++i)
            r[j * qmap.width + i] = std::hypot(static_cast<double>(i) + 0.5 - g.beamCenterX,
                                               static_cast<double>(j) + 0.5 - g.beamCenterY);
    return r;
}

LabelCenters centersOf(const Geometry& g, const PartitionSpec& spec) {
    const std::vector<double> edges = binEdges(spec);
    LabelCenters c;
    for (int k = 0; k < spec.bins; ++k) {
        const double mid = spec.spacing == BinSpacing::Linear ? 0.5 * (edges[k] + edges[k + 1])
                                                              : std::sqrt(edges[k] * edges[k + 1]);
        for (int s = 0; s < spec.sectors; ++s) {
            const double phi = sectorCenter(spec, s);
            double q = mid;
            if (spec.axis == BinAxis::Radius) {
                // q where the sector's centre line crosses the middle radius.
                const double a = std::isnan(phi) ? 0.0 : phi * std::numbers::pi / 180.0;
                q = anglesAt(g, g.beamCenterX + mid * std::cos(a),
                             g.beamCenterY + mid * std::sin(a))
                        .q;
            }
            c.labelIds.push_back(k * spec.sectors + s + 1);
            c.q.push_back(q);
            c.phi.push_back(phi);
        }
    }
    return c;
}

} // namespace

PartitionSpec seedRings(double width, int maxLabel) {
    PartitionSpec spec;
    spec.axis = BinAxis::Radius;
    spec.min = width;
    spec.max = width * (maxLabel + 1);
    spec.bins = maxLabel;
    return spec;
}

void validate(const PartitionSpec& spec) {
    if (spec.bins < 1) throw UsageError("partition: bins must be at least 1");
    if (spec.sectors < 1) throw UsageError("partition: sectors must be at least 1");
    if (!std::isfinite(spec.min) || !std::isfinite(spec.max) || !(spec.max > spec.min))
        throw UsageError("partition: need finite min < max, found [" + std::to_string(spec.min) +
                         ", " + std::to_string(spec.max) + ")");
    if (spec.spacing == BinSpacing::Logarithmic && !(spec.min > 0))
        throw UsageError("partition: logarithmic bins need min > 0");
    if (!std::isfinite(spec.phi0)) throw UsageError("partition: phi0 must be finite");
    const long long labels = static_cast<long long>(spec.bins) * spec.sectors;
    if (labels > std::numeric_limits<std::int32_t>::max())
        throw UsageError("partition: bins x sectors does not fit int32 labels");
}

std::vector<double> binEdges(const PartitionSpec& spec) {
    validate(spec);
    std::vector<double> edges(spec.bins + 1);
    const double ratio = spec.max / spec.min;
    for (int k = 0; k <= spec.bins; ++k) {
        const double f = static_cast<double>(k) / spec.bins;
        edges[k] = spec.spacing == BinSpacing::Linear
                       ? spec.min + k * ((spec.max - spec.min) / spec.bins)
                       : spec.min * std::pow(ratio, f);
    }
    edges.back() = spec.max;
    return edges;
}

Partition makePartition(const Geometry& g, const PartitionSpec& spec, std::size_t height,
                        std::size_t width) {
    return makePartition(g, computeQMap(g, height, width), spec);
}

Partition makePartition(const Geometry& g, const PixelQMap& qmap, const PartitionSpec& spec) {
    validate(spec);
    const BinLocator locate(spec);
    if (qmap.q.size() != qmap.height * qmap.width || qmap.phi.size() != qmap.q.size())
        throw UsageError("partition: q map size does not match its height x width");
    std::vector<double> radii;
    if (spec.axis == BinAxis::Radius) radii = pixelRadii(g, qmap);
    const std::vector<double>& values = spec.axis == BinAxis::Radius ? radii : qmap.q;
    Partition p;
    p.labels = {qmap.height, qmap.width, std::vector<std::int32_t>(values.size(), 0)};
    for (std::size_t i = 0; i < values.size(); ++i) {
        const int k = locate(values[i]);
        if (k >= 0) p.labels.labels[i] = k * spec.sectors + sectorOf(qmap.phi[i], spec) + 1;
    }
    p.centers = centersOf(g, spec);
    return p;
}

LabelMask applyPixelMask(const LabelMask& labels, const PixelMask& pixelMask) {
    if (labels.height != pixelMask.height || labels.width != pixelMask.width)
        throw InputError("pixel mask shape (" + std::to_string(pixelMask.height) + ", " +
                         std::to_string(pixelMask.width) + ") does not match the labels' (" +
                         std::to_string(labels.height) + ", " + std::to_string(labels.width) + ")");
    LabelMask out = labels;
    for (std::size_t i = 0; i < out.labels.size(); ++i)
        if (pixelMask.bad[i]) out.labels[i] = 0;
    return out;
}

std::vector<LabelStats> labelStats(const LabelMask& labels, const PixelQMap* qmap) {
    if (qmap && (qmap->height != labels.height || qmap->width != labels.width))
        throw InputError("q map shape does not match the labels'");
    const std::vector<std::int32_t> ids = labels.bins();
    std::vector<LabelStats> stats(ids.size());
    std::vector<double> qSum(ids.size(), 0.0);
    for (std::size_t b = 0; b < ids.size(); ++b)
        stats[b] = {ids[b], 0, nan, std::numeric_limits<double>::infinity(),
                    -std::numeric_limits<double>::infinity()};
    for (std::size_t i = 0; i < labels.labels.size(); ++i) {
        if (labels.labels[i] <= 0) continue;
        const auto b = static_cast<std::size_t>(
            std::lower_bound(ids.begin(), ids.end(), labels.labels[i]) - ids.begin());
        ++stats[b].pixels;
        if (!qmap) continue;
        qSum[b] += qmap->q[i];
        stats[b].qMin = std::min(stats[b].qMin, qmap->q[i]);
        stats[b].qMax = std::max(stats[b].qMax, qmap->q[i]);
    }
    for (std::size_t b = 0; b < ids.size(); ++b) {
        if (qmap)
            stats[b].qMean = qSum[b] / static_cast<double>(stats[b].pixels);
        else
            stats[b].qMin = stats[b].qMax = nan;
    }
    return stats;
}

} // namespace clscope::mask
