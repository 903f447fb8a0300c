#include "core/range_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace clscope {

namespace {

// Workers made on first use, up to the most pieces asked for; one call at a time (callers on
// several threads take turns).
class RangePool {
  public:
    static RangePool& instance() {
        static RangePool pool;
        return pool;
    }
    ~RangePool() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : workers_)
            t.join();
    }

    void run(std::size_t n, std::size_t parts,
             const std::function<void(std::size_t, std::size_t)>& f) {
        std::lock_guard turn(turn_);
        {
            std::lock_guard lock(mutex_);
            while (workers_.size() + 1 < parts)
                workers_.emplace_back([this] { work(); });
            f_ = &f, n_ = n, parts_ = parts, next_ = 1, done_ = 0, error_ = nullptr;
        }
        wake_.notify_all();
        runPiece(0);
        std::unique_lock lock(mutex_);
        ++done_;
        finished_.wait(lock, [&] { return done_ == parts_; });
        f_ = nullptr;
        if (error_) std::rethrow_exception(error_);
    }

  private:
    void runPiece(std::size_t i) {
        try {
            (*f_)(n_ * i / parts_, n_ * (i + 1) / parts_);
        } catch (...) {
            std::lock_guard lock(mutex_);
            if (!error_) error_ = std::current_exception();
        }
    }
    void work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stop_ || next_ < parts_; });
            if (stop_) return;
            const std::size_t i = next_++;
            lock.unlock();
            runPiece(i);
            lock.lock();
            if (++done_ == parts_) finished_.notify_one();
        }
    }

    std::mutex turn_, mutex_;
    std::condition_variable wake_, finished_;
    std::vector<std::thread> workers_;
    const std::function<void(std::size_t, std::size_t)>* f_ = nullptr;
    std::size_t n_ = 0, parts_ = 0, next_ = 0, done_ = 0;
    std::exception_ptr error_;
    bool stop_ = false;
};

} // namespace

void parallelRanges(std::size_t n, std::size_t parts,
                    const std::function<void(std::size_t, std::size_t)>& f) {
    parts = std::clamp<std::size_t>(parts, 1, std::max<std::size_t>(n, 1));
    if (parts == 1) return f(0, n);
    RangePool::instance().run(n, parts, f);
}

} // namespace clscope
