// The sources of a run over the open file's frame stack, as a panel's command line names them:
// the Data panel's frames role, its pixel mask role when assigned (else none read), the frame
// range. Panels whose algorithm reads a stack and a pixel mask share it (Spots, Azint).
#pragma once
#include "gpu/algorithm.hpp"

#include <string>

namespace clscope::ui {

class Workbench;

// InputError "WHO: open an HDF5 file first" / "WHO: assign a frame stack ..." without them.
InputSources openFileFrameSources(Workbench& wb, const FrameRange& range, const std::string& who);

} // namespace clscope::ui
