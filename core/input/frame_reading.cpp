#include "core/input/frame_reading.hpp"
#include "core/errors.hpp"

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

std::string tooFewFrames(const InputRole& role, const std::string& algorithm,
                         const std::string& where, std::uint64_t frames, bool single) {
    if (frames >= role.minFrames) return {};
    const std::string least = std::to_string(role.minFrames);
    if (single)
        return where + " is a single 2-D image; " + algorithm +
               " needs a stack (T,H,W) of at least " + least + " frames";
    return where + " gives " + std::to_string(frames) + (frames == 1 ? " frame" : " frames") +
           "; " + algorithm + " needs at least " + least;
}

void checkFrameCounts(const std::vector<InputRole>& roles, const std::string& algorithm,
                      const InputSources& sources) {
    if (sources.live) return;
    for (const InputRole& role : roles) {
        if (!role.stack || role.minFrames == 0 || sources.inMemory(role)) continue;
        const DataLocation at = sources.locate(role);
        const auto frames = openFrames(sources, role);
        const std::string why = tooFewFrames(role, algorithm, at.file + ":" + at.path,
                                             frames->frameCount(), !frames->isStack());
        if (!why.empty()) throw InputError(why);
    }
}

} // namespace clscope
