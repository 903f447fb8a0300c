#include "gpu/spots/device_run.hpp"
#include "gpu/spots/recipes.hpp"

#include <cstring>

namespace clscope::spots::device {

namespace {

// The tests' parameters as spots.cl's spots_params (double, or float without fp64).
template <class Real> struct KernelParams {
    Real gain, sigmaB, sigmaS, threshold;
    cl_int minCount;
};

// A kernel argument passed as bytes (the spots_params struct).
struct RawArg {
    const std::vector<std::uint8_t>& bytes;
};
void setOne(cl::Kernel& k, cl_uint index, const RawArg& a) {
    k.setArg(index, a.bytes.size(), a.bytes.data());
}
template <class T> void setOne(cl::Kernel& k, cl_uint index, const T& a) {
    k.setArg(index, a);
}

template <class... Args> void setArgs(cl::Kernel& k, const Args&... args) {
    cl_uint index = 0;
    (setOne(k, index++, args), ...);
}

// The launch of a per-pixel kernel by its rule (`rule`: the kernel's name, or one of spots_local's
// strip forms, whose work-items make several pixels each).
LaunchShape pixelShape(const DeviceRun& r, const std::string& rule, std::size_t frames) {
    return r.recipe.shape(rule, r.values, {std::size_t(r.w), std::size_t(r.h), frames});
}

// The kernel that makes the final mask also fills the signal list: its count starts at 0.
void zeroCount(DeviceRun& r) {
    r.s.fill(r.count, 4, "fill signal count");
}

// Kernel `name` of the run's spots program (gpu/spots/recipes.cpp).
cl::Kernel& spotsKernel(DeviceRun& r, const std::string& name) {
    const auto it = r.kernels.find(name);
    if (it != r.kernels.end()) return it->second;
    return r.kernels.emplace(name, r.s.kernel(r.recipe, r.values, name)).first->second;
}

// Launches kernel `name`, which makes the chunk's final mask and list, its arguments set but
// mask_out (index maskArg): 0, only the list unless SIGNAL_MASK_ALWAYS; kept for writeMask.
void launchFinal(DeviceRun& r, const std::string& name, cl_uint maskArg, const std::string& label,
                 const LaunchShape& shape) {
    cl::Kernel& k = spotsKernel(r, name);
    k.setArg(maskArg, cl_int(0));
    r.s.launch(k, label, shape);
    r.finalLaunch = {name, label, shape, maskArg};
    r.maskWritten = r.values.at("SIGNAL_MASK_ALWAYS") == "1";
}

} // namespace

int tuningValue(const Params& p, const std::string& name, int fallback) {
    const auto it = p.tuning.find(name);
    return it == p.tuning.end() ? fallback : it->second;
}

// The dispersion variants: one launch (local, direct) or three (sat).
void launchDispersion(DeviceRun& r, const Window& window, std::size_t frames) {
    zeroCount(r);
    const cl_uint capacity = cl_uint(r.capacity);
    if (window.sat()) {
        cl::Kernel& rows = spotsKernel(r, "spots_sat_rows");
        setArgs(rows, r.frames, r.bad, r.w, r.h, r.tableM, r.tableX, r.tableY);
        r.s.launch(rows, "spots sat rows",
                   r.recipe.shape("spots_sat_rows", r.values, {std::size_t(r.h), frames}));
        cl::Kernel& cols = spotsKernel(r, "spots_sat_cols");
        setArgs(cols, r.w, r.h, r.tableM, r.tableX, r.tableY);
        r.s.launch(cols, "spots sat cols",
                   r.recipe.shape("spots_sat_cols", r.values, {std::size_t(r.w), frames}));
        cl::Kernel& k = spotsKernel(r, "spots_sat_threshold");
        setArgs(k, r.frames, r.bad, r.w, r.h, RawArg{r.params}, r.tableM, r.tableX, r.tableY,
                r.signal, cl_int(0), r.list, capacity, r.count);
        return launchFinal(r, "spots_sat_threshold", 9, "spots sat threshold",
                           pixelShape(r, "spots_sat_threshold", frames));
    }
    const std::string name = "spots_" + window.name;
    cl::Kernel& k = spotsKernel(r, name);
    setArgs(k, r.frames, r.bad, r.w, r.h, RawArg{r.params}, r.signal, cl_int(0), r.list, capacity,
            r.count);
    const std::string rule = window.sums == Sums::Local ? localLaunch(r.values) : name;
    if (rule != name) k.setArg(10, cl_int(frames)); // a strip form's n: its work-groups loop
    launchFinal(r, name, 6, "spots " + window.name, pixelShape(r, rule, frames));
}

// dispersion_extended: dispersive pixels, erosion, background mean and the strong test.
void launchExtended(DeviceRun& r, std::size_t frames) {
    zeroCount(r);
    cl::Kernel& disp = spotsKernel(r, "spots_ext_dispersive");
    setArgs(disp, r.frames, r.bad, r.w, r.h, RawArg{r.params}, r.scratchA);
    r.s.launch(disp, "spots extended dispersive", pixelShape(r, "spots_ext_dispersive", frames));
    cl::Kernel& erode = spotsKernel(r, "spots_ext_erode");
    setArgs(erode, r.frames, r.bad, r.w, r.h, r.scratchA, r.scratchB);
    r.s.launch(erode, "spots extended erode", pixelShape(r, "spots_ext_erode", frames));
    cl::Kernel& fin = spotsKernel(r, "spots_ext_final");
    setArgs(fin, r.frames, r.bad, r.w, r.h, RawArg{r.params}, r.scratchB, r.signal, cl_int(0),
            r.list, cl_uint(r.capacity), r.count);
    launchFinal(r, "spots_ext_final", 7, "spots extended final",
                pixelShape(r, "spots_ext_final", frames));
}

void writeMask(DeviceRun& r) {
    if (r.maskWritten) return;
    zeroCount(r);
    cl::Kernel& k = spotsKernel(r, r.finalLaunch.kernel);
    k.setArg(r.finalLaunch.maskArg, cl_int(1));
    r.s.launch(k, r.finalLaunch.label + " (signal mask: list overflow)", r.finalLaunch.shape);
    r.maskWritten = true;
}

// Bytes per frame on the device for a variant (frames, signal and scratch).
std::size_t bytesPerFrame(const Window& window, std::size_t plane, DType d) {
    std::size_t b = plane * (dtypeSize(d) + 1) + plane / listFraction * 4;
    if (window.sat()) b += plane * (4 + 8 + 8);
    if (window.extended()) b += plane * 2;
    return b;
}

std::size_t largestElement(const Window& window, DType d) {
    return window.sat() ? 8 : dtypeSize(d);
}

std::vector<std::uint8_t> paramBytes(const Params& p, double threshold, bool fp64) {
    auto pack = [&](auto real) {
        using Real = decltype(real);
        KernelParams<Real> k{Real(p.gain), Real(p.sigmaBackground), Real(p.sigmaStrong),
                             Real(threshold), minCount(p)};
        std::vector<std::uint8_t> bytes(sizeof k);
        std::memcpy(bytes.data(), &k, sizeof k);
        return bytes;
    };
    return fp64 ? pack(double(0)) : pack(float(0));
}

void fitChunk(DeviceRun& r, std::size_t chunk) {
    if (std::size_t(tunableInt(r.values, "STRIP_FRAMES")) > chunk)
        r.values["STRIP_FRAMES"] = std::to_string(chunk);
}

// Every buffer of a run; the frames buffer only when the frames go up whole (a stream lends its
// own two, StreamUpload).
void allocate(DeviceRun& r, const Window& window, std::size_t chunk, std::size_t plane, DType d,
              bool frames) {
    if (frames) r.frames = r.s.allocate(chunk * plane * dtypeSize(d), "spots frames");
    r.signal = r.s.allocate(chunk * plane, "spots signal");
    const int tuned = tuningValue(r.p, "LIST_CAPACITY", 0);
    r.capacity = tuned > 0 ? std::size_t(tuned) : chunk * plane / listFraction + 4096;
    r.list = r.s.allocate(r.capacity * 4, "spots signal list");
    r.count = r.s.allocate(4, "spots signal count");
    if (window.extended()) {
        r.scratchA = r.s.allocate(chunk * plane, "spots dispersive");
        r.scratchB = r.s.allocate(chunk * plane, "spots classes");
    }
    if (window.sat()) {
        r.tableM = r.s.allocate(chunk * plane * 4, "spots sat count");
        r.tableX = r.s.allocate(chunk * plane * 8, "spots sat sum");
        r.tableY = r.s.allocate(chunk * plane * 8, "spots sat squares");
    }
}

// The chunk's signal pixels into the lists of its frames (`frames`: the chunk's first frame's
// list) and, when given, into `signal` (zeroed by the caller): the list that the mask's kernel
// filled when it fits, else the whole mask. Returns whether the mask had to be fetched.
bool fetchSignal(DeviceRun& r, std::size_t pixels, std::uint8_t* signal,
                 std::vector<std::uint32_t>* frames) {
    const std::size_t plane = std::size_t(r.w) * std::size_t(r.h);
    cl_uint count = 0;
    r.s.download(r.count, &count, 4, "copy D->H signal count");
    if (count > r.capacity) {
        std::vector<std::uint8_t> whole(signal ? 0 : pixels);
        std::uint8_t* mask = signal ? signal : whole.data();
        writeMask(r);
        r.s.download(r.signal, mask, pixels, "copy D->H signal mask (list overflow)");
        for (std::size_t index = 0; index < pixels; ++index)
            if (mask[index]) frames[index / plane].push_back(std::uint32_t(index % plane));
        return true;
    }
    std::vector<cl_uint> list(count);
    r.s.download(r.list, list.data(), count * sizeof(cl_uint), "copy D->H signal list");
    for (const cl_uint index : list) {
        if (signal) signal[index] = 1;
        frames[index / plane].push_back(std::uint32_t(index % plane));
    }
    return false;
}

} // namespace clscope::spots::device
