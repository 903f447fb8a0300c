// The toy's optional facets, in its own folder like every algorithm's: its frames cut for
// several devices (split/join) and for a memory budget (planPasses), and its synthetic dataset
// (`generate toyframes` in the suites that register the toy).
#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "gpu/scale/passes.hpp"
#include "toy/algorithm.hpp"

#include <cstring>
#include <random>

namespace clscope::toy {

namespace {

// Frames [first, first + count) of a stack.
Array framesOf(const Array& frames, std::size_t first, std::size_t count) {
    Array out(frames.dtype(), {count, frames.height(), frames.width()});
    const std::size_t bytes = frames.frameSize() * dtypeSize(frames.dtype());
    std::memcpy(out.bytes(), frames.bytes() + first * bytes, count * bytes);
    return out;
}

class FramePlan : public PassPlan {
  public:
    std::shared_ptr<const FrameStream> stream;
    std::size_t perPass = 1;
    ParamSet params;
    std::size_t count() const override { return (stream->frameCount() + perPass - 1) / perPass; }
    Algorithm::Part read(std::size_t pass) const override {
        const std::size_t first = pass * perPass;
        auto in = makeFrameSumsInput(
            stream->read(first, std::min(perPass, stream->frameCount() - first)));
        in->provenance = provenance;
        return {in, params};
    }
};

std::string writeSynthetic(const ParamSet& o, std::uint64_t seed, Compression c,
                           const std::string& path) {
    const auto size = [&](const char* name) { return static_cast<std::size_t>(o.integer(name)); };
    Array frames(DType::UInt16, {size("frames"), size("height"), size("width")});
    std::mt19937_64 rng(seed);
    for (std::uint16_t& v : frames.as<std::uint16_t>())
        v = static_cast<std::uint16_t>(rng() % 1000);
    H5Writer out(path);
    out.write(paths::frames, frames, c);
    out.commit();
    return shapeString(frames.shape()) + " uint16 frames";
}

} // namespace

std::vector<Algorithm::Part> FrameSums::split(const AlgorithmInput& input, const ParamSet& params,
                                              std::size_t parts) const {
    const Array& frames = dynamic_cast<const FrameSumsInput&>(input).frames;
    const std::size_t n = frames.frameCount(),
                      per = (n + parts - 1) / std::max<std::size_t>(parts, 1);
    std::vector<Part> out;
    for (std::size_t first = 0; first < n; first += per)
        out.push_back(
            {makeFrameSumsInput(framesOf(frames, first, std::min(per, n - first))), params});
    return out;
}

std::shared_ptr<AlgorithmResult>
FrameSums::join(const std::vector<std::shared_ptr<AlgorithmResult>>& parts) const {
    auto out = std::make_shared<FrameSumsResult>();
    out->info = parts.front()->info;
    for (const auto& part : parts) {
        const auto& sums = dynamic_cast<const FrameSumsResult&>(*part).sums;
        out->sums.insert(out->sums.end(), sums.begin(), sums.end());
    }
    return out;
}

std::unique_ptr<PassPlan> FrameSums::planPasses(const InputSources& sources, const ParamSet& params,
                                                std::uint64_t budget) const {
    std::shared_ptr<const FrameStream> stream = openFrames(sources, inputRoles()[0]);
    if (budgetBytes(stream->frameCount(), stream->frameBytes(), "frames") <= budget) return nullptr;
    if (stream->frameBytes() > budget) overBudget("one frame", stream->frameBytes(), budget);
    auto plan = std::make_unique<FramePlan>();
    plan->perPass = stream->framesWithin(budget);
    plan->params = params;
    plan->provenance = provenanceOf(sources);
    plan->stream = std::move(stream);
    return plan;
}

std::vector<SyntheticKind> FrameSums::syntheticKinds() const {
    using T = ParamSpec::Type;
    return {{"toyframes",
             "Random uint16 frames for the toy",
             {syntheticOption("frames", T::Int, 5, "Number of frames", 1, 1e6),
              syntheticOption("height", T::Int, 4, "Frame height", 1, 1e4),
              syntheticOption("width", T::Int, 3, "Frame width", 1, 1e4)},
             writeSynthetic,
             paths::frames}};
}

} // namespace clscope::toy
