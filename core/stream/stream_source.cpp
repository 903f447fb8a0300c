#include "core/stream/stream_source.hpp"

#include "core/errors.hpp"

#include <zmq.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace clscope::stream {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int PollMs = 100; // how often the receiver looks at the stop flag

std::string seconds(double s) {
    std::string t = std::to_string(s);
    t.erase(t.find_last_not_of('0') + 1);
    if (t.back() == '.') t.pop_back();
    return t;
}

} // namespace

// One queue entry: a frame, the end of the series, or the receiver's error.
struct Item {
    Array frame;
    std::exception_ptr error;
    bool end = false;
};

struct FrameSource::State {
    SourceOptions options;
    zmq::context_t context{1};
    zmq::socket_t socket{context, zmq::socket_type::pull};
    StartMessage start;
    std::optional<DType> dtype;
    std::uint64_t nextImageId = 0, handedOut = 0;
    std::atomic<std::uint64_t> received = 0;
    std::uint64_t fullWaits = 0; // pushes that found the queue full (under mutex)
    bool over = false;

    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Item> queue;
    bool stop = false;
    std::thread receiver;

    std::string where() const { return "stream " + options.endpoint; }

    // The next message, or InputError after timeoutSeconds of silence; nullopt when stopped.
    std::optional<Message> receive() {
        const auto deadline = Clock::now() + std::chrono::duration<double>(options.timeoutSeconds);
        zmq::message_t msg;
        for (;;) {
            if (socket.recv(msg, zmq::recv_flags::none))
                return decodeMessage({static_cast<const std::byte*>(msg.data()), msg.size()},
                                     start.channel.empty() ? options.channel : start.channel);
            if (stopping()) return std::nullopt;
            if (Clock::now() >= deadline)
                throw InputError(where() + ": no data: no message in " +
                                 seconds(options.timeoutSeconds) + " s");
        }
    }
    bool stopping() {
        std::lock_guard lock(mutex);
        return stop || cancelled();
    }
    bool cancelled() const { return options.cancel && options.cancel->load(); }

    // An image of this series, in order, of the start's size and the first image's dtype.
    Array check(ImageMessage img) {
        const std::string what = where() + " image " + std::to_string(img.imageId) + ": ";
        if (img.seriesId != start.seriesId)
            throw InputError(what + "series_id " + std::to_string(img.seriesId) +
                             ", expected the start message's " + std::to_string(start.seriesId));
        if (received > 0 && img.imageId != nextImageId)
            throw InputError(what + "image_id out of order, expected " +
                             std::to_string(nextImageId) + " (a frame is missing)");
        if (img.frame.height() != start.height || img.frame.width() != start.width)
            throw InputError(what + "field 'data': " + shapeString(img.frame.shape()) +
                             " differs from image_size_y x image_size_x " +
                             std::to_string(start.height) + "x" + std::to_string(start.width));
        if (!dtype) dtype = img.frame.dtype();
        if (img.frame.dtype() != *dtype)
            throw InputError(what + "field 'data': dtype " + dtypeName(img.frame.dtype()) +
                             ", expected " + dtypeName(*dtype));
        nextImageId = img.imageId + 1;
        ++received;
        return std::move(img.frame);
    }

    // Next item of the series (a frame, or the end).
    Item next() {
        if (options.maxFrames && received >= options.maxFrames) return {{}, {}, true};
        auto m = receive();
        if (!m) return {{}, {}, true};
        if (auto* img = std::get_if<ImageMessage>(&*m)) return {check(std::move(*img)), {}, false};
        if (auto* end = std::get_if<EndMessage>(&*m)) {
            if (end->seriesId != start.seriesId)
                throw InputError(where() + ": end message of series " +
                                 std::to_string(end->seriesId) + " inside series " +
                                 std::to_string(start.seriesId));
            return {{}, {}, true};
        }
        throw InputError(where() + ": a start message before the end of series " +
                         std::to_string(start.seriesId));
    }

    void push(Item item) {
        std::unique_lock lock(mutex);
        if (queue.size() >= options.queueFrames) ++fullWaits;
        changed.wait(lock, [&] { return stop || queue.size() < options.queueFrames; });
        queue.push_back(std::move(item));
        changed.notify_all();
    }

    // Until the end of the series, an error, or a stop (then an end, so read() returns).
    void run() {
        for (bool end = false; !end;) {
            Item item{{}, {}, true};
            try {
                if (!stopping()) item = next();
            } catch (...) {
                item = {{}, std::current_exception(), true};
            }
            end = item.end;
            push(std::move(item));
        }
    }
};

FrameSource::FrameSource(SourceOptions options) : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.options = std::move(options);
    if (s.options.queueFrames == 0) s.options.queueFrames = 1;
    s.socket.set(zmq::sockopt::rcvtimeo, PollMs);
    s.socket.set(zmq::sockopt::linger, 0);
    try {
        s.socket.connect(s.options.endpoint);
    } catch (const zmq::error_t& e) {
        throw InputError(s.where() + ": cannot connect (" + e.what() + ")");
    }
    auto m = s.receive();
    if (!m && s.cancelled()) throw Cancelled();
    if (auto* start = m ? std::get_if<StartMessage>(&*m) : nullptr)
        s.start = std::move(*start);
    else
        throw InputError(s.where() + ": expected a start message first");
    s.dtype = s.start.dtype;
    Item first = s.next(); // the first image gives the dtype when the start does not
    if (first.end && s.cancelled()) throw Cancelled();
    if (first.end) throw InputError(s.where() + ": the series ended before its first image");
    const std::size_t frameBytes =
        std::max<std::size_t>(s.start.height * s.start.width * dtypeSize(*s.dtype), 1);
    s.options.queueFrames = std::min(s.options.queueFrames,
                                     std::max<std::size_t>(s.options.queueBytes / frameBytes, 2));
    s.queue.push_back(std::move(first));
    s.receiver = std::thread([&s] { s.run(); });
}

FrameSource::~FrameSource() {
    {
        std::lock_guard lock(state_->mutex);
        state_->stop = true;
    }
    state_->changed.notify_all();
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
    std::lock_guard lock(state_->mutex);
    return state_->fullWaits;
}

std::string FrameSource::describe() const {
    const StartMessage& s = start();
    return state_->where() + ", series " + std::to_string(s.seriesId) + ", " +
           (s.numberOfImages ? std::to_string(s.numberOfImages) : std::string("?")) +
           " images of " + std::to_string(s.height) + "x" + std::to_string(s.width) + " " +
           dtypeName(dtype());
}

std::optional<Array> FrameSource::read(std::size_t maxCount) {
    State& s = *state_;
    if (s.over) return std::nullopt;
    std::vector<Array> frames;
    {
        std::unique_lock lock(s.mutex);
        s.changed.wait(lock, [&] { return !s.queue.empty(); });
        while (!s.queue.empty() && frames.size() < std::max<std::size_t>(maxCount, 1)) {
            Item& item = s.queue.front();
            if (item.error) std::rethrow_exception(item.error);
            if (item.end) {
                s.over = true;
                break;
            }
            frames.push_back(std::move(item.frame));
            s.queue.pop_front();
        }
        s.changed.notify_all();
    }
    if (frames.empty()) return std::nullopt;
    Array out(dtype(), {frames.size(), height(), width()});
    const std::size_t bytes = frames[0].byteSize();
    for (std::size_t i = 0; i < frames.size(); ++i)
        std::memcpy(out.bytes() + i * bytes, frames[i].bytes(), bytes);
    s.handedOut += frames.size();
    return out;
}

} // namespace clscope::stream
