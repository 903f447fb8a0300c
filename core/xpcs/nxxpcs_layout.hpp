// correlate --layout nxxpcs: the NeXus NXxpcs application definition (contributed
// definitions): /entry with definition, entry_identifier, start_time; /entry/data g2, g2_derr,
// G2_unnormalized (delays × rois) and delay_difference (frames); /entry/twotime when two-time
// maps were asked; the instrument (beam energy, detector times and geometry, the roi maps and
// q lists under masks) and the process. `units` on every physical field
// (docs/INTERCHANGE.md).
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/layout_run.hpp"

namespace clscope::xpcs {

void writeNxXpcsLayout(H5Writer& out, const LayoutRun& run);

} // namespace clscope::xpcs
