// The input and result types of xpcs::Algorithm (algorithm.cpp, split.cpp, passes.cpp).
#pragma once
#include "core/xpcs/fit_bins.hpp"
#include "core/xpcs/multitau.hpp"
#include "core/xpcs/result_sums.hpp"
#include "core/xpcs/xpcs.hpp"
#include "gpu/algorithm.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace clscope::xpcs {

struct MultitauBand; // gpu/xpcs/multitau_merge.hpp

// Frames and q-bin labels (pixels flagged by the pixel mask already set to 0).
struct XpcsInput : AlgorithmInput {
    std::shared_ptr<const Array> frames; // null when read block by block (blocks)
    // Frames streamed from a file: a multi-tau run's, sparse-cpu's dense lags on entries
    std::shared_ptr<const FrameBlocks> blocks;
    LabelMask labels;
    std::optional<double> frameTime;         // the file's, when it has one
    std::size_t excludedPixels = 0;          // labelled pixels the pixel mask removed
    std::uint64_t largest = 0;               // largest |value| of integer frames (makeInput)
    std::int64_t mostPixels = 0;             // pixels of the largest bin (makeInput)
    std::map<std::int32_t, double> qByLabel; // 1/Å, from qmask_q + qmask_label_ids
    // Where frameTime and qByLabel came from: "1 ms (file)" (units::ResolvedValue::origin,
    // the stored value and its unit), empty when absent.
    std::string frameTimeOrigin, qOrigin;
    // Multi-tau split by pixels (split_pixels.cpp): the rows of every frame this part's device
    // receives and the merge of the parts' sums; null for a run on one device.
    std::shared_ptr<const MultitauBand> band;
    std::string describe() const override;
};

struct XpcsResult : AlgorithmResult {
    Result result;
    std::size_t excludedPixels = 0;          // labelled pixels the pixel mask removed (input's)
    std::optional<BinFits> fits;             // with --fit
    std::optional<FitOptions> fitOptions;    // with --fit (join() refits the joined bins)
    std::map<std::int32_t, double> qByLabel; // the input's: q of each bin, for views and refits
    std::shared_ptr<const ResultSums> sums;  // /xpcs/sums/*: null for a stream's run
    void write(H5Writer& out, const std::string& group) const override;
    std::string summary() const override;
};

} // namespace clscope::xpcs
