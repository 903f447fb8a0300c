// The input and result types of SpotsAlgorithm (algorithm.cpp, split.cpp).
#pragma once
#include "core/spots/spots.hpp"
#include "gpu/algorithm.hpp"

#include <optional>
#include <string>

namespace clscope::spots {

class SpotsInput : public AlgorithmInput {
  public:
    Input data;
    bool signalMask = true; // false: the result keeps per-frame signal pixel lists only
    std::string describe() const override {
        const Array& a = data.frames;
        return std::to_string(a.frameCount()) + " frame(s) of " + std::to_string(a.height()) + "x" +
               std::to_string(a.width()) + " " + dtypeName(a.dtype()) +
               (data.mask.bad.empty() ? ", no pixel mask" : ", pixel mask");
    }
};

class SpotsResult : public AlgorithmResult {
  public:
    Result result;
    std::optional<DebugImages> debug; // --debug: DIALS' threshold steps, from the host reference
    std::string note;                 // e.g. tests in float on a device without fp64
    void write(H5Writer& out, const std::string& group) const override;
    std::string summary() const override {
        std::size_t strong = 0;
        for (auto n : result.strongPerFrame)
            strong += static_cast<std::size_t>(n);
        return std::to_string(strong) + " signal pixels, " + std::to_string(result.spots.size()) +
               " spots" + (note.empty() ? "" : " (" + note + ")");
    }
};

} // namespace clscope::spots
