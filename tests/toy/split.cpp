// The toy over several devices: contiguous frame ranges, joined by concatenation. Untyped: it
// casts the prepared run's input and the parts' results itself.
#include "gpu/facets/split_facet.hpp"
#include "toy/algorithm.hpp"
#include "toy/facets.hpp"

#include <cstring>

namespace clscope::toy {

namespace {

// Frames [first, first + count) of a stack.
Array framesOf(const Array& frames, std::size_t first, std::size_t count) {
    Array out(frames.dtype(), {count, frames.height(), frames.width()});
    const std::size_t bytes = frames.frameSize() * dtypeSize(frames.dtype());
    std::memcpy(out.bytes(), frames.bytes() + first * bytes, count * bytes);
    return out;
}

class FrameSplit : public SplitFacet {
  public:
    std::vector<Algorithm::Part> split(const PreparedRun& run, std::size_t parts) const override {
        const Array& frames = dynamic_cast<const FrameSumsInput&>(*run.request().input).frames;
        const std::size_t n = frames.frameCount(),
                          per = (n + parts - 1) / std::max<std::size_t>(parts, 1);
        std::vector<Algorithm::Part> out;
        for (std::size_t first = 0; first < n; first += per)
            out.push_back({makeFrameSumsInput(framesOf(frames, first, std::min(per, n - first))),
                           run.values()});
        return out;
    }
    std::shared_ptr<AlgorithmResult>
    join(const Algorithm&,
         const std::vector<std::shared_ptr<AlgorithmResult>>& parts) const override {
        auto out = std::make_shared<FrameSumsResult>();
        out->info = parts.front()->info;
        for (const auto& part : parts) {
            const auto& sums = dynamic_cast<const FrameSumsResult&>(*part).sums;
            out->sums.insert(out->sums.end(), sums.begin(), sums.end());
        }
        return out;
    }
};

} // namespace

std::shared_ptr<const Facet> splitFacet() {
    return std::make_shared<FrameSplit>();
}

} // namespace clscope::toy
