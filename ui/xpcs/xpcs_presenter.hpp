// The XPCS results presenter (Qt-free, tested without widgets): turns the Result(s) of one Run
// into what the result tabs draw — g2(τ) series with error bars and legend text, fit curves and
// the fit table, Γ against q with its power-law fit and the CSV tables.
#pragma once
#include "core/hdf5.hpp"
#include "core/xpcs/fit.hpp"
#include "core/xpcs/fit_bins.hpp"
#include "core/xpcs/intensity.hpp"
#include "core/xpcs/xpcs.hpp"
#include "ui/xpcs/xpcs_fit_quality.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

// One variant's result of a Run, with the device it ran on ("ocl:0 pthread-...").
struct XpcsRun {
    xpcs::Result result;
    std::string deviceLabel;
};

struct XpcsBinFit {
    std::int32_t label = 0;
    std::optional<double> q;                      // 1/Å
    xpcs::FitResult fit;                          // values: the xpcs::G2Param parameters
    std::string concerns;                         // why not to trust it; empty when trustworthy
    FitGrade grade = FitGrade::Failed;            // from χ²_red and the bounds
    std::uint32_t flags = xpcs::FlagNotConverged; // /xpcs/fit/quality of the bin
    bool ok() const { return fit.converged && fit.values.size() == xpcs::G2ParamCount; }
    bool trusted() const { return ok() && grade == FitGrade::Ok && concerns.empty(); }
    // Good enough for Γ vs q: converged, no concern, χ²_red not bad.
    bool usable() const { return ok() && concerns.empty() && grade != FitGrade::Bad; }
};

// One bin's curve on the log τ axis: τ > 0 and finite g2 only.
struct XpcsSeries {
    std::int32_t label = 0;
    std::string legend; // "label 3, q = 0.0123 Å⁻¹"
    std::vector<double> tau, g2, err;
    std::vector<double> fitTau, fitG2; // empty without a converged fit
};

// Γ against q (bins with a converged fit and a known q), with the chosen τ(q) law over the
// bins in its q range (xpcs::fitRateLaw, as clscope-cli correlate), the free power law and D.
struct XpcsRatePoints {
    std::vector<double> q, rate, rateErr;
    std::vector<bool> inRange;               // per point: in the law's q range (fitted by it)
    std::optional<xpcs::FitResult> powerLaw; // prefactor, exponent (every point)
    std::vector<double> fitQ, fitRate;
    std::string note;    // why there is nothing to plot, when there is not
    std::string fitNote; // why there is no power-law fit, when there is not
    // Γ = D·q² (exponent fixed at 2): D in Å²/(τ unit) from q in 1/Å, when converged.
    std::optional<xpcs::FitResult> diffusion;
    // The law of the fit options over the points in range: A (D, v) and n; its line over them.
    xpcs::RateLaw law = xpcs::RateLaw::Power;
    xpcs::QRange range;
    std::optional<xpcs::FitResult> lawFit;
    std::vector<double> lawQ, lawRate;
    std::string lawNote; // why there is no law fit, when there is not
};

class XpcsPresenter {
  public:
    // The runs of one Run, the first being the reference that is plotted and exported.
    void setRuns(std::vector<XpcsRun> runs);
    void addRun(XpcsRun run);
    // q of each bin of the first run (ascending labels); absent when unknown. Refits (the
    // quality flags compare Γ with the Γ(q) power law).
    void setBinQ(std::optional<std::vector<double>> q);
    // The diffusion coefficient the data was made with (Å²/s; synthetic brownian files).
    void setTrueDiffusion(std::optional<double> d) { trueDiffusion_ = d; }
    std::optional<double> trueDiffusion() const { return trueDiffusion_; }
    // Mean intensity per bin per frame of the run's input (stability plot and I(q)).
    void setIntensity(std::optional<xpcs::BinIntensity> intensity);
    const std::optional<xpcs::BinIntensity>& intensity() const { return intensity_; }
    // Seconds between frames when τ is in seconds (the time axis of the stability plot).
    std::optional<double> frameSeconds() const;
    // Changing the options (or q) refits every bin with xpcs::fitBins, the function
    // clscope-cli correlate --fit writes /xpcs/fit with: the same Γ, χ²_red and quality.
    void setFitOptions(const xpcs::FitOptions& options);
    const xpcs::FitOptions& fitOptions() const { return options_; }

    // Another result of the same bins drawn beside the reference in the g2 plot (a facility's
    // result file, another run), named for the legend; cleared by setRuns. InputError when its
    // τ is in another unit or it has none of the reference's labels.
    void setOverlay(std::optional<XpcsRun> overlay);
    const std::optional<XpcsRun>& overlay() const { return overlay_; }
    // The overlay's points of the reference's bin `bin` (the same label), when it has that label.
    std::optional<XpcsSeries> overlaySeries(std::size_t bin) const;

    bool empty() const { return runs_.empty(); }
    const std::vector<XpcsRun>& runs() const { return runs_; }
    const xpcs::Result& reference() const { return runs_.front().result; }
    std::size_t binCount() const { return empty() ? 0 : reference().binCount(); }
    std::optional<double> binQ(std::size_t bin) const;
    bool hasQ() const { return q_.has_value(); }
    std::string tauUnit() const; // "s" or "frames"
    // A multi-tau result: each level above 0 with the τ of its first lag (where the lag step
    // doubles); empty for dense results.
    std::vector<std::pair<int, double>> levelStarts() const;

    // About `count` bin indices spread evenly over the bins (first and last included).
    std::vector<std::size_t> defaultSelection(std::size_t count = 5) const;
    std::string legendText(std::size_t bin) const;
    XpcsSeries series(std::size_t bin) const;
    const std::vector<XpcsBinFit>& fits() const { return fits_; }
    XpcsRatePoints rateVsQ() const;
    // tau, then g2_L<label> and g2_err_L<label> per bin; one header row.
    std::string csv() const;
    // label, q, each G2Param parameter and its error (baseline, beta, rate, alpha, beta2, rate2,
    // velocity), chi2_red, aic, bic, converged
    std::string fitsCsv() const;
    // time (s, else frame), then I_L<label> per bin: mean counts per pixel in each frame.
    std::string intensityCsv() const;
    // label, q_1/angstrom, mean_counts_per_pixel, std_over_frames, pixels: one row per bin.
    std::string iqCsv() const;

  private:
    void refit();
    std::vector<XpcsRun> runs_;
    std::optional<XpcsRun> overlay_;
    std::optional<std::vector<double>> q_;
    xpcs::FitOptions options_;
    std::vector<XpcsBinFit> fits_;
    std::optional<double> trueDiffusion_;
    std::optional<xpcs::BinIntensity> intensity_;
};

// The fit table as /group/table (one row per bin: label, q, then each parameter and its
// error, χ²_red, AIC, BIC, converged) with its column names as the attribute "columns".
void writeFits(H5Writer& out, const XpcsPresenter& presenter, const std::string& group);

// The intensity views' data under group (the GUI's HDF5 export, beside /xpcs/fits):
// mean (B,T) counts per pixel per frame, labels (B), pixels (B), time (T, s or frames),
// mean_over_frames and std_over_frames (B) and q (B, 1/Å) when known. Nothing without it.
void writeIntensity(H5Writer& out, const XpcsPresenter& presenter, const std::string& group);

// The series averaged in log-spaced τ bins (perDecade per decade) for display: weighted by
// 1/err² when every error in a bin is > 0 (error 1/√Σw), else the plain mean (error σ/√n).
// Fit curves are kept as they are.
XpcsSeries logBinned(const XpcsSeries& series, int perDecade = 12);
// max |a − b| over the entries finite in both (0 when shapes differ: not comparable → NaN).
double maxAbsDifference(const std::vector<double>& a, const std::vector<double>& b);
// n points evenly spaced in log between lo and hi (both > 0).
std::vector<double> logSpaced(double lo, double hi, std::size_t n);

} // namespace clscope::ui
