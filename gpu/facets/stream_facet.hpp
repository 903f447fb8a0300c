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

// A is the algorithm (its TypedAlgorithm's Run type). A stage runs on one OpenCL device: on
// several devices or the host there is none (the run goes through passes).
template <class A> class TypedStream : public StreamFacet {
  public:
    using Run = typename A::Run;
    std::unique_ptr<pipeline::FrameStage>
    stage(const PreparedRun& run, const std::vector<DeviceInfo>& devices) const final {
        if (devices.size() != 1 || run.request().device.isHost()) return nullptr;
        return stageWith(runOf<Run>(run));
    }

  protected:
    // The stage on the request's device; null where the variant or parameters need the stack.
    virtual std::unique_ptr<pipeline::FrameStage> stageWith(const Run& run) const = 0;
    // The request's variant, or the algorithm's default for its device and parameters.
    static std::string variantOf(const Run& run) {
        const RunRequest& request = run.request();
        return request.variant.empty()
                   ? run.algorithm().defaultVariant(request.device, nullptr, &request.params)
                   : request.variant;
    }
};

} // namespace clscope
