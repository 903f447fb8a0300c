#include "ui/kit/frame_sources.hpp"

#include "core/errors.hpp"
#include "ui/kit/workbench.hpp"

namespace clscope::ui {

InputSources openFileFrameSources(Workbench& wb, const FrameRange& range, const std::string& who) {
    const DatasetRoles& roles = wb.dataset();
    if (!roles.file()) throw InputError(who + ": open an HDF5 file first");
    const auto framesPath = roles.path(DataRole::Frames);
    if (!framesPath) throw InputError(who + ": assign a frame stack in the Data panel first");
    InputSources s;
    s.file = roles.file()->fileName();
    s.overrides["frames"] = *framesPath;
    s.frames = range;
    if (const auto mask = roles.path(DataRole::PixelMask))
        s.overrides["pixel_mask"] = s.file + ":" + *mask; // a role of FILE[:PATH]
    else
        s.disabled.insert("pixel_mask");
    return s;
}

} // namespace clscope::ui
