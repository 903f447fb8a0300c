// A build without ZeroMQ, CBOR or LZ4 (core/CMakeLists.txt): a tcp:// input is refused with
// what to install; everything else of clscope works as usual.
#include "core/errors.hpp"
#include "core/stream/stream_source.hpp"

namespace clscope::stream {

struct FrameSource::State {};

FrameSource::FrameSource(SourceOptions options) {
    throw UsageError(options.endpoint +
                     ": this clscope was built without live input (libzmq, libcbor and liblz4 "
                     "were not found): install libzmq3-dev libcbor-dev liblz4-dev and rebuild");
}
FrameSource::~FrameSource() = default;
const StartMessage& FrameSource::start() const {
    throw UsageError("no live input");
}
DType FrameSource::dtype() const {
    throw UsageError("no live input");
}
std::string FrameSource::describe() const {
    return "no live input";
}
std::optional<Array> FrameSource::read(std::size_t) {
    throw UsageError("no live input");
}
std::vector<Array> FrameSource::takeFrames(std::size_t) {
    throw UsageError("no live input");
}
void FrameSource::recycle(Array&&) {}
std::uint64_t FrameSource::framesRead() const {
    return 0;
}
std::uint64_t FrameSource::framesReceived() const {
    return 0;
}
std::uint64_t FrameSource::queueFullWaits() const {
    return 0;
}
std::size_t FrameSource::queueFrames() const {
    return 0;
}
std::size_t FrameSource::decodeWorkers() const {
    return 0;
}
bool FrameSource::timedOut() const {
    return false;
}

} // namespace clscope::stream
