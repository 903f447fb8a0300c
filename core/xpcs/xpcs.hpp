// xpcs: dense multi-tau-free intensity autocorrelation g2(q, tau) of a frame stack, per q bin
// (DESIGN.md §5). Parameters, results and the CPU reference (variant `cpu`).
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/progress.hpp"
#include "core/timing.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clscope::xpcs {

// How g2 is normalised (parameter g2_normalisation, DESIGN.md §5): `frame` frame by frame (the
// definition above), `symmetric` by the time-averaged intensities of the earlier and the later
// frames (boost_corr's, APS 8-ID-I's).
enum class Normalisation { Frame, Symmetric };

// What a run computes beyond g2 and how it is split up.
struct Params {
    std::vector<std::int32_t> twotimeLabels; // bins whose two-time map C(t1,t2) is wanted
    std::optional<double> frameTime;         // seconds per frame: tau in seconds when known
    // At most this many labelled pixels per device pass (0: as many as device memory allows).
    // The per-(bin, t1, t2) sums are additive, so any split gives the same result.
    std::size_t chunkPixels = 0;
    // Kernel tuning values passed as -D NAME=VALUE (e.g. GEMM_TILE, ORDERED_WG).
    std::map<std::string, int> tuning;
    unsigned threads = 0;       // cpu variant: worker threads (0: all cores)
    bool multitau = false;      // multi-tau lags (DESIGN.md §5) instead of every lag
    int channels = 16;          // multi-tau: C lags per level (even, >= 4)
    std::size_t twotimeBin = 0; // multi-tau: two-time maps of the stack binned by this (0: auto)
    Normalisation normalisation = Normalisation::Frame;
    // Keep the correlator's sums in the result (/xpcs/sums/*, a host pass over the frames;
    // parameter keep_sums): off only where a run is timed and never written (bench).
    bool keepSums = true;
    std::string toJson() const;
};

// The q bins of a label mask: labels > 0 ascending, with the pixels of each.
struct Bins {
    std::vector<std::int32_t> labels;      // B bin labels, ascending
    std::vector<std::int64_t> pixelCounts; // B pixel counts n_b
    std::vector<std::int64_t> offsets;     // B+1 CSR offsets into pixelIndex
    std::vector<std::int32_t> pixelIndex;  // y*W+x of every labelled pixel, grouped by bin
    std::size_t count() const { return labels.size(); }
    // Index of a label among the bins, or -1.
    int find(std::int32_t label) const;
};
Bins makeBins(const LabelMask& mask);

// Result of one run, in the layout of /xpcs (DESIGN.md §3).
struct Result {
    std::vector<std::int32_t> labels; // B
    std::vector<std::int64_t> pixels; // B
    std::vector<double> tau;          // T: seconds when frame time known, else frames
    bool tauInSeconds = false;
    std::size_t frames = 0;                             // T
    std::vector<double> g2, g2Err;                      // B*T, row-major (bin, tau)
    std::map<std::int32_t, std::vector<float>> twotime; // label -> T*T row-major (t1, t2)
    std::string device, variant, parametersJson = "{}";
    bool multitau = false;               // lags below are multi-tau lags (frames = L)
    std::vector<std::int64_t> lagFrames; // L multi-tau lags in frames
    std::vector<std::int32_t> levels;    // L multi-tau levels
    std::size_t twotimeBin = 1;          // frames per two-time cell (multi-tau: --twotime-bin)
    double kernelMs = 0.0; // summed kernel time of the run (0 for cpu: wall time there)
    Normalisation normalisation = Normalisation::Frame; // what g2 (and g2_err) hold
    // symmetric: g2_err from the per-pixel sums (boost_corr's), else the frame definition's
    // g2_err scaled as g2 was (variants other than cpu)
    bool errFromPixels = false;
    std::uint64_t entries = 0; // sparse variants: the stored entries (events) correlated
    TimingStats timings;
    std::size_t binCount() const { return labels.size(); }
    double g2At(std::size_t bin, std::size_t lag) const { return g2[bin * frames + lag]; }
    double g2ErrAt(std::size_t bin, std::size_t lag) const { return g2Err[bin * frames + lag]; }
};

// Throws InputError when frames and mask do not fit together (rank, dtype, shape, no bins),
// UsageError when a two-time label is not a bin.
void checkInputs(const Array& frames, const LabelMask& mask, const Params& params);

// A host variant's result stamped: device cpu, `variant`, its wall since `start` as its kernel
// time and as the timing `label`.
void stampHostRun(Result& result, const std::string& variant, const std::string& label,
                  std::chrono::steady_clock::time_point start);

// The CPU reference: exact 64-bit integer (or exactly representable double) sums for integer
// data, double for float32; multithreaded, blocked Gram matrix per bin.
Result correlateCpu(const Array& frames, const LabelMask& mask, const Params& params,
                    const Progress& progress = {});

// 128-bit integers (GCC/Clang): exact Gram entries of 32-bit data on the host.
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// Exact signed sum of 128-bit terms in 192 bits: the g2 numerator n Σ N_t and denominator
// Σ S_t S'_t of integer data. Equal sums give equal doubles, so constant frames give g2 = 1.
struct WideSum {
    UInt128 low = 0;
    std::int64_t high = 0;
    void add(Int128 v);
    bool zero() const { return low == 0 && high == 0; }
    double toDouble() const;
};
// hi * 2^64 + lo in double, the same operations as xpcs_lags.cl (bit-identical g2).
inline double wideToDouble(Int128 v);

// Lag statistics of one bin from its frame sums S_t and an accessor N(t1, t2), t1 >= t2.
// Writes g2 and g2_err for tau = 0..T-1 into the row pointers (DESIGN.md §5). integerData:
// sums and N hold exact integers (then g2 is computed from exact integer sums).
template <class Sum, class GramAt>
void lagStatistics(std::size_t frames, std::int64_t pixels, const std::vector<Sum>& sums,
                   bool integerData, GramAt&& gramAt, double* g2Row, double* errRow);

// Largest |value| of integer frames in the labelled pixels (0 for float data).
std::uint64_t largestMagnitude(const Array& frames, const LabelMask& mask);
// Whether Σ_t Σ_p I_t I_t' of a bin (the largest 64-bit sum a device variant forms) could
// leave signed 64 bits: the reason when it could, empty when every sum is exact. The OpenCL
// variants then correlate the value planes (splitValues) instead.
std::string sums64Overflow(DType dtype, std::uint64_t largest, std::int64_t mostPixels,
                           std::size_t frames);

// Integer frames as two planes of half the bits, I = H·2^shift + L: a (2T, H, W) stack of the
// T high planes then the T low planes (uint32: uint16 planes, uint16: uint8, int32: int32 of
// |H|, L < 2^16; H keeps the sign). Every Gram entry of the planes is a sum of products below
// 2^32 (uint16: 2^16), so 64-bit sums of them are exact for any bin; planeGram joins them.
struct ValuePlanes {
    Array frames;
    int shift = 0;
};
// The planes, or nothing for a dtype that has none (uint8, float: hasValuePlanes false).
std::optional<ValuePlanes> splitValues(const Array& frames);
bool hasValuePlanes(DType dtype);
// Entry (t1, t2) of the frames' Gram matrix from g(a, b), the planes' Gram entry of plane
// frames a >= b (frames: T): 2^2s G(H1,H2) + 2^s (G(H1,L2) + G(L1,H2)) + G(L1,L2), exact.
template <class PlaneGram>
Int128 planeGram(std::size_t frames, int shift, std::size_t t1, std::size_t t2, PlaneGram&& g) {
    const Int128 high = static_cast<Int128>(1) << shift;
    return high * high * g(t1, t2) + high * (g(frames + t2, t1) + g(frames + t1, t2)) +
           g(frames + t1, frames + t2);
}

// g2, g2_err and the two-time map (where result asks for it) of bin b, integer data, from its
// exact frame sums (T) and Gram matrix (T x T, row-major, t1 >= t2 read), as correlateCpu
// makes them: bit-identical to it for the same sums.
void finishBinExact(const Bins& bins, std::size_t b, const std::vector<Int128>& sums,
                    const std::vector<Int128>& gram, Result& result);

// Two-time map C(t1,t2) = n N(t1,t2) / (S_t1 S_t2), NaN where the denominator is 0.
template <class GramAt>
std::vector<float> twotimeMap(std::size_t frames, std::int64_t pixels,
                              const std::vector<double>& sums, GramAt&& gramAt);

// The empty result skeleton (labels, pixels, tau, NaN-free zero arrays) for a run.
Result makeResult(const Bins& bins, std::size_t frames, const Params& params);
// makeResult with an empty two-time map of each label params.twotimeLabels asks for (the
// dense-lag variants fill them).
Result makeLagResult(const Bins& bins, std::size_t frames, const Params& params);

} // namespace clscope::xpcs

#include "core/xpcs/xpcs_stats.inl"
