// Sorting a frame's signal pixels by their 32-bit index: an LSD radix sort of three 11-bit
// digits, stable, O(n), where std::sort spends n log n comparisons (the ~20,000 signal pixels of
// a 16M frame, sorted for every frame of a stream). A pass whose digit is the same for every
// key moves nothing and is skipped.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace clscope::spots {

template <class T, class Key> void radixSort(std::vector<T>& items, Key key) {
    if (items.size() < 64) {
        std::stable_sort(items.begin(), items.end(),
                         [&](const T& a, const T& b) { return key(a) < key(b); });
        return;
    }
    constexpr int bits = 11;
    constexpr std::uint32_t digits = std::uint32_t(1) << bits;
    std::vector<T> scratch(items.size());
    for (int shift = 0; shift < 32; shift += bits) {
        std::array<std::size_t, digits> start{};
        for (const T& item : items)
            ++start[(std::uint32_t(key(item)) >> shift) & (digits - 1)];
        if (start[(std::uint32_t(key(items.front())) >> shift) & (digits - 1)] == items.size())
            continue;
        std::size_t at = 0;
        for (std::size_t& s : start)
            at += std::exchange(s, at);
        for (const T& item : items)
            scratch[start[(std::uint32_t(key(item)) >> shift) & (digits - 1)]++] = item;
        items.swap(scratch);
    }
}

} // namespace clscope::spots
