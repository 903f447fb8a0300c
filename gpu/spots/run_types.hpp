// The input and result types of spots::Algorithm (algorithm.cpp, split.cpp).
#pragma once
#include "core/azint/expt.hpp"
#include "core/spots/per_image.hpp"
#include "core/spots/spots.hpp"
#include "gpu/algorithm.hpp"

#include <memory>
#include <optional>
#include <string>

namespace clscope::spots {

class SpotsInput;

// A part of a run split into bands of rows (split.cpp, bands.cpp): the part's frames are rows
// [first, first + its height) of every frame of `whole`; rows [keep0, keep1) of the frame are
// its own, the others a halo. join() groups the spots over `whole` with `params`.
struct Band {
    const SpotsInput* whole = nullptr; // runOnDevices keeps it alive until join() returns
    std::size_t first = 0, keep0 = 0, keep1 = 0;
    Params params; // global_threshold = auto already estimated on the whole input
};

class SpotsInput : public AlgorithmInput {
  public:
    Input data;
    bool signalMask = true;           // false: the result keeps per-frame signal pixel lists only
    std::shared_ptr<const Band> band; // set on the parts of a run split into bands
    std::string describe() const override {
        const Array& a = data.frames;
        return std::to_string(a.frameCount()) + " frame(s) of " + std::to_string(a.height()) + "x" +
               std::to_string(a.width()) + " " + dtypeName(a.dtype()) +
               (data.mask.bad.empty() ? ", no pixel mask" : ", pixel mask");
    }
};

// An input with the pixel mask role read (checked against height x width) and the provenance
// of every role; frames left empty (read() and budgeted passes fill them).
std::shared_ptr<SpotsInput> readMaskRole(const InputSources& sources, std::size_t height,
                                         std::size_t width);

class SpotsResult : public AlgorithmResult {
  public:
    Result result;
    std::optional<DebugImages> debug; // --debug: DIALS' threshold steps, from the host reference
    std::string note;                 // e.g. tests in float on a device without fp64
    std::shared_ptr<const Band> band; // the input's band (a part of a split run), for join()
    void write(H5Writer& out, const std::string& group) const override;
    // DIALS' per-image analysis when the run's parameters name a geometry (expt), else none.
    std::optional<PerImageStats> perImage() const;
    // The grid scan that experiment list declares (an ImageGrid's grid_size), else none.
    std::optional<azint::ExptGrid> exptGrid() const;
    std::string summary() const override {
        std::size_t strong = 0;
        for (auto n : result.strongPerFrame)
            strong += static_cast<std::size_t>(n);
        return std::to_string(strong) + " signal pixels, " + std::to_string(result.spots.size()) +
               " spots" + (note.empty() ? "" : " (" + note + ")");
    }
};

} // namespace clscope::spots
