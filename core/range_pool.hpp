// Threads kept for the process that run the pieces of a loop: run(n, pieces, f) calls
// f(begin, end) for `pieces` contiguous pieces of [0, n), taken in turn by the calling thread
// and the pool's workers (a thread held up by other work delays one piece, not a fixed share),
// and returns when every piece is done, rethrowing the first exception of one. One call at a
// time: callers on several threads take turns. Threads made per call cost tens of
// microseconds each, serially: with 16 of them, more than a multi-tau fold's work.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace clscope {

class RangePool {
  public:
    // `threads` in all, the caller's included.
    explicit RangePool(std::size_t threads);
    ~RangePool();
    RangePool(const RangePool&) = delete;
    RangePool& operator=(const RangePool&) = delete;

    void run(std::size_t n, std::size_t pieces,
             const std::function<void(std::size_t, std::size_t)>& f);

  private:
    void runPiece(std::size_t i);
    void work();

    std::mutex turn_, mutex_;
    std::condition_variable wake_, finished_;
    std::vector<std::thread> workers_;
    const std::function<void(std::size_t, std::size_t)>* f_ = nullptr;
    std::size_t n_ = 0, pieces_ = 0, next_ = 0, done_ = 0;
    std::exception_ptr error_;
    bool stop_ = false;
};

// `parts` pieces of [0, n) on a pool of one thread per core (at most `parts` busy).
void parallelRanges(std::size_t n, std::size_t parts,
                    const std::function<void(std::size_t, std::size_t)>& f);

// The pages of `bytes` of fresh memory at `at` (e.g. a vector's reserved storage) made present
// on every core before one thread copies into them: one thread faulting in 200 MB took about
// as long as the copy (135 ms for both against 67 with the pages touched on two cores, the
// development host). The bytes written are zero.
void touchPages(void* at, std::size_t bytes);

} // namespace clscope
