// Jobs run on N worker threads, their results handed out in the order the jobs were submitted
// (a job may finish before an older one; take() waits for the oldest). At most `capacity` jobs
// are held — waiting, running, or done and not yet taken — so memory stays bounded: submit()
// waits while the pool is full, which holds back whoever submits (and counts the wait), and
// nothing is ever dropped. A job's exception is rethrown by the take() that reaches it.
#pragma once
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace clscope::stream {

template <class Result> class OrderedPool {
  public:
    OrderedPool(std::size_t workers, std::size_t capacity)
        : capacity_(std::max<std::size_t>(capacity, 1)) {
        for (std::size_t i = 0; i < std::max<std::size_t>(workers, 1); ++i)
            workers_.emplace_back([this] { work(); });
    }
    ~OrderedPool() {
        stop();
        for (std::thread& t : workers_)
            t.join();
    }
    OrderedPool(const OrderedPool&) = delete;
    OrderedPool& operator=(const OrderedPool&) = delete;

    // Queues `job` once there is room; false (job not queued) when the pool is stopped.
    bool submit(std::function<Result()> job) {
        std::unique_lock lock(mutex_);
        if (slots_.size() >= capacity_) ++fullWaits_;
        changed_.wait(lock, [&] { return stopped_ || slots_.size() < capacity_; });
        if (stopped_ || finished_) return false;
        slots_.push_back(std::make_shared<Slot>());
        slots_.back()->job = std::move(job);
        pending_.push_back(slots_.back());
        changed_.notify_all();
        return true;
    }
    // No more jobs: take() gives nullopt once the ones queued are taken.
    void finish() {
        std::lock_guard lock(mutex_);
        finished_ = true;
        changed_.notify_all();
    }
    // Stops at once: jobs not taken are dropped, submit() and take() return.
    void stop() {
        std::lock_guard lock(mutex_);
        stopped_ = true;
        changed_.notify_all();
    }

    // The oldest job's result, waiting for it; nullopt when stopped, or finished and empty.
    std::optional<Result> take() { return takeIf(true); }
    // The oldest job's result if it is done now, else nullopt.
    std::optional<Result> takeReady() { return takeIf(false); }

    std::uint64_t fullWaits() const {
        std::lock_guard lock(mutex_);
        return fullWaits_;
    }
    std::size_t capacity() const { return capacity_; }
    std::size_t workers() const { return workers_.size(); }

  private:
    struct Slot {
        std::function<Result()> job;
        std::optional<Result> result;
        std::exception_ptr error;
        bool done = false;
    };

    std::optional<Result> takeIf(bool wait) {
        std::unique_lock lock(mutex_);
        auto ready = [&] { return stopped_ || (!slots_.empty() && slots_.front()->done); };
        if (wait) changed_.wait(lock, [&] { return ready() || (finished_ && slots_.empty()); });
        if (stopped_ || slots_.empty() || !slots_.front()->done) return std::nullopt;
        const std::shared_ptr<Slot> slot = std::move(slots_.front());
        slots_.pop_front();
        changed_.notify_all();
        if (slot->error) std::rethrow_exception(slot->error);
        return std::move(slot->result);
    }

    void work() {
        for (;;) {
            std::shared_ptr<Slot> slot;
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [&] { return stopped_ || !pending_.empty(); });
                if (stopped_) return;
                slot = std::move(pending_.front());
                pending_.pop_front();
            }
            try {
                slot->result.emplace(slot->job());
            } catch (...) {
                slot->error = std::current_exception();
            }
            slot->job = nullptr;
            std::lock_guard lock(mutex_);
            slot->done = true;
            changed_.notify_all();
        }
    }

    const std::size_t capacity_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::shared_ptr<Slot>> slots_;   // every job held, oldest first
    std::deque<std::shared_ptr<Slot>> pending_; // jobs no worker has started
    std::uint64_t fullWaits_ = 0;
    bool stopped_ = false, finished_ = false;
    std::vector<std::thread> workers_;
};

} // namespace clscope::stream
