// Labels drawn or loaded in the mask editor, saved where a command line can name them: a run on
// them reads this file (as clscope-cli does with the command line's --mask FILE:PATH), so the GUI's
// result and the CLI's come from the same labels and q table (issue 38 item 4). No other machine
// has the file: an HDF5 export carries it (ui/results/local_inputs.hpp).
#pragma once
#include "core/data.hpp"
#include "core/mask/partition.hpp"

#include <QString>
#include <optional>

namespace clscope::ui {

// Writes the labels and their q/φ table (when known) to labels/labels-HASH.h5 in the
// application's local data folder (HASH: the first 16 hex digits of their SHA-256, so the same
// labels are one file, written once) at /entry/processing/qmask (mask_io.hpp layout) and returns
// "FILE:/entry/processing/qmask".
// Throws InputError when the file cannot be written.
QString savedLabelsLocation(const LabelMask& labels,
                            const std::optional<mask::LabelCenters>& centres);

} // namespace clscope::ui
