// Passes over contiguous frame ranges of a frame stream (the passes facets of algorithms whose
// frames are independent: spots without --3d, azint): what the input needs besides its frames is
// read once (`beside`), each pass reads its frames into a copy of it. Input is the algorithm's
// input type with its frames in `data.frames`.
#pragma once
#include "core/frame_stream.hpp"
#include "gpu/scale/passes.hpp"

#include <algorithm>
#include <functional>
#include <memory>

namespace clscope {

template <class Input> class FrameRangePlan : public PassPlan {
  public:
    std::shared_ptr<const FrameStream> stream;
    std::shared_ptr<const Input> beside; // masks, geometry and provenance, no frames
    std::size_t framesPerPass = 1;
    ParamSet params;
    std::function<void(const Input&)> check; // the algorithm's input check of a pass

    std::size_t count() const override {
        return (stream->frameCount() + framesPerPass - 1) / framesPerPass;
    }

    Algorithm::Part read(std::size_t pass) const override {
        const std::size_t first = pass * framesPerPass;
        // The pass's frames go back to the stream when the pass is done with them: the next
        // pass's read fills them again (a stream's; a file's reads ignore them).
        std::shared_ptr<Input> part(new Input(*beside), [frames = stream](Input* input) {
            frames->recycle(std::move(input->data.frames));
            delete input;
        });
        part->data.frames =
            stream->read(first, std::min(framesPerPass, stream->frameCount() - first));
        if (check) check(*part);
        return {part, params};
    }
};

} // namespace clscope
