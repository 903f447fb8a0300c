// The correlator's sums that every correlate result keeps beside g2 (/xpcs/sums/*, DESIGN.md §5
// "Averaging"): per bin and lag, over the T_k − m frame pairs (t, t − m), the pairs, Σ N_t,
// Σ S_t, Σ S'_t = Σ S_{t−m} and Σ S_t S'_t, from which both g2 normalisations follow
//   frame:     g2 = n Σ N / Σ S S'        symmetric: g2 = n (T_k − m) Σ N / (Σ S Σ S'),
// and the bins' intensity against time (S_t / n per frame). Sums of several runs added (with
// weights) give the g2 of all their pairs together: `average` (core/xpcs/average.hpp).
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/lag_sums.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace clscope::xpcs {

class ResultSums {
  public:
    std::size_t lags = 0;          // L: the result's lags
    std::vector<LagSums> pairSums; // B*L row-major (bin, lag): pairs, Σ S, Σ S', Σ S S'
    std::vector<double> numerator; // B*L: Σ_t N_t (0 where Σ S S' = 0)
    std::size_t frames = 0;        // T: the frames of the run
    std::vector<double> intensity; // B*T row-major (bin, frame): S_t / n, counts per pixel

    std::size_t binCount() const { return lags == 0 ? 0 : numerator.size() / lags; }
    // Bin `bin` of `from` (same lags and frames) appended as the next bin here.
    void appendBin(const ResultSums& from, std::size_t bin);
};

// The sums of a result from its run's frame sums and lag sums (lagSums(frameSums, result)); Σ N
// from the result's g2 in whichever normalisation it holds (unnormalisedG2).
ResultSums resultSums(const FrameSums& frameSums, const std::vector<LagSums>& lagSums,
                      const Result& result);

// g2 of one bin and lag from its sums in a normalisation; NaN where the denominator is 0.
double g2FromSums(const LagSums& sums, double numerator, double pixels, Normalisation n);

// /xpcs/sums/pairs, sum_N, sum_S, sum_S_prime, sum_S_S_prime (B,L) float64 and
// /xpcs/intensity_vs_time (B,T) float64 under `group`.
void writeResultSums(H5Writer& out, const ResultSums& sums, const std::string& group);
// What writeResultSums wrote for a result of `bins` bins and `lags` lags; InputError naming the
// dataset when one is missing or of another shape.
ResultSums readResultSums(const H5Reader& file, const std::string& group, std::size_t bins,
                          std::size_t lags);

} // namespace clscope::xpcs
