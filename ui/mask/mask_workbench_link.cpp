#include "ui/mask/mask_workbench_link.hpp"

#include <QUndoStack>

#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "ui/image/image_view.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/mask_presenter.hpp"
#include "ui/mask/q_bin_labels.hpp"

namespace clscope::ui {

MaskWorkbenchLink::MaskWorkbenchLink(Workbench& workbench, MaskEditorPresenter& editor,
                                     QObject* parent)
    : QObject(parent), wb_(workbench), editor_(editor) {
    connect(&wb_, &Workbench::fileOpened, this, &MaskWorkbenchLink::onFileOpened);
    connect(&wb_, &Workbench::roleChanged, this, &MaskWorkbenchLink::onRoleChanged);
    connect(&editor_, &MaskEditorPresenter::maskChanged, this, &MaskWorkbenchLink::showMask);
    connect(&editor_, &MaskEditorPresenter::labelsChanged, this, &MaskWorkbenchLink::publishLabels);
    // The geometry is known once it is more than the editor's default.
    connect(&editor_, &MaskEditorPresenter::geometryChanged, this, [this] {
        wb_.setGeometry(editor_.geometrySource() == "default" ? std::nullopt
                                                              : std::optional(editor_.geometry()));
    });
    wb_.image().setReadoutExtra(
        [this](std::size_t x, std::size_t y) { return editor_.pixelReadout(x, y); });
}

// The editor follows the size of the image shown.
void MaskWorkbenchLink::syncImageSize() {
    const FrameSource* source = wb_.image().presenter().source();
    if (source) editor_.setImageSize(source->height(), source->width());
}

// A new file of the same size keeps what was drawn (a partition, shapes, edits with undo steps;
// not the pixel mask a file brought): said in the Log and status bar, not silent.
void MaskWorkbenchLink::onFileOpened() {
    const bool drawn = editor_.hasImage() && (editor_.hasPartition() || !editor_.shapes().empty() ||
                                              editor_.undoStack()->count() > 0);
    const std::pair<std::size_t, std::size_t> before{editor_.height(), editor_.width()};
    syncImageSize();
    if (drawn && before == std::pair{editor_.height(), editor_.width()})
        wb_.log(LogLevel::Warning,
                QString("mask editor: the mask and partition drawn before are kept for %1 (same "
                        "%2×%3 size); Clear them in the Mask dock to start afresh")
                    .arg(QString::fromStdString(wb_.dataset().fileName()))
                    .arg(before.first)
                    .arg(before.second));
    fileHasGeometry_ = false;
    try {
        if (wb_.dataset().file()) fileHasGeometry_ = useFileGeometry();
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Warning, QString("geometry of the file not used: %1").arg(e.what()));
    }
    if (!fileHasGeometry_ && editor_.geometrySource() != "default") {
        wb_.log(LogLevel::Info, QString("mask editor: geometry (%1) dropped: %2 has none")
                                    .arg(editor_.geometrySource(),
                                         QString::fromStdString(wb_.dataset().fileName())));
        editor_.resetGeometry();
    }
    emit fileGeometryAvailable(fileHasGeometry_);
}

bool MaskWorkbenchLink::useFileGeometry() {
    const auto file = wb_.dataset().file();
    if (!file) return false;
    const std::optional<mask::Geometry> geometry = mask::readGeometry(*file);
    if (!geometry) return false;
    editor_.setGeometry(*geometry, "file");
    return true;
}

// Frames: new size, the overlay again (a new frame source drops overlays); pixel mask: the
// editor starts from it; labels: the file's overlay is replaced by the editor's.
void MaskWorkbenchLink::onRoleChanged(DataRole role) {
    try {
        syncImageSize();
        const auto path = wb_.dataset().path(role);
        if (role == DataRole::PixelMask && path && editor_.hasImage()) {
            const PixelMask fileMask = readPixelMask(*wb_.dataset().file(), *path);
            if (fileMask.height == editor_.height() && fileMask.width == editor_.width()) {
                editor_.setBaseMask(fileMask);
                wb_.log(
                    LogLevel::Info,
                    QString("mask editor: pixel mask from %1").arg(QString::fromStdString(*path)));
            }
        }
        if (role == DataRole::Frames || role == DataRole::Labels) {
            showMask();
        }
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("mask editor: %1").arg(e.what()));
    }
}

void MaskWorkbenchLink::showMask() {
    if (!editor_.hasImage() || !wb_.image().presenter().hasImage()) return;
    wb_.image().setPixelMask(editor_.mask().bad);
}

// The combined labels become the current labels (a null mask hands back to the file's).
void MaskWorkbenchLink::publishLabels() {
    if (!editor_.hasPartition()) {
        if (published_) QBinLabels::of(wb_).setEdited({});
        published_ = false;
        return;
    }
    CurrentLabels labels{std::make_shared<const LabelMask>(editor_.combinedLabels()),
                         editor_.partition()->centers, "mask editor"};
    QBinLabels::of(wb_).setEdited(std::move(labels));
    published_ = true;
}

Array shownImage(ImageView& view) {
    if (!view.presenter().hasImage()) return {};
    const Image& image = view.presenter().reducedImage();
    return makeArray<double>({image.height, image.width}, image.values);
}

} // namespace clscope::ui
