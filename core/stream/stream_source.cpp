#include "core/stream/stream_source.hpp"

#include "core/errors.hpp"
#include "core/stream/ordered_pool.hpp"

#include <zmq.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace clscope::stream {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int PollMs = 100; // how often the receiver looks at the stop flag
// Messages ZeroMQ may hold for us beyond our own queue (SourceOptions::queueFrames). Its default,
// 1000, let a consumer slower than the detector hold up to 1000 frames in its memory (4 GB of
// bslz4 EIGER2 16M frames); with 32 the publisher's side waits instead. H100 host, 16M bslz4,
// 1000 frames, spots end to end: 32 gave 520-553 frames/s, 1000 467-569, 8 438-483.
constexpr int ReceiveHighWaterMark = 32;

std::string seconds(double s) {
    std::string t = std::to_string(s);
    t.erase(t.find_last_not_of('0') + 1);
    if (t.back() == '.') t.pop_back();
    return t;
}

} // namespace

struct FrameSource::State {
    SourceOptions options;
    zmq::context_t context{1};
    zmq::socket_t socket{context, zmq::socket_type::pull};
    StartMessage start;
    std::optional<DType> dtype;
    std::uint64_t nextImageId = 0, handedOut = 0, checked = 0;
    std::atomic<std::uint64_t> received = 0; // images decoded
    std::atomic<bool> endSeen = false, timedOut = false;
    std::optional<ReceivedFrame> first; // the first image, received by the constructor
    bool over = false;
    std::unique_ptr<FramePool> frames; // decoded frames recycled once read() copied them
    std::unique_ptr<OrderedPool<Message>> pool;
    std::thread receiver;

    std::string where() const { return "stream " + options.endpoint; }
    bool cancelled() const { return options.cancel && options.cancel->load(); }

    // The next message's bytes, or InputError after timeoutSeconds of silence; nullopt when
    // cancelled or `stop` is set.
    std::optional<zmq::message_t> receive(const std::atomic<bool>& stop) {
        const auto deadline = Clock::now() + std::chrono::duration<double>(options.timeoutSeconds);
        zmq::message_t msg;
        for (;;) {
            if (socket.recv(msg, zmq::recv_flags::none)) return msg;
            if (stop || cancelled()) return std::nullopt;
            if (Clock::now() >= deadline)
                throw InputError(where() + ": no data: no message in " +
                                 seconds(options.timeoutSeconds) + " s");
        }
    }
    Message decode(const zmq::message_t& msg) {
        Message m = decodeMessage({static_cast<const std::byte*>(msg.data()), msg.size()},
                                  start.channel.empty() ? options.channel : start.channel,
                                  frames.get(), options.keepCompressed);
        if (std::holds_alternative<ImageMessage>(m)) ++received;
        if (std::holds_alternative<EndMessage>(m)) endSeen = true;
        return m;
    }

    // An image of this series, in order, of the start's size and the first image's dtype.
    ReceivedFrame check(ImageMessage img) {
        const std::string what = where() + " image " + std::to_string(img.imageId) + ": ";
        const bool packed = !img.packed.empty();
        const Shape shape = packed ? Shape{img.packed.height, img.packed.width} : img.frame.shape();
        const DType type = packed ? img.packed.dtype : img.frame.dtype();
        if (img.seriesId != start.seriesId)
            throw InputError(what + "series_id " + std::to_string(img.seriesId) +
                             ", expected the start message's " + std::to_string(start.seriesId));
        if (img.imageId != nextImageId) throw InputError(what + orderError(img.imageId));
        if (shape[0] != start.height || shape[1] != start.width)
            throw InputError(what + "field 'data': " + shapeString(shape) +
                             " differs from image_size_y x image_size_x " +
                             std::to_string(start.height) + "x" + std::to_string(start.width));
        if (!dtype) dtype = type;
        if (type != *dtype)
            throw InputError(what + "field 'data': dtype " + dtypeName(type) + ", expected " +
                             dtypeName(*dtype));
        nextImageId = img.imageId + 1;
        ++checked;
        return {std::move(img.frame), std::move(img.packed)};
    }

    // Why image `id` cannot follow: a gap (images missing: another PULL client took them, or
    // they were lost) or an image out of order (before the one expected).
    std::string orderError(std::uint64_t id) const {
        const std::string announced =
            start.numberOfImages ? " of " + std::to_string(start.numberOfImages) : "";
        const std::string got = std::to_string(checked) + announced + " frames received";
        const std::string after =
            checked ? "after image " + std::to_string(nextImageId - 1) : "as the first image";
        if (id < nextImageId)
            return "image_id out of order: image " + std::to_string(id) + " " + after +
                   " (expected " + std::to_string(nextImageId) + "); " + got + " in order";
        const std::uint64_t missing = id - nextImageId;
        return "a gap in image_id: image " + std::to_string(id) + " " + after + ", " +
               std::to_string(missing) + (missing == 1 ? " image" : " images") + " (" +
               std::to_string(nextImageId) + (missing == 1 ? "" : ".." + std::to_string(id - 1)) +
               ") missing (another PULL client took them, or they were lost, or they come later: "
               "out of order); " +
               got + " before the gap";
    }

    // An image of the series, or nullopt at its end message; InputError for a start message.
    std::optional<ReceivedFrame> accept(Message m) {
        if (auto* img = std::get_if<ImageMessage>(&m)) return check(std::move(*img));
        over = true;
        if (auto* end = std::get_if<EndMessage>(&m)) {
            if (end->seriesId != start.seriesId)
                throw InputError(where() + ": end message of series " +
                                 std::to_string(end->seriesId) + " inside series " +
                                 std::to_string(start.seriesId));
            return std::nullopt;
        }
        throw InputError(where() + ": a start message before the end of series " +
                         std::to_string(start.seriesId));
    }
    // The next image, in order (waiting for it, or only if decoded already); nullopt at the
    // end of the series (end message, maxFrames, a stop). Rethrows a decoding or receiving error.
    std::optional<ReceivedFrame> next(bool wait) {
        if (over || (options.maxFrames && checked >= options.maxFrames)) return std::nullopt;
        std::optional<Message> m = wait ? pool->take() : pool->takeReady();
        if (!m) {
            over = over || wait;
            return std::nullopt;
        }
        return accept(std::move(*m));
    }

    // Receives until the end message is decoded, maxFrames images are in, an error (queued,
    // after the messages before it) or a stop; each message is decoded by the pool.
    void run(const std::atomic<bool>& stop) {
        std::uint64_t submitted = 1; // the first image, received by the constructor
        try {
            while (!endSeen && !(options.maxFrames && submitted >= options.maxFrames)) {
                auto msg = receive(stop);
                if (!msg) break;
                auto bytes = std::make_shared<zmq::message_t>(std::move(*msg));
                if (!pool->submit([this, bytes] { return decode(*bytes); })) break;
                ++submitted;
            }
        } catch (const InputError&) { // silence for timeoutSeconds: the series ends here
            timedOut = true;
        } catch (...) {
            pool->submit(
                [e = std::current_exception()]() -> Message { std::rethrow_exception(e); });
        }
        pool->finish();
    }
    std::atomic<bool> stopReceiving = false;
};

namespace {

std::size_t decodeThreads(std::size_t asked) {
    if (asked) return asked;
    if (const char* env = std::getenv("CLSCOPE_DECODE_THREADS"); env && std::atoi(env) > 0)
        return std::size_t(std::atoi(env));
    return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 2, 17) - 1;
}

} // namespace

FrameSource::FrameSource(SourceOptions options) : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.options = std::move(options);
    s.socket.set(zmq::sockopt::rcvtimeo, PollMs);
    s.socket.set(zmq::sockopt::linger, 0);
    s.socket.set(zmq::sockopt::rcvhwm, ReceiveHighWaterMark);
    try {
        s.socket.connect(s.options.endpoint);
    } catch (const zmq::error_t& e) {
        throw InputError(s.where() + ": cannot connect (" + e.what() + ")");
    }
    auto message = [&s] { // the next message, decoded here; Cancelled when cancelled
        auto bytes = s.receive(s.stopReceiving);
        if (!bytes) throw Cancelled();
        return s.decode(*bytes);
    };
    Message m = message();
    if (auto* start = std::get_if<StartMessage>(&m))
        s.start = std::move(*start);
    else
        throw InputError(s.where() + ": expected a start message first");
    s.dtype = s.start.dtype;
    m = message(); // the first image gives the dtype when the start does not
    s.first = s.accept(std::move(m));
    if (!s.first) throw InputError(s.where() + ": the series ended before its first image");
    const std::size_t frameBytes =
        std::max<std::size_t>(s.start.height * s.start.width * dtypeSize(*s.dtype), 1);
    const std::size_t capacity = std::max<std::size_t>(
        std::min(s.options.queueFrames, s.options.queueBytes / frameBytes), 2);
    s.options.queueFrames = capacity;
    s.frames = std::make_unique<FramePool>(capacity + 1);
    s.pool = std::make_unique<OrderedPool<Message>>(
        std::min(decodeThreads(s.options.decodeThreads), capacity), capacity);
    s.receiver = std::thread([&s] { s.run(s.stopReceiving); });
}

FrameSource::~FrameSource() {
    state_->stopReceiving = true;
    if (state_->pool) state_->pool->stop();
    if (state_->receiver.joinable()) state_->receiver.join();
}

const StartMessage& FrameSource::start() const {
    return state_->start;
}
DType FrameSource::dtype() const {
    return *state_->dtype;
}
std::uint64_t FrameSource::framesRead() const {
    return state_->handedOut;
}

std::uint64_t FrameSource::framesReceived() const {
    return state_->received;
}
std::size_t FrameSource::queueFrames() const {
    return state_->options.queueFrames;
}
std::uint64_t FrameSource::queueFullWaits() const {
    return state_->pool->fullWaits();
}
bool FrameSource::timedOut() const {
    return state_->timedOut;
}
std::size_t FrameSource::decodeWorkers() const {
    return state_->pool->workers();
}

std::string FrameSource::describe() const {
    const StartMessage& s = start();
    return state_->where() + ", series " + std::to_string(s.seriesId) + ", " +
           (s.numberOfImages ? std::to_string(s.numberOfImages) : std::string("?")) +
           " images of " + std::to_string(s.height) + "x" + std::to_string(s.width) + " " +
           dtypeName(dtype());
}

std::vector<ReceivedFrame> FrameSource::takeReceived(std::size_t maxCount) {
    State& s = *state_;
    std::vector<ReceivedFrame> frames;
    if (s.first) frames.push_back(std::move(*s.first)), s.first.reset();
    while (frames.size() < std::max<std::size_t>(maxCount, 1))
        if (auto frame = s.next(frames.empty()))
            frames.push_back(std::move(*frame));
        else
            break;
    s.handedOut += frames.size();
    return frames;
}

std::vector<Array> FrameSource::takeFrames(std::size_t maxCount) {
    std::vector<ReceivedFrame> got = takeReceived(maxCount);
    std::vector<Array> frames;
    frames.reserve(got.size());
    for (ReceivedFrame& f : got)
        frames.push_back(f.packed.empty() ? std::move(f.frame)
                                          : decodePacked(f.packed, state_->frames.get()));
    return frames;
}

std::optional<Array> FrameSource::read(std::size_t maxCount) {
    std::vector<Array> frames = takeFrames(maxCount);
    if (frames.empty()) return std::nullopt;
    Array out(dtype(), {frames.size(), height(), width()});
    const std::size_t bytes = frames[0].byteSize();
    for (std::size_t i = 0; i < frames.size(); ++i) {
        std::memcpy(out.bytes() + i * bytes, frames[i].bytes(), bytes);
        state_->frames->give(std::move(frames[i]));
    }
    return out;
}

void FrameSource::recycle(Array&& frame) {
    state_->frames->give(std::move(frame));
}

} // namespace clscope::stream
