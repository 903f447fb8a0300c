// What ties the mask editor to the workbench: the open file's image size, geometry
// (/entry/processing/geometry) and NXmx pixel mask go into the editor; the editor's mask is
// shown as masked pixels, its combined labels as the "q bins" overlay with contours and become
// the workbench's current labels (QBinLabels::setEdited); the cursor readout gains q, φ.
#pragma once
#include "core/array.hpp"
#include "ui/data/dataset_roles.hpp"

#include <QObject>

namespace clscope::ui {

class ImageView;
class MaskEditorPresenter;
class Workbench;

class MaskWorkbenchLink : public QObject {
    Q_OBJECT
  public:
    MaskWorkbenchLink(Workbench& workbench, MaskEditorPresenter& editor, QObject* parent = nullptr);
    // Whether the open file holds a geometry (the panel's "From file" button).
    bool fileHasGeometry() const { return fileHasGeometry_; }
    // Use the open file's geometry again; false when it has none.
    bool useFileGeometry();

  signals:
    void fileGeometryAvailable(bool available);

  private:
    void syncImageSize();
    void onFileOpened();
    void onRoleChanged(DataRole role);
    void showMask();
    void publishLabels();
    Workbench& wb_;
    MaskEditorPresenter& editor_;
    bool fileHasGeometry_ = false;
    bool published_ = false;
};

// The image the view shows (reduced frames, before masking) as a (H,W) float64 array, for
// the threshold tool; empty (rank 0) without an image.
Array shownImage(ImageView& view);

} // namespace clscope::ui
