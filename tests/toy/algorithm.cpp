#include "toy/algorithm.hpp"
#include "toy/facets.hpp"

#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "core/input/provenance.hpp"
#include "gpu/kernel_source.hpp"
#include "gpu/runtime/session.hpp"

#include <map>
#include <random>
#include <string>

namespace clscope {
// Defined in the generated toy_kernels_embedded.cpp (tests/CMakeLists.txt).
const std::map<std::string, std::string>& toyKernels();
} // namespace clscope

namespace clscope::toy {

namespace {

std::vector<std::uint32_t> asUint32(const Array& frames) {
    std::vector<std::uint32_t> out(frames.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<std::uint32_t>(frames.valueAt(i));
    return out;
}

std::vector<double> sumsOnHost(const Array& frames, double scale, const Progress& progress) {
    std::vector<double> sums(frames.frameCount());
    for (std::size_t t = 0; t < sums.size(); ++t) {
        progress.checkCancel();
        double total = 0;
        for (std::size_t i = 0; i < frames.frameSize(); ++i)
            total += frames.valueAt(t * frames.frameSize() + i);
        sums[t] = scale * total;
        progress.report(double(t + 1) / double(sums.size()));
    }
    return sums;
}

std::vector<double> sumsOnDevice(const RunRequest& r, const Array& frames, double scale, int fault,
                                 TimingStats& timings) {
    ClSession session(r.device);
    const ProgramRecipe recipe = r.programs.apply(frameSumsRecipe());
    const TunableValues tunables = r.programs.over({});
    const std::vector<std::uint32_t> values = asUint32(frames);
    const std::size_t count = frames.frameCount();
    cl::Buffer in = session.allocate(values.size() * 4, "frames");
    cl::Buffer out = session.allocate(count * 8, "sums");
    session.upload(in, values.data(), values.size() * 4, "copy H->D frames");
    cl::Kernel k = session.kernel(recipe, tunables, "frame_sums");
    k.setArg(0, in), k.setArg(1, out), k.setArg(2, cl_uint(frames.frameSize())), k.setArg(3, scale);
    k.setArg(4, cl_int(fault)), k.setArg(5, cl_uint(count));
    session.launch(k, "toy kernel", recipe.shape("frame_sums", tunables, {count}));
    std::vector<double> sums(count);
    session.download(out, sums.data(), count * 8, "copy D->H sums");
    session.finish();
    timings.merge(session.timings());
    return sums;
}

} // namespace

std::string FrameSumsInput::describe() const {
    return std::to_string(frames.frameCount()) + " frames";
}

void FrameSumsResult::write(H5Writer& out, const std::string& group) const {
    out.write(group + "/sums", makeArray<double>({sums.size()}, sums));
    writeProvenance(out, group, {info.device, info.variant, info.parametersJson, info.kernelMs});
}

std::string FrameSumsResult::summary() const {
    return std::to_string(sums.size()) + " frame sums";
}

FrameSums::FrameSums() {
    for (auto facet : {splitFacet(), passesFacet(), syntheticFacet(), benchFacet()})
        add(std::move(facet));
}

std::vector<InputRole> FrameSums::inputRoles() const {
    InputRole frames;
    frames.id = "frames", frames.flag = "--data", frames.defaultPath = paths::frames;
    frames.help = "Frames dataset (T,H,W)", frames.stack = true;
    frames.layout = InputRole::Layout::Frames;
    return {frames};
}

std::vector<ParamSpec> FrameSums::parameterSpecs() const {
    ParamSpec scale = makeParam("scale", ParamSpec::Type::Double, 1.0, "Multiplies every sum");
    scale.min = 0, scale.flag = "--scale";
    ParamSpec fault =
        makeParam("fault", ParamSpec::Type::Choice, "none", "Make the ocl variant wrong");
    fault.choices = {"none", "nan", "off"}, fault.advanced = true, fault.flag = "--fault";
    return {scale, fault};
}

ProgramRecipe frameSumsRecipe() {
    return ProgramRecipe("toy_frame_sums", {"toy_frame_sums"},
                         {integerTunable("LOCAL_SIZE", 16, 1, 1024, "work-group size (frames)")})
        .launch("frame_sums", {{"LOCAL_SIZE"}, {"1"}});
}

std::vector<ProgramRecipe> FrameSums::recipes() const {
    return {frameSumsRecipe()};
}

std::vector<VariantEntry> FrameSums::variants() const {
    return {{{"toy",
              "ocl",
              "one work-item per frame",
              VariantKind::OpenCL,
              "OpenCL 1.2, fp64",
              "{}",
              true,
              {"toy_frame_sums"}},
             {}},
            {{"toy", "cpu", "host reference", VariantKind::Host, "host CPU", "{}", true}, {}}};
}

std::shared_ptr<FrameSumsInput> makeFrameSumsInput(Array frames) {
    auto in = std::make_shared<FrameSumsInput>();
    in->frames = std::move(frames);
    return in;
}

nlohmann::json provenanceOf(const InputSources& sources) {
    return inputProvenance(sources, {FrameSums().role("frames")});
}

std::shared_ptr<const AlgorithmInput> FrameSums::read(const InputSources& sources,
                                                      const ParamSet&) const {
    const auto stream = openFrames(sources, role("frames"));
    auto in = makeFrameSumsInput(stream->read(0, stream->frameCount()));
    in->provenance = provenanceOf(sources);
    return in;
}

std::shared_ptr<AlgorithmResult> FrameSums::run(const RunRequest& r,
                                                const Progress& progress) const {
    const Array& frames = dynamic_cast<const FrameSumsInput&>(*r.input).frames;
    auto out = std::make_shared<FrameSumsResult>();
    const double scale = r.params.number("scale");
    TimingStats timings;
    if (r.variant == "cpu") {
        out->sums = sumsOnHost(frames, scale, progress);
        timings.add("toy cpu", 0.0, true);
    } else {
        const std::string fault = r.params.text("fault");
        out->sums = sumsOnDevice(r, frames, scale,
                                 fault == "nan"   ? 1
                                 : fault == "off" ? 2
                                                  : 0,
                                 timings);
    }
    out->info.timings = timings.records();
    return out;
}

Deviation FrameSums::compare(const AlgorithmResult& result,
                             const AlgorithmResult& reference) const {
    const auto& got = dynamic_cast<const FrameSumsResult&>(result).sums;
    const auto& ref = dynamic_cast<const FrameSumsResult&>(reference).sums;
    if (got.size() != ref.size())
        return {"frame count", 1, 0, 0, 1, 0, "", "different frame counts", false};
    Deviation d = compareValues("|Δ| / |ref|", got.data(), ref.data(), ref.size(), 1e-12, true);
    if (d.firstIndex >= 0) d.firstWhere = "frame " + std::to_string(d.firstIndex);
    return d;
}

void registerForTests() {
    for (const auto& [name, text] : toyKernels())
        addKernelSource(name, text);
    AlgorithmRegistry::instance().add(std::make_shared<FrameSums>());
}

} // namespace clscope::toy
