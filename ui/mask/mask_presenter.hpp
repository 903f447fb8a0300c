// The q-bin mask editor's state and actions, without widgets (Mantid-style presenter, driven by
// tests directly): detector geometry and its q map, the partition into q (or radius) × phi
// bins, the bad-pixel mask with its QUndoStack, shapes kept as editable vectors until they are
// rasterised (BornAgain), and the combined labels = partition × not masked.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/mask/edits.hpp"
#include "core/mask/geometry.hpp"
#include "core/mask/partition.hpp"

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <optional>
#include <vector>

namespace clscope::ui {

// One row of the label table.
struct LabelRow {
    std::int32_t label = 0;
    std::int64_t pixels = 0; // in the combined labels (masked pixels left out)
    double q = 0.0;          // q centre, nm^-1
    double phi = 0.0;        // phi centre, degrees; NaN for full rings
};

class MaskEditorPresenter : public QObject {
    Q_OBJECT
  public:
    explicit MaskEditorPresenter(QObject* parent = nullptr);
    ~MaskEditorPresenter() override;

    // A new image size resets the mask, shapes, partition and undo history; a default
    // geometry is centred on the image. The same size keeps everything.
    void setImageSize(std::size_t height, std::size_t width);
    bool hasImage() const { return height_ * width_ > 0; }
    std::size_t height() const { return height_; }
    std::size_t width() const { return width_; }

    // Geometry (validated) and where it came from ("default", "file", "PONI x.poni", "edited").
    // A partition made from a spec is made again for the new geometry; on the q axis its range
    // follows the geometry (fittingRange), since the old q values mean other pixels now.
    void setGeometry(const mask::Geometry& geometry, const QString& source = "edited");
    const mask::Geometry& geometry() const { return geometry_; }
    // Back to no geometry ("default": the placeholder centred on the image, which readouts do
    // not use): a new file without one does not keep the previous file's.
    void resetGeometry();
    const QString& geometrySource() const { return geometrySource_; }
    const mask::PixelQMap& qMap() const { return qmap_; }
    // Default range for this axis and spacing: from 0 (log: 2 px) to the largest value on the
    // unmasked pixels, in nm^-1 on the q axis, in px on the radius axis.
    std::pair<double, double> fittingRange(mask::BinAxis axis, mask::BinSpacing spacing) const;
    void importPoni(const QString& fileName);
    void exportPoni(const QString& fileName) const;

    // Partition: from a spec, or labels loaded from a file (kept as they are).
    void applyPartition(const mask::PartitionSpec& spec);
    void setLabels(const LabelMask& labels, std::optional<mask::LabelCenters> centres);
    bool hasPartition() const { return partition_.has_value(); }
    const std::optional<mask::Partition>& partition() const { return partition_; }
    const std::optional<mask::PartitionSpec>& partitionSpec() const { return spec_; }
    // Partition labels with masked pixels set to 0 (empty without a partition).
    const LabelMask& combinedLabels() const { return combined_; }
    std::vector<LabelRow> labelRows() const;

    // The mask: painted pixels, and with the pending shapes rasterised on top (the one in force).
    const PixelMask& paintedMask() const { return painted_; }
    const PixelMask& mask() const { return effective_; }
    std::size_t maskedCount() const;
    void setEditMode(mask::EditMode mode) { mode_ = mode; }
    mask::EditMode editMode() const { return mode_; }
    // The mask read with the file (NXmx pixel_mask): a new start, no undo step.
    void setBaseMask(const PixelMask& mask);

    // Edits; each is one undo step in the current mode (none when nothing changes).
    void addShape(const mask::MaskShape& shape);
    void removeShape(std::size_t index);
    void setShapeMode(std::size_t index, mask::EditMode mode);
    const std::vector<mask::ShapeEdit>& shapes() const { return shapes_; }
    void rasterizeShapes();
    void beginStroke(double radius);
    void addDab(mask::Point point);
    void endStroke();
    bool strokeActive() const { return strokeActive_; }
    void brushStroke(double radius, const std::vector<mask::Point>& dabs);
    void threshold(const Array& image, const mask::Threshold& threshold);
    void invert();
    void clear();
    void replaceMask(const PixelMask& mask, const QString& what = "load mask");
    QUndoStack* undoStack() { return &undo_; }

    // Files (.h5 or .npy); errors are thrown (InputError, UsageError) with the file named.
    void saveMask(const QString& fileName) const;
    void loadMask(const QString& spec);
    void saveLabels(const QString& fileName) const;
    void loadLabels(const QString& spec);

    // Readout: "q 0.01234 Å⁻¹  φ 45.0°" for pixel (x, y); "q bin 7: q̄ 0.01200 Å⁻¹, φ̄ 45°"
    // (q computed in nm⁻¹, shown in the one unit of the screen: ui/base/q_unit.hpp).
    QString pixelReadout(std::size_t x, std::size_t y) const;
    QString labelText(std::int32_t label) const;

    // Called by the undo commands: apply (redo) or take back (undo) a diff and set the shapes.
    void applyDiff(const mask::MaskDiff& diff, bool undo,
                   const std::vector<mask::ShapeEdit>* shapes);

  signals:
    void geometryChanged();
    void partitionChanged();
    void shapesChanged();
    void maskChanged();   // the mask in force (also during a brush stroke)
    void labelsChanged(); // the combined labels (after a stroke, not during it)

  private:
    void pushEdit(const QString& text, mask::MaskDiff diff,
                  const std::vector<mask::ShapeEdit>* shapesAfter);
    mask::MaskDiff burnShapes();
    void refreshMask();
    void refreshLabels();
    void checkShape(std::size_t height, std::size_t width, const QString& what) const;

    std::size_t height_ = 0, width_ = 0;
    mask::Geometry geometry_;
    QString geometrySource_ = "default";
    mask::PixelQMap qmap_;
    std::optional<mask::PartitionSpec> spec_;
    std::optional<mask::Partition> partition_;
    LabelMask combined_;
    PixelMask painted_, effective_;
    std::vector<mask::ShapeEdit> shapes_;
    mask::EditMode mode_ = mask::EditMode::Mask;
    bool strokeActive_ = false;
    double strokeRadius_ = 1.0;
    std::optional<mask::Point> lastDab_;
    mask::MaskDiff strokeDiff_;
    QUndoStack undo_;
};

} // namespace clscope::ui
