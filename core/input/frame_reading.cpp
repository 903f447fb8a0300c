#include "core/input/frame_reading.hpp"

namespace clscope {

std::shared_ptr<FrameStream> openFrames(const InputSources& sources, const InputRole& role) {
    const DataLocation at = sources.locate(role);
    auto stream = sources.live && at.file == sources.file
                      ? std::make_shared<FrameStream>(sources.live)
                      : std::make_shared<FrameStream>(at.file, at.path, sources.frameTime);
    if (!sources.frames.all()) {
        const auto [first, end] =
            sources.frames.within(stream->frameCount(), at.file + ":" + at.path);
        stream->window(first, end - first);
    }
    return stream;
}

} // namespace clscope
