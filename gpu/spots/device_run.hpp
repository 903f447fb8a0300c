// The spots program on one device: its buffers, kernels and launches (runner.cpp's chunks of a
// stack, stream_stage.cpp's batches of a stream), and the signal lists fetched back.
#pragma once
#include "core/spots/spots.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/spots/window.hpp"

#include <map>
#include <string>
#include <vector>

namespace clscope::spots::device {

int tuningValue(const Params& p, const std::string& name, int fallback);

// Device buffers of one chunk of frames, and the spots program as this run builds it.
struct DeviceRun {
    DeviceRun(ClSession& session, const Params& params, ProgramRecipe program,
              TunableValues programValues)
        : s(session), p(params), recipe(std::move(program)), values(std::move(programValues)) {}
    ClSession& s;
    const Params& p;
    ProgramRecipe recipe;                      // the run's overrides applied (a kernel lab's fork)
    TunableValues values;                      // every tunable, resolved
    std::map<std::string, cl::Kernel> kernels; // built once per run, not per launch
    cl::Buffer frames, bad, signal, scratchA, scratchB, tableM, tableX, tableY;
    cl::Buffer list, count;   // the compacted signal pixels and their number
    std::size_t capacity = 0; // entries the list holds
    int w = 0, h = 0;
    std::vector<std::uint8_t> params; // spots_params bytes
    bool fp64 = true;
    // The last launch of the kernel that makes the final mask and the list (its argument
    // maskArg is mask_out), made again with the mask written when the list overflows.
    struct FinalLaunch {
        std::string kernel, label;
        LaunchShape shape;
        cl_uint maskArg = 0;
    } finalLaunch;
    bool maskWritten = false; // the dense mask `signal` holds the last chunk's
};

// The dispersion variants: one launch (local, direct) or three (sat).
void launchDispersion(DeviceRun& r, const Window& window, std::size_t frames);
// dispersion_extended: dispersive pixels, erosion, background mean and the strong test.
void launchExtended(DeviceRun& r, std::size_t frames);

// The list holds 1/listFraction of the chunk's pixels (plus a margin) unless tuned.
constexpr std::size_t listFraction = 16;

// The dense mask of the last launch's chunk into `signal`: the final kernel launched again
// with mask_out set, unless that launch wrote it (SIGNAL_MASK_ALWAYS). The host needs it only
// when the list overflowed; the buffers the kernel read must still hold that chunk.
void writeMask(DeviceRun& r);

// Bytes per frame on the device for a variant (frames, signal and scratch).
std::size_t bytesPerFrame(const Window& window, std::size_t plane, DType d);
// Bytes per pixel of the largest buffer a chunk of frames allocates (sat: its 8-byte tables).
std::size_t largestElement(const Window& window, DType d);
std::vector<std::uint8_t> paramBytes(const Params& p, double threshold, bool fp64);
// A work-group of the strip kernel makes at most the chunk's frames (STRIP_FRAMES past it would
// only keep bad flags in local memory for nothing): before the first launch.
void fitChunk(DeviceRun& r, std::size_t chunk);
// Every buffer of a run; the frames buffer only when the frames go up whole (a stream lends its
// own two, StreamUpload).
void allocate(DeviceRun& r, const Window& window, std::size_t chunk, std::size_t plane, DType d,
              bool frames);
// The chunk's signal pixels into the lists of its frames (`frames`: the chunk's first frame's
// list) and, when given, into `signal` (zeroed by the caller): the list that the mask's kernel
// filled when it fits, else the whole mask. Returns whether the mask had to be fetched.
bool fetchSignal(DeviceRun& r, std::size_t pixels, std::uint8_t* signal,
                 std::vector<std::uint32_t>* frames);

} // namespace clscope::spots::device
