// The count, mean and squared deviations of one (bin, lag)'s ratios r_t = n N_t / (S_t S'_t) of
// multi-tau (issue 55): Welford's running mean over the non-zero r_t in the order they come,
// the zeros only counted and joined at the end by Chan's formula for two groups (a group of z
// zeros has mean 0 and no deviations: M2 = M2_nz + mean_nz^2 nz z / (nz + z)). A fold counts
// the pairs of sparse frames, nearly all zero, without a division. The statistics depend on the
// order of the non-zero r_t; every path adds a (bin, lag)'s rows in order.
#pragma once
#include <cstddef>

namespace clscope::xpcs {

class RatioMoments {
  public:
    // The moments another fold formed by the same steps (count, non-zero ratios, mean, M2):
    // a device's fold (gpu/xpcs/device_fold.hpp).
    static RatioMoments restored(std::size_t count, std::size_t nonzero, double mean, double m2) {
        RatioMoments r;
        r.count_ = count, r.nonzero_ = nonzero, r.mean_ = mean, r.m2_ = m2;
        return r;
    }
    // `n` more ratios, all zero.
    void counted(std::size_t n) { count_ += n; }
    void add(double r) {
        ++count_;
        addCounted(r);
    }
    // r of a pair already counted (by `counted`).
    void addCounted(double r) {
        if (r == 0.0) return;
        ++nonzero_;
        const double delta = r - mean_;
        mean_ += delta / static_cast<double>(nonzero_);
        m2_ += delta * (r - mean_);
    }
    std::size_t count() const { return count_; }
    // Σ (r_t - mean)^2 over the ratios (>= 0).
    double deviations() const {
        if (nonzero_ == 0 || nonzero_ == count_) return m2_;
        const double nz = static_cast<double>(nonzero_), z = static_cast<double>(count_ - nonzero_);
        return m2_ + mean_ * mean_ * (nz * z / (nz + z));
    }

  private:
    std::size_t count_ = 0, nonzero_ = 0;
    double mean_ = 0.0, m2_ = 0.0;
};

} // namespace clscope::xpcs
