// xpcs results in the layouts of the facility's tools read back (File ▸ Open, Algorithm::
// readResult): APS 8-ID-I's (boost_corr's, read by pyXpcsViewer and XPCS-Toolkit:
// /xpcs/multitau/normalized_g2 (L,B), normalized_g2_err, delay_list (frames),
// /entry/instrument/detector_1/frame_time × config stride_frame × avg_frame, q of column j from
// /xpcs/qmap: dynamic_v_list_dim0[dynamic_index_mapping[j] / |dynamic_v_list_dim1|]) and NeXus
// NXxpcs (/entry/data/g2 (L,B), g2_derr, delay_difference, /entry/instrument/masks/roi_labels
// and dynamic_q_list) — those clscope writes with --layout aps|nxxpcs and those of other writers
// (q columns in either orientation, scalars as () or (1,1), delays as (L), (1,L) or (L,1)).
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/xpcs.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace clscope::xpcs {

// "aps" or "nxxpcs" when `file` holds an xpcs result in that layout, else "".
std::string foreignLayoutIn(const H5Reader& file);

struct ForeignResult {
    Result result; // multi-tau lags (the layouts' delays), labels 1..B unless the file names them
    std::map<std::int32_t, double> qByLabel; // 1/Å, where the file gives q
};

// The result in that layout; InputError naming the file, the dataset and what was expected.
ForeignResult readForeignResult(const H5Reader& file, const std::string& layout);

} // namespace clscope::xpcs
