// clscope-cli convert IN.h5 [--data PATH] [--frames FIRST:COUNT] [--frame-time S]
// --to sparse|dense -o OUT.h5: a frame stack rewritten in the other layout of DESIGN.md §3
// (dense /entry/data/data, sparse /entry/data/sparse), read a window of frames at a time; the
// q-bin labels (/entry/processing), pixel mask and frame time copied with their attributes.
// IN may also be a Rigaku .bin file (core/sparse/rigaku_frames.hpp).
// Generic: it names no algorithm. docs/SPARSE.md.
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/input/frame_range.hpp"
#include "core/io.hpp"
#include "core/output_check.hpp"
#include "core/sparse/csr_writer.hpp"
#include "core/sparse/rigaku_frames.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>

namespace clscope::cli {

namespace {

struct ConvertArgs {
    std::string input, data = paths::frames, frames, to, output;
    double frameTime = std::numeric_limits<double>::quiet_NaN(); // NaN: not given
};

constexpr std::uint64_t windowBytes = std::uint64_t(64) << 20; // dense frames read at once

std::string writeSparse(H5Writer& out, const FrameStream& stream, const std::string& where) {
    CsrWriter sparse(stream.dtype(), stream.height(), stream.width(), where);
    const std::size_t step = stream.framesWithin(windowBytes);
    for (std::size_t first = 0; first < stream.frameCount(); first += step)
        sparse.add(stream.read(first, std::min(step, stream.frameCount() - first)));
    return sparse.write(out);
}

std::string writeDense(H5Writer& out, const FrameStream& stream) {
    const Shape shape{stream.frameCount(), stream.height(), stream.width()};
    const std::size_t step = stream.framesWithin(windowBytes);
    Array window;
    std::size_t windowFirst = 0;
    // Frames come one at a time, in order (uncompressed: on this thread): a window is read
    // when the frame asked for is past the one held.
    out.writeFrames(
        paths::frames, stream.dtype(), shape, Compression::None, [&](std::size_t t, Array& frame) {
            if (window.size() == 0 || t >= windowFirst + window.frameCount()) {
                windowFirst = t;
                window = stream.read(t, std::min(step, shape[0] - t));
            }
            std::memcpy(frame.bytes(), window.bytes() + (t - windowFirst) * stream.frameBytes(),
                        stream.frameBytes());
        });
    return dtypeName(stream.dtype()) + " frames";
}

// What a reader of the output needs beside the frames, with the attributes (units) it has.
void copyMetadata(H5Writer& out, const H5Reader& in) {
    for (const std::string& path :
         {std::string("/entry/processing"), paths::pixelMask, paths::frameTime})
        if (in.hasObject(path)) out.copyFrom(in, path);
}

void convert(const ConvertArgs& a) {
    if (a.to != "sparse" && a.to != "dense")
        throw UsageError("--to must be sparse or dense, not '" + a.to + "'");
    checkOutputs({{"-o", a.output}}, {{"IN", a.input}});
    const std::optional<double> frameTime =
        std::isnan(a.frameTime) ? std::nullopt : std::optional(a.frameTime);
    FrameStream stream(a.input, a.data, frameTime);
    const std::string where = a.input + ":" + a.data;
    if (!a.frames.empty()) {
        const auto [first, end] = FrameRange::parse(a.frames).within(stream.frameCount(), where);
        stream.window(first, end - first);
    }
    H5Writer out(a.output);
    const std::string what =
        a.to == "sparse" ? writeSparse(out, stream, where) : writeDense(out, stream);
    if (!RigakuFrames::named(a.input)) copyMetadata(out, H5Reader(a.input));
    out.commit();
    std::printf("wrote %s: %zu frames of %zu×%zu, %s, %s\n", a.output.c_str(), stream.frameCount(),
                stream.height(), stream.width(), a.to.c_str(), what.c_str());
}

} // namespace

void addConvertCommand(CLI::App& app, Action& action) {
    auto a = std::make_shared<ConvertArgs>();
    auto* sub = app.add_subcommand(
        "convert", "Rewrite a frame stack as sparse frames or as a dense stack (docs/SPARSE.md)");
    sub->add_option("input", a->input, "Input HDF5 file")->required();
    sub->add_option("--data", a->data,
                    "Frames: a dense dataset, a sparse or events group (default " + paths::frames +
                        ", else its sibling sparse or events group)")
        ->check(nonEmpty());
    sub->add_option("--frames", a->frames, "FIRST:COUNT: only these frames");
    sub->add_option("--frame-time", a->frameTime, "Seconds per frame an event list is binned into");
    sub->add_option("--to", a->to, "sparse or dense")->required();
    sub->add_option("-o,--output", a->output, "Output HDF5 file")->required();
    sub->callback([&action, a] { action = [a] { convert(*a); }; });
}

} // namespace clscope::cli
