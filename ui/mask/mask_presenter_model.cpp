// MaskEditorPresenter: geometry and q map, partitions, the label table, the cursor readout and
// the mask and label files.
#include "ui/mask/mask_presenter.hpp"

#include "core/errors.hpp"
#include "core/mask/mask_io.hpp"
#include "ui/base/q_unit.hpp"
#include "ui/mask/q_bin_labels.hpp"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace clscope::ui {

// "  d 78.3 Å": the Bragg spacing in the cursor readout, as diffraction viewers show it.
static QString dSpacingText(double q) {
    const double d = mask::dSpacingAngstrom(q);
    return std::isfinite(d) ? QString("  d %1 Å").arg(d, 0, 'g', 4) : QString("  d ∞");
}

void MaskEditorPresenter::setGeometry(const mask::Geometry& geometry, const QString& source) {
    mask::validate(geometry);
    geometry_ = geometry;
    geometrySource_ = source;
    if (hasImage()) qmap_ = mask::computeQMap(geometry_, height_, width_);
    emit geometryChanged();
    if (!spec_ || !hasImage()) return;
    mask::PartitionSpec spec = *spec_;
    if (spec.axis == mask::BinAxis::Q)
        std::tie(spec.min, spec.max) = fittingRange(spec.axis, spec.spacing);
    applyPartition(spec);
}

void MaskEditorPresenter::resetGeometry() {
    mask::Geometry g;
    g.beamCenterX = static_cast<double>(width_) / 2;
    g.beamCenterY = static_cast<double>(height_) / 2;
    setGeometry(g, "default");
}

std::pair<double, double> MaskEditorPresenter::fittingRange(mask::BinAxis axis,
                                                            mask::BinSpacing spacing) const {
    const mask::Geometry& g = geometry_;
    const bool q = axis == mask::BinAxis::Q;
    // Just above the largest q (or radius) on the unmasked pixels (bins exclude their upper
    // edge): no bin of the default lies off the detector.
    double high = 0.0;
    for (std::size_t i = 0; i < qmap_.q.size(); ++i) {
        if (i < effective_.bad.size() && effective_.bad[i]) continue;
        const double x = static_cast<double>(i % width_) + 0.5 - g.beamCenterX;
        const double y = static_cast<double>(i / width_) + 0.5 - g.beamCenterY;
        high = std::max(high, q ? qmap_.q[i] : std::hypot(x, y));
    }
    const double low = spacing != mask::BinSpacing::Logarithmic ? 0.0
                       : q ? mask::anglesAt(g, g.beamCenterX + 2.0, g.beamCenterY).q
                           : 2.0;
    if (high <= low) return {low, 2.0 * low + 1.0}; // everything masked: any valid range
    return {low, std::nextafter(high, std::numeric_limits<double>::infinity())};
}

void MaskEditorPresenter::importPoni(const QString& fileName) {
    const mask::PoniFile poni = mask::readPoni(fileName.toStdString());
    setGeometry(poni.geometry, "PONI " + QFileInfo(fileName).fileName());
}

void MaskEditorPresenter::exportPoni(const QString& fileName) const {
    mask::PoniFile poni;
    poni.geometry = geometry_;
    poni.height = height_;
    poni.width = width_;
    mask::writePoni(fileName.toStdString(), poni);
}

void MaskEditorPresenter::applyPartition(const mask::PartitionSpec& spec) {
    mask::validate(spec);
    if (!hasImage()) throw UsageError("open an image before making a partition");
    partition_ = mask::makePartition(geometry_, qmap_, spec);
    spec_ = spec;
    emit partitionChanged();
    refreshLabels();
}

// Labels from a file; without a label table, q centres are the mean pixel q of each label.
void MaskEditorPresenter::setLabels(const LabelMask& labels,
                                    std::optional<mask::LabelCenters> centres) {
    checkShape(labels.height, labels.width, "label map");
    mask::Partition partition{labels, {}};
    if (centres) {
        partition.centers = std::move(*centres);
    } else {
        for (const mask::LabelStats& s : mask::labelStats(labels, &qmap_)) {
            partition.centers.labelIds.push_back(s.label);
            partition.centers.q.push_back(s.qMean);
            partition.centers.phi.push_back(std::nan(""));
        }
    }
    partition_ = std::move(partition);
    spec_.reset();
    emit partitionChanged();
    refreshLabels();
}

std::vector<LabelRow> MaskEditorPresenter::labelRows() const {
    std::vector<LabelRow> rows;
    if (!partition_) return rows;
    std::map<std::int32_t, std::int64_t> counts;
    for (const mask::LabelStats& s : mask::labelStats(combined_, nullptr))
        counts[s.label] = s.pixels;
    const mask::LabelCenters& c = partition_->centers;
    for (std::size_t k = 0; k < c.labelIds.size(); ++k) {
        const auto found = counts.find(c.labelIds[k]);
        rows.push_back(
            {c.labelIds[k], found == counts.end() ? 0 : found->second, c.q[k], c.phi[k]});
    }
    return rows;
}

QString MaskEditorPresenter::pixelReadout(std::size_t x, std::size_t y) const {
    if (x >= width_ || y >= height_ || qmap_.q.empty()) return {};
    if (geometrySource_ == "default") // never the hidden 1 m / 1 Å of the default
        return "q, d: no geometry (set it in the Mask panel or import a PONI file)";
    const std::size_t i = y * width_ + x;
    return QString("q %1  φ %2°").arg(qText(qmap_.q[i])).arg(qmap_.phi[i], 0, 'f', 1) +
           dSpacingText(qmap_.q[i]);
}

QString MaskEditorPresenter::labelText(std::int32_t label) const {
    return labelCentreText(label, partition_ ? &partition_->centers : nullptr);
}

void MaskEditorPresenter::saveMask(const QString& fileName) const {
    if (!hasImage()) throw UsageError("there is no mask to save: open an image first");
    mask::savePixelMask(fileName.toStdString(), effective_);
}

void MaskEditorPresenter::loadMask(const QString& spec) {
    const PixelMask loaded = mask::loadPixelMask(spec.toStdString());
    replaceMask(loaded, "load mask " + QFileInfo(spec.section(':', 0, 0)).fileName());
}

// HDF5 keeps everything (labels, label table, pixel mask, geometry); NPY only the labels.
void MaskEditorPresenter::saveLabels(const QString& fileName) const {
    if (!partition_) throw UsageError("there are no labels to save: apply a partition first");
    const std::string name = fileName.toStdString();
    if (mask::maskFileFormat(name) == mask::MaskFileFormat::Npy) {
        mask::saveLabelMap(name, {combined_, partition_->centers, geometry_});
        return;
    }
    mask::MaskFile file;
    file.labels = combined_;
    file.centers = partition_->centers;
    file.pixelMask = effective_;
    file.geometry = geometry_;
    mask::writeMaskFile(name, file);
}

void MaskEditorPresenter::loadLabels(const QString& spec) {
    mask::LabelMap map = mask::loadLabelMap(spec.toStdString());
    checkShape(map.labels.height, map.labels.width, "label map");
    if (map.geometry) {
        spec_.reset(); // the loaded labels stay as they are
        setGeometry(*map.geometry, "file " + QFileInfo(spec.section(':', 0, 0)).fileName());
    }
    setLabels(map.labels, std::move(map.centers));
}

} // namespace clscope::ui
