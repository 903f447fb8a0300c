// clscope-cli correlate IN.h5 [--data PATH] [--mask FILE[:PATH]] [--frame-time S]
//                     [--twotime L,...] [--device D] [--variant V] -o OUT.h5
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "gpu/devices.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"

#include <iostream>
#include <memory>

namespace clscope::cli {

namespace {

struct CorrelateOptions {
    std::string input, data = paths::frames, mask, device, variant, output;
    double frameTime = 0;
    std::vector<std::int32_t> twotime;
    std::size_t chunkPixels = 0;
};

void runCorrelate(const CorrelateOptions& o) {
    const DeviceInfo device = resolveDevice(o.device); // bad device: exit 4 before reading
    const H5Reader input(o.input);
    const Array frames = readFrames(input, o.data);
    if (frames.rank() != 3) throw InputError(input.where(o.data) + ": xpcs needs a (T,H,W) frame stack");
    const DataLocation maskAt = parseLocation(o.mask.empty() ? o.input : o.mask, paths::qmask);
    const H5Reader maskFile(maskAt.file);
    const LabelMask mask = readLabels(maskFile, maskAt.path, frames.height(), frames.width());
    xpcs::Params params;
    params.twotimeLabels = o.twotime;
    params.chunkPixels = o.chunkPixels;
    params.frameTime = o.frameTime > 0 ? std::optional<double>(o.frameTime) : readFrameTime(input);
    const xpcs::Result result = xpcs::correlate(device, o.variant, frames, mask, params);
    H5Writer out(o.output);
    xpcs::writeResult(out, result);
    out.commit();
    std::cout << "wrote " << o.output << ": g2 of " << result.binCount() << " bins x " << result.frames
              << " lags, " << result.variant << " on " << result.device << ", kernels "
              << result.kernelMs << " ms\n";
}

} // namespace

void addCorrelateCommand(CLI::App& app, Action& action) {
    auto o = std::make_shared<CorrelateOptions>();
    auto* sub = app.add_subcommand("correlate", "xpcs: g2(q, tau), g2_err and two-time maps per q bin");
    sub->add_option("input", o->input, "Input HDF5 file with frames")->required();
    sub->add_option("--data", o->data, "Frames dataset")->capture_default_str();
    sub->add_option("--mask", o->mask, "q-bin labels FILE[:PATH] (default: the input's " + paths::qmask + ")");
    sub->add_option("--frame-time", o->frameTime, "Seconds per frame (default: the file's frame_time)")
        ->check(CLI::PositiveNumber);
    sub->add_option("--twotime", o->twotime, "Labels whose two-time maps are written")->delimiter(',');
    sub->add_option("--device", o->device, "cpu, ocl:N or ocl:TEXT (default: first GPU)");
    sub->add_option("--variant", o->variant, "naive, ordered, gemm or cpu (default: gemm, cpu on cpu)");
    sub->add_option("--chunk-pixels", o->chunkPixels, "At most this many labelled pixels per device pass");
    sub->add_option("-o,--output", o->output, "Output HDF5 file")->required();
    sub->callback([&action, o] { action = [o] { runCorrelate(*o); }; });
}

} // namespace clscope::cli
