// spots's layouts facet: spots --layout dials -o strong.refl, the spots as the reflection table
// dials.find_spots writes (core/spots/dials_table), from the result alone.
#include "core/errors.hpp"
#include "core/frame_stream.hpp"
#include "core/input/frame_reading.hpp"
#include "core/spots/dials_table.hpp"
#include "gpu/facets/layouts_facet.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/spots/facets.hpp"

namespace clscope::spots {

namespace {

UsageError noFrames() {
    return UsageError("--layout dials cannot hold this run: it lacks frames (the input is one "
                      "(H,W) image; DIALS' bbox and centroid need a frame axis); nothing written");
}

class DialsLayout : public TypedLayouts<Algorithm> {
  public:
    std::vector<OutputLayout> layouts() const override {
        return {{"dials", "a DIALS reflection table (msgpack), read by dials.index"}};
    }
    std::string suffix(const std::string&) const override { return "refl"; }

  protected:
    // A stream is a stack of frames; a file's frames role is probed, not read.
    void checkWith(const std::string&, const InputSources& sources, const Run& run) const override {
        if (sources.live) return;
        if (!openFrames(sources, run.algorithm().role("frames"))->isStack()) throw noFrames();
    }

    LayoutOutput outputWith(const std::string&, const std::shared_ptr<SpotsResult>& result,
                            const InputSources&, const Run&) const override {
        if (result->result.shape.size() != 3) throw noFrames();
        return {{}, dialsReflectionTable(result->result.spots)};
    }
};

} // namespace

std::shared_ptr<const Facet> layoutsFacet() {
    return std::make_shared<DialsLayout>();
}

} // namespace clscope::spots
