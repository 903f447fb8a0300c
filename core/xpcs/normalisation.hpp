// g2 normalisation (parameter g2_normalisation, DESIGN.md §5). Every variant computes the
// frame-by-frame g2; `symmetric` (boost_corr's, APS 8-ID-I's) is derived from it on the host
// with the bins' frame sums: per bin and lag m at level k,
//   g2_sym = n (T_k − m) Σ N_t / (Σ S_t Σ S'_t) = g2_frame (T_k − m) Σ S_t S'_t / (Σ S_t Σ S'_t),
// so the symmetric g2 is the same for every variant. Its g2_err (boost_corr's, from per-pixel
// sums) comes from pixel_errors.hpp where the variant is cpu; other variants scale the frame
// definition's g2_err as g2 was scaled (Result::errFromPixels false).
#pragma once
#include "core/params.hpp"
#include "core/xpcs/lag_sums.hpp"

#include <string>
#include <vector>

namespace clscope::xpcs {

// "frame" or "symmetric"; UsageError naming the text otherwise.
Normalisation normalisationNamed(const std::string& name);
std::string normalisationName(Normalisation n);
// The g2_normalisation parameter (CLI --g2-normalisation, the GUI's XPCS form).
ParamSpec normalisationParamSpec();

// g2 (and g2_err) of a frame-normalised result made symmetric; NaN where Σ S_t Σ S'_t = 0.
void makeSymmetric(Result& result, const std::vector<LagSums>& sums);
// The unnormalised G2 = Σ N_t / (n (T_k − m)) (the mean pixel product of a pair) of each bin
// and lag (B*L), from the result's g2 in whichever normalisation it holds.
std::vector<double> unnormalisedG2(const Result& result, const std::vector<LagSums>& sums);

// A run's normalisation: nothing for frame; for symmetric, g2 converted with the run's lag sums
// (lagSums of its frame sums), and g2_err from the per-pixel sums when pixelErrors (a pass over
// the frames; the cpu variant).
void applyNormalisation(Result& result, const std::vector<LagSums>& sums, const FrameBlocks& frames,
                        const LabelMask& labels, Normalisation normalisation, bool pixelErrors);

} // namespace clscope::xpcs
