// Regions of interest of a frame stack and their time series (issue 53: "ROI time series"):
// rectangles and rings on the image, each frame's sum and mean over the pixels of each region,
// masked pixels left out. The same functions serve `clscope-cli roi` (gpu/azint/roi_command.cpp)
// and the GUI's ROI view, on files and live frames. docs/ROI.md.
#pragma once
#include "core/array.hpp"
#include "core/data.hpp"
#include "core/progress.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clscope {
class FrameStream;
class H5Writer;
} // namespace clscope

namespace clscope::roi {

// A region in pixel coordinates (x along columns, y along rows; pixel (row, col) has its centre
// at (col + 0.5, row + 0.5)). A pixel belongs to it when its centre does:
// Rect: x0 <= x < x1 and y0 <= y < y1; Ring: r0 <= |(x, y) - (cx, cy)| < r1.
struct Region {
    enum class Kind { Rect, Ring };
    Kind kind = Kind::Rect;
    double a = 0, b = 0, c = 0, d = 0; // Rect: x0, y0, x1, y1; Ring: cx, cy, r0, r1
    std::string name;                  // "rect 1", "ring 2" unless given
    // "x0,y0,x1,y1" or "cx,cy,r0,r1" as the command line and the GUI write it.
    std::string text() const;
};

// "x0,y0,x1,y1;..." (rects) or "cx,cy,r0,r1;..." (rings): UsageError naming `option` and the
// entry for anything else (not four numbers, x1 <= x0, r1 <= r0, r0 < 0).
std::vector<Region> parseRegions(const std::string& text, Region::Kind kind,
                                 const std::string& option);

// The flat pixel indices (row * width + col, ascending) of a region on a height x width image,
// masked pixels (mask->bad non-zero) left out.
std::vector<std::uint32_t> regionPixels(const Region& r, std::size_t height, std::size_t width,
                                        const PixelMask* mask = nullptr);

// Every region's sum per frame (exact for integer frames: 64-bit sums), in region-major order.
class Series {
  public:
    Series(std::vector<Region> regions, std::size_t height, std::size_t width,
           const PixelMask* mask = nullptr);
    // Appends the frames of a (T,H,W) or (H,W) array of the series' frame size.
    void add(const Array& frames);
    const std::vector<Region>& regions() const { return regions_; }
    std::size_t frames() const { return frames_; }
    std::size_t pixels(std::size_t r) const { return pixels_[r].size(); }
    // Region r's sum over frame t; mean = sum / pixels (NaN for a region of no pixel).
    double sum(std::size_t r, std::size_t t) const { return sums_[r][t]; }
    double mean(std::size_t r, std::size_t t) const;
    const std::vector<double>& sums(std::size_t r) const { return sums_[r]; }

  private:
    std::vector<Region> regions_;
    std::size_t height_, width_, frames_ = 0;
    std::vector<std::vector<std::uint32_t>> pixels_;
    std::vector<std::vector<double>> sums_;
};

// The series of every frame of `frames` (read within ~256 MiB at a time).
Series seriesOf(const FrameStream& frames, const std::vector<Region>& regions,
                const PixelMask* mask = nullptr, const Progress& progress = {});

// A file's frames (an event list's binned into frames of frameTime seconds) and, when
// pixelMask is not empty, the pixel mask dataset of the same file: `clscope-cli roi`'s input
// and the GUI's open file.
struct FileInput {
    std::string file, frames, pixelMask;
    std::optional<double> frameTime;
};
Series seriesOfFile(const FileInput& in, const std::vector<Region>& regions,
                    const Progress& progress = {});
// "R regions over T frames", for people.
std::string seriesSummary(const Series& s);

// "frame,region,pixels,sum,mean" lines (17 significant digits), frame-major.
std::string seriesCsv(const Series& s);

// The series into `out` under `group`: sum and mean (regions x frames, float64), pixels
// (regions), region (regions x 4: x0,y0,x1,y1 or cx,cy,r0,r1, px), kind and name (texts).
void writeSeries(H5Writer& out, const std::string& group, const Series& s);

} // namespace clscope::roi
