#include "ui/stream/thinned_series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::ui {

ThinnedSeries::ThinnedSeries(std::size_t cap) : cap_(std::max<std::size_t>(cap, 2)) {}

void ThinnedSeries::clear() {
    buckets_.clear();
    width_ = 1, values_ = 0;
}

void ThinnedSeries::add(double key, double value) {
    if (buckets_.empty() || buckets_.back().n >= width_) {
        buckets_.emplace_back();
        buckets_.back().firstKey = key;
    }
    addTo(buckets_.back(), key, value);
    ++values_, lastKey_ = key, last_ = value;
    if (buckets_.size() > cap_) halve();
}

// A value as a bucket of one, merged.
void ThinnedSeries::addTo(Bucket& b, double key, double value) const {
    mergeInto(b, {key, value, key, value, key, 1, std::isfinite(value)});
}

void ThinnedSeries::mergeInto(Bucket& into, const Bucket& b) const {
    into.n += b.n;
    if (!b.finite) return;
    if (!into.finite || b.low < into.low) into.low = b.low, into.lowKey = b.lowKey;
    if (!into.finite || b.high > into.high) into.high = b.high, into.highKey = b.highKey;
    into.finite = true;
}

// Every two buckets into one: the width doubles.
void ThinnedSeries::halve() {
    std::size_t out = 0;
    for (std::size_t i = 0; i < buckets_.size(); i += 2) {
        Bucket b = buckets_[i];
        if (i + 1 < buckets_.size()) mergeInto(b, buckets_[i + 1]);
        buckets_[out++] = b;
    }
    buckets_.resize(out);
    width_ *= 2;
}

void ThinnedSeries::points(QVector<double>& keys, QVector<double>& out) const {
    keys.clear(), out.clear();
    keys.reserve(int(2 * buckets_.size())), out.reserve(keys.capacity());
    const auto put = [&](double k, double v) { keys.push_back(k), out.push_back(v); };
    for (const Bucket& b : buckets_) {
        if (!b.finite) {
            put(b.firstKey, std::numeric_limits<double>::quiet_NaN());
        } else if (b.n == 1 || b.lowKey == b.highKey) {
            put(b.lowKey, b.low);
        } else if (b.lowKey < b.highKey) {
            put(b.lowKey, b.low), put(b.highKey, b.high);
        } else {
            put(b.highKey, b.high), put(b.lowKey, b.low);
        }
    }
    if (!keys.isEmpty() && keys.back() < lastKey_) put(lastKey_, last_);
}

} // namespace clscope::ui
