#include "core/stream/loopback.hpp"

#include <zmq.hpp>

#include <thread>

namespace clscope::stream {

struct LoopbackPublisher::State {
    Bytes start, end;
    std::vector<Bytes> images;
    std::uint64_t count = 0;
    zmq::context_t context{1};
    zmq::socket_t socket{context, zmq::socket_type::push};
    std::string endpoint;
    std::thread sender;

    // False when no receiver took it within the send timeout.
    bool send(const Bytes& b) {
        zmq::message_t m(b.data(), b.size()); // one copy per message (the image_id differs)
        return socket.send(m, zmq::send_flags::none).has_value();
    }
    void run() {
        if (!send(start)) return;
        for (std::uint64_t i = 0; i < count; ++i) {
            Bytes& image = images[i % images.size()];
            setImageId(image, i);
            if (!send(image)) return;
        }
        send(end);
    }
};

LoopbackPublisher::LoopbackPublisher(Bytes start, std::vector<Bytes> images, std::uint64_t count,
                                     Bytes end)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    s.start = std::move(start), s.end = std::move(end), s.images = std::move(images);
    s.count = count;
    s.socket.set(zmq::sockopt::sndhwm, 8);
    s.socket.set(zmq::sockopt::sndtimeo, 10000); // a receiver gone: give up after 10 s
    s.socket.set(zmq::sockopt::linger, 1000);
    s.socket.bind("tcp://127.0.0.1:*");
    s.endpoint = s.socket.get(zmq::sockopt::last_endpoint);
    s.sender = std::thread([&s] { s.run(); });
}

LoopbackPublisher::~LoopbackPublisher() {
    state_->sender.join();
}

const std::string& LoopbackPublisher::endpoint() const {
    return state_->endpoint;
}

std::uint64_t receiveMessages(const std::string& endpoint, std::uint64_t count) {
    zmq::context_t context{1};
    zmq::socket_t socket{context, zmq::socket_type::pull};
    socket.set(zmq::sockopt::rcvhwm, 8);
    socket.connect(endpoint);
    std::uint64_t bytes = 0;
    zmq::message_t m;
    for (std::uint64_t i = 0; i < count; ++i)
        if (socket.recv(m, zmq::recv_flags::none)) bytes += m.size();
    return bytes;
}

} // namespace clscope::stream
