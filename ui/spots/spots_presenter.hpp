// The spots panel's state without widgets (Mantid-style presenter): the last full run (signal
// mask of every frame, spots, strong pixels per frame), the live result of the frame on
// screen, the spot table's order and selection, the image the view shows (the frame or one of
// DIALS' debug images), and the difference of two runs' signal masks.
#pragma once
#include "core/spots/spots.hpp"
#include "ui/results/provenance.hpp"
#include "ui/spots/spots_frame.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

// What the image view shows: the frame, or a step of DIALS' threshold (dials.image_viewer's).
enum class SpotsImage { Frame, Mean, Variance, Dispersion, SigmaB, SigmaS, Global, Final };
const std::vector<SpotsImage>& spotsImages();
std::string spotsImageName(SpotsImage image); // "frame", "mean", ..., "σ_b test", "final mask"
std::optional<SpotsImage> spotsImageNamed(const std::string& name); // none of that name: none
// The debug image of that kind as values (the tests as 0/1); empty for SpotsImage::Frame.
std::vector<double> debugValues(const spots::DebugImages& debug, SpotsImage image);

// Columns of the spot table.
enum class SpotColumn { Index, Frame, X, Y, Intensity, Pixels, Width, Height };
inline constexpr int spotColumnCount = 8;
std::string spotColumnTitle(SpotColumn column); // with units, e.g. "x (px)"
double spotColumnValue(const spots::Spot& s, std::size_t index, SpotColumn column);

// Where the image view goes for a spot: its frame, centred on its centroid.
struct SpotsViewTarget {
    std::size_t frame = 0;
    double x = 0, y = 0;
};

class SpotsPresenter {
  public:
    // A full run (every frame) and one line saying what ran where.
    void setRun(spots::Result result, std::string label);
    bool hasRun() const { return run_.has_value(); }
    const spots::Result& run() const { return *run_; }
    const std::string& runLabel() const { return runLabel_; }

    // The live result of the frame on screen.
    void setFrameResult(SpotsFrameResult result) { frame_ = std::move(result); }
    const std::optional<SpotsFrameResult>& frameResult() const { return frame_; }
    // Signal pixels of the frame as overlay labels (1 = signal), empty without a result.
    std::vector<std::int32_t> signalLabels() const;

    // The spot table: the run's spots in the chosen order.
    std::size_t rowCount() const { return order_.size(); }
    void sortBy(SpotColumn column, bool ascending);
    std::size_t spotIndexAtRow(std::size_t row) const { return order_.at(row); }
    const spots::Spot& spotAtRow(std::size_t row) const;
    // The row of the spot nearest to pixel (x, y); 0 when there are none.
    std::size_t rowNearest(double x, double y) const;
    double cellValue(std::size_t row, SpotColumn column) const;
    void selectRow(std::size_t row);
    std::optional<std::size_t> selectedSpot() const { return selected_; }
    std::optional<SpotsViewTarget> selectedTarget() const;

    // Signal pixels and spots per frame of the run.
    struct PerFrame {
        std::vector<double> frame, strong, spots;
    };
    PerFrame perFrame() const;
    std::string perFrameCsv() const;

  private:
    std::optional<spots::Result> run_;
    std::string runLabel_;
    std::optional<SpotsFrameResult> frame_;
    std::vector<std::size_t> order_;
    std::optional<std::size_t> selected_;
};

// Exports (each written whole to a temporary name, then renamed). Signal mask: /spots/signal
// uint8 (T,H,W); spot table: /spots/frame, x, y, npix, intensity, bbox (DESIGN.md §3) or CSV
// when the path ends in .csv, the HDF5 with the run's provenance as root attributes (version,
// device, variant, input, parameters, command line); phil: core's DIALS find_spots.phil snippet.
std::string spotTableCsv(const std::vector<spots::Spot>& table);
void exportSignalMask(const std::string& path, const spots::Result& run);
void exportSpotTable(const std::string& path, const std::vector<spots::Spot>& table,
                     const ProvenanceFields& provenance = {});
void exportPhil(const std::string& path, const spots::Params& params);

// Where two runs' signal masks disagree on one frame: label 1 signal only in a, 2 only in b.
struct SignalDifference {
    std::size_t height = 0, width = 0, frames = 0;
    std::vector<std::int32_t> labels; // (H,W) of the frame asked for
    std::size_t onlyA = 0, onlyB = 0; // on that frame
    std::size_t totalDiffering = 0;   // over every frame
    std::optional<std::size_t> firstDifferingFrame;
};
// InputError when the masks do not have the same shape.
SignalDifference signalDifference(const spots::Result& a, const spots::Result& b,
                                  std::size_t frame);

} // namespace clscope::ui
