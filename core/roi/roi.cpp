#include "core/roi/roi.hpp"

#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <type_traits>

namespace clscope::roi {

namespace {

std::vector<std::string> split(const std::string& text, char by) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, by))
        parts.push_back(part);
    return parts;
}

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// Four finite numbers "p,q,r,s", else empty.
std::vector<double> fourNumbers(const std::string& entry) {
    std::vector<double> v;
    for (const std::string& part : split(entry, ',')) {
        const std::string t = trimmed(part);
        double x = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
        if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(x))
            return {};
        v.push_back(x);
    }
    return v.size() == 4 ? v : std::vector<double>{};
}

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

bool inside(const Region& r, double x, double y) {
    if (r.kind == Region::Kind::Rect) return x >= r.a && x < r.c && y >= r.b && y < r.d;
    const double distance = std::hypot(x - r.a, y - r.b);
    return distance >= r.c && distance < r.d;
}

template <class T>
void addFrame(std::span<const T> frame, const std::vector<std::uint32_t>& pixels, double& out) {
    if constexpr (std::is_integral_v<T>) {
        std::int64_t sum = 0; // exact: at most 2^32 a pixel over < 2^31 pixels
        for (const std::uint32_t p : pixels)
            sum += static_cast<std::int64_t>(frame[p]);
        out = static_cast<double>(sum);
    } else {
        double sum = 0;
        for (const std::uint32_t p : pixels)
            sum += static_cast<double>(frame[p]);
        out = sum;
    }
}

} // namespace

std::string Region::text() const {
    return number(a) + "," + number(b) + "," + number(c) + "," + number(d);
}

std::vector<Region> parseRegions(const std::string& text, Region::Kind kind,
                                 const std::string& option) {
    const bool rect = kind == Region::Kind::Rect;
    std::vector<Region> out;
    for (const std::string& entry : split(text, ';')) {
        if (trimmed(entry).empty()) continue;
        const std::vector<double> v = fourNumbers(entry);
        const bool ordered =
            !v.empty() && (rect ? v[2] > v[0] && v[3] > v[1] : v[2] >= 0 && v[3] > v[2]);
        if (!ordered)
            throw UsageError(option + ": '" + trimmed(entry) + "' is not " +
                             (rect ? "x0,y0,x1,y1 with x1 > x0 and y1 > y0 (pixels)"
                                   : "cx,cy,r0,r1 with 0 <= r0 < r1 (pixels)"));
        Region r;
        r.kind = kind, r.a = v[0], r.b = v[1], r.c = v[2], r.d = v[3];
        r.name = std::string(rect ? "rect " : "ring ") + std::to_string(out.size() + 1);
        out.push_back(r);
    }
    return out;
}

std::vector<std::uint32_t> regionPixels(const Region& r, std::size_t height, std::size_t width,
                                        const PixelMask* mask) {
    if (height * width > std::numeric_limits<std::uint32_t>::max())
        throw InputError("roi: frames of " + std::to_string(height) + " x " +
                         std::to_string(width) + " pixels are beyond 2^32 pixels");
    const bool masked = mask && mask->height == height && mask->width == width;
    std::vector<std::uint32_t> pixels;
    for (std::size_t row = 0; row < height; ++row)
        for (std::size_t col = 0; col < width; ++col) {
            const std::size_t p = row * width + col;
            if (masked && mask->bad[p]) continue;
            if (inside(r, double(col) + 0.5, double(row) + 0.5))
                pixels.push_back(static_cast<std::uint32_t>(p));
        }
    return pixels;
}

Series::Series(std::vector<Region> regions, std::size_t height, std::size_t width,
               const PixelMask* mask)
    : regions_(std::move(regions)), height_(height), width_(width) {
    if (mask && (mask->height != height || mask->width != width))
        throw InputError("roi: the pixel mask is " + std::to_string(mask->height) + " x " +
                         std::to_string(mask->width) + ", the frames " + std::to_string(height) +
                         " x " + std::to_string(width));
    for (const Region& r : regions_)
        pixels_.push_back(regionPixels(r, height, width, mask));
    sums_.resize(regions_.size());
}

void Series::add(const Array& frames) {
    if (frames.height() != height_ || frames.width() != width_)
        throw InputError("roi: a frame of " + std::to_string(frames.height()) + " x " +
                         std::to_string(frames.width()) + " in a series of " +
                         std::to_string(height_) + " x " + std::to_string(width_));
    const std::size_t n = frames.frameSize();
    visitArray(frames, [&](auto all) {
        for (std::size_t t = 0; t < frames.frameCount(); ++t)
            for (std::size_t r = 0; r < regions_.size(); ++r)
                addFrame(all.subspan(t * n, n), pixels_[r], sums_[r].emplace_back());
    });
    frames_ += frames.frameCount();
}

double Series::mean(std::size_t r, std::size_t t) const {
    return pixels_[r].empty() ? std::numeric_limits<double>::quiet_NaN()
                              : sums_[r][t] / static_cast<double>(pixels_[r].size());
}

Series seriesOf(const FrameStream& frames, const std::vector<Region>& regions,
                const PixelMask* mask, const Progress& progress) {
    Series s(regions, frames.height(), frames.width(), mask);
    const std::size_t total = frames.frameCount();
    const std::size_t step = frames.framesWithin(std::uint64_t(256) << 20);
    for (std::size_t first = 0; first < total; first += step) {
        progress.checkCancel();
        Array block = frames.read(first, std::min(step, total - first));
        s.add(block);
        frames.recycle(std::move(block));
        progress.report(double(first + step) / double(total));
    }
    return s;
}

Series seriesOfFile(const FileInput& in, const std::vector<Region>& regions,
                    const Progress& progress) {
    const FrameStream frames(in.file, in.frames, in.frameTime);
    std::optional<PixelMask> mask;
    if (!in.pixelMask.empty())
        mask = readPixelMask(H5Reader(in.file), in.pixelMask, frames.height(), frames.width());
    return seriesOf(frames, regions, mask ? &*mask : nullptr, progress);
}

std::string seriesSummary(const Series& s) {
    return std::to_string(s.regions().size()) + " regions over " + std::to_string(s.frames()) +
           " frames";
}

std::string seriesCsv(const Series& s) {
    std::string out = "frame,region,pixels,sum,mean\n";
    for (std::size_t t = 0; t < s.frames(); ++t)
        for (std::size_t r = 0; r < s.regions().size(); ++r)
            out += std::to_string(t) + "," + s.regions()[r].name + "," +
                   std::to_string(s.pixels(r)) + "," + number(s.sum(r, t)) + "," +
                   number(s.mean(r, t)) + "\n";
    return out;
}

void writeSeries(H5Writer& out, const std::string& group, const Series& s) {
    const std::size_t regions = s.regions().size(), frames = s.frames();
    std::vector<double> sums, means, corners;
    std::vector<std::int64_t> pixels;
    std::vector<std::string> kinds, names;
    for (std::size_t r = 0; r < regions; ++r) {
        const Region& g = s.regions()[r];
        for (std::size_t t = 0; t < frames; ++t)
            sums.push_back(s.sum(r, t)), means.push_back(s.mean(r, t));
        corners.insert(corners.end(), {g.a, g.b, g.c, g.d});
        pixels.push_back(static_cast<std::int64_t>(s.pixels(r)));
        kinds.push_back(g.kind == Region::Kind::Rect ? "rect" : "ring");
        names.push_back(g.name);
    }
    out.write(group + "/sum", makeArray<double>({regions, frames}, sums));
    out.write(group + "/mean", makeArray<double>({regions, frames}, means));
    out.write(group + "/pixels", makeArray<std::int64_t>({regions}, pixels));
    out.write(group + "/region", makeArray<double>({regions, 4}, corners));
    out.setAttribute(group + "/region", "units", "pixel");
    out.writeTexts(group + "/kind", kinds);
    out.writeTexts(group + "/name", names);
}

} // namespace clscope::roi
