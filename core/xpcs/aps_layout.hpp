// correlate --layout aps: the result file of APS 8-ID-I as boost_corr writes it and
// pyXpcsViewer / XPCS-Toolkit read it (their key maps: docs/INTERCHANGE.md lists every path,
// shape, dtype and unit written). Bins are numbered 1..B in the q map; one static bin per
// dynamic bin; delays from 1 frame (lag 0 is not written).
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/layout_run.hpp"

namespace clscope::xpcs {

void writeApsLayout(H5Writer& out, const LayoutRun& run);

} // namespace clscope::xpcs
