// Progress reporting and cancellation shared by every long computation.
#pragma once
#include "core/errors.hpp"

#include <atomic>
#include <functional>

namespace clscope {

// Passed down into long work: report(fraction) and checkCancel() between steps.
class Progress {
  public:
    Progress() = default;
    Progress(std::function<void(double)> onProgress, const std::atomic<bool>* cancelFlag)
        : onProgress_(std::move(onProgress)), cancel_(cancelFlag) {}

    void report(double fraction) const {
        if (onProgress_) onProgress_(fraction);
    }
    bool cancelled() const { return cancel_ && cancel_->load(); }
    const std::atomic<bool>* cancelFlag() const { return cancel_; }
    // Throws Cancelled when the user asked to stop.
    void checkCancel() const {
        if (cancelled()) throw Cancelled();
    }

  private:
    std::function<void(double)> onProgress_;
    const std::atomic<bool>* cancel_ = nullptr;
};

} // namespace clscope
