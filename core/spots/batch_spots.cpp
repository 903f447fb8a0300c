#include "core/spots/batch_spots.hpp"

#include "core/range_pool.hpp"

#include <algorithm>
#include <tuple>

namespace clscope::spots {

void BatchSpots::add(std::size_t firstFrame, const std::vector<Spot>& spots) {
    batches_.emplace_back(firstFrame, spots_.size());
    spots_.insert(spots_.end(), spots.begin(), spots.end());
}

void BatchSpots::absorb(BatchSpots& other) {
    for (BatchSpots& inner : other.absorbed_)
        absorbed_.push_back(std::move(inner));
    other.absorbed_.clear();
    absorbed_.push_back(std::move(other));
    other = BatchSpots();
}

// One merge of every device's batches at the end: merged two at a time as each device's stage
// was absorbed, a 16M series' 1.8 million spots (200 MB) were copied into fresh memory once per
// device, about 135 ms each.
std::vector<Spot> BatchSpots::take() {
    if (absorbed_.empty()) return std::move(spots_);
    // every batch: its first frame, its spots
    std::vector<std::tuple<std::size_t, const Spot*, const Spot*>> batches;
    std::size_t total = 0;
    auto list = [&](const BatchSpots& from) {
        for (std::size_t k = 0; k < from.batches_.size(); ++k) {
            const std::size_t end =
                k + 1 < from.batches_.size() ? from.batches_[k + 1].second : from.spots_.size();
            batches.emplace_back(from.batches_[k].first,
                                 from.spots_.data() + from.batches_[k].second,
                                 from.spots_.data() + end);
        }
        total += from.spots_.size();
    };
    list(*this);
    for (const BatchSpots& other : absorbed_)
        list(other);
    std::sort(batches.begin(), batches.end(),
              [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    std::vector<Spot> out;
    out.reserve(total);
    touchPages(out.data(), total * sizeof(Spot));
    for (const auto& [first, begin, end] : batches)
        out.insert(out.end(), begin, end);
    *this = BatchSpots();
    return out;
}

} // namespace clscope::spots
