// An algorithm's part of a live run through the streaming pipeline (Algorithm::streamStage,
// gpu/pipeline).
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/facets/typed_run.hpp"

#include <memory>
#include <vector>

namespace clscope {

class StreamFacet : public Facet {
  public:
    // The stage of the run (its request's variant, "" for the default, and parameters parsed;
    // no input: the frames stream) on `devices`; null where the run needs the whole stack.
    virtual std::unique_ptr<pipeline::FrameStage>
    stage(const PreparedRun& run, const std::vector<DeviceInfo>& devices) const = 0;
};

// A is the algorithm (its TypedAlgorithm's Run type).
template <class A> class TypedStream : public StreamFacet {
  public:
    using Run = typename A::Run;
    std::unique_ptr<pipeline::FrameStage>
    stage(const PreparedRun& run, const std::vector<DeviceInfo>& devices) const final {
        return stageWith(runOf<Run>(run), devices);
    }

  protected:
    virtual std::unique_ptr<pipeline::FrameStage>
    stageWith(const Run& run, const std::vector<DeviceInfo>& devices) const = 0;
};

} // namespace clscope
