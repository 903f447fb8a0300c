#include "core/range_pool.hpp"

#include <algorithm>

namespace clscope {

RangePool::RangePool(std::size_t threads) {
    for (std::size_t t = 1; t < std::max<std::size_t>(threads, 1); ++t)
        workers_.emplace_back([this] { work(); });
}

RangePool::~RangePool() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_)
        t.join();
}

void RangePool::run(std::size_t n, std::size_t pieces,
                    const std::function<void(std::size_t, std::size_t)>& f) {
    pieces = std::clamp<std::size_t>(pieces, 1, std::max<std::size_t>(n, 1));
    if (pieces == 1 || workers_.empty()) return f(0, n);
    std::lock_guard turn(turn_);
    {
        std::lock_guard lock(mutex_);
        f_ = &f, n_ = n, pieces_ = pieces, next_ = 0, done_ = 0, error_ = nullptr;
    }
    wake_.notify_all();
    std::unique_lock lock(mutex_);
    while (next_ < pieces_) { // the caller takes pieces too
        const std::size_t i = next_++;
        lock.unlock();
        runPiece(i);
        lock.lock();
        ++done_;
    }
    finished_.wait(lock, [&] { return done_ == pieces_; });
    f_ = nullptr;
    if (error_) std::rethrow_exception(error_);
}

void RangePool::runPiece(std::size_t i) {
    try {
        (*f_)(n_ * i / pieces_, n_ * (i + 1) / pieces_);
    } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
    }
}

void RangePool::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stop_ || next_ < pieces_; });
        if (stop_) return;
        const std::size_t i = next_++;
        lock.unlock();
        runPiece(i);
        lock.lock();
        if (++done_ == pieces_) finished_.notify_one();
    }
}

void parallelRanges(std::size_t n, std::size_t parts,
                    const std::function<void(std::size_t, std::size_t)>& f) {
    static RangePool pool(std::max(1u, std::thread::hardware_concurrency()));
    pool.run(n, parts, f);
}

void touchPages(void* at, std::size_t bytes) {
    constexpr std::size_t page = 4096;
    auto* p = static_cast<unsigned char*>(at);
    const std::size_t pages = (bytes + page - 1) / page;
    if (pages == 0) return;
    parallelRanges(pages, std::max(1u, std::thread::hardware_concurrency()),
                   [p](std::size_t begin, std::size_t end) {
                       for (std::size_t i = begin; i < end; ++i)
                           p[i * page] = 0;
                   });
}

} // namespace clscope
