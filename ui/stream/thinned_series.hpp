// A live curve's points kept within a bound however long the series grows: while it has at
// most `cap` values each is a point; past that, consecutive values are gathered in buckets of
// a width that doubles whenever the buckets would exceed `cap`, and each bucket is drawn as its
// lowest and its highest value at their own keys — a spike (a hit) is never thinned away. A
// bucket without a finite value is one NaN point: a gap, as an unthinned curve draws it. The
// last value is always drawn last: the curve ends where the series is now.
#pragma once
#include <QVector>
#include <cstddef>
#include <vector>

namespace clscope::ui {

class ThinnedSeries {
  public:
    explicit ThinnedSeries(std::size_t cap = 4096);
    void clear();
    // The next value, at a key after every earlier one.
    void add(double key, double value);
    std::size_t values() const { return values_; }
    std::size_t width() const { return width_; } // values a bucket: 1 until thinned
    bool thinned() const { return width_ > 1; }
    // The points to draw, in key order (at most 2 · cap + 1).
    void points(QVector<double>& keys, QVector<double>& out) const;

  private:
    struct Bucket {
        double lowKey = 0, low = 0, highKey = 0, high = 0, firstKey = 0;
        std::size_t n = 0;
        bool finite = false; // holds a finite value (low, high set)
    };
    void addTo(Bucket& b, double key, double value) const;
    void mergeInto(Bucket& into, const Bucket& b) const;
    void halve();

    std::vector<Bucket> buckets_;
    std::size_t cap_, width_ = 1, values_ = 0;
    double lastKey_ = 0, last_ = 0;
};

} // namespace clscope::ui
