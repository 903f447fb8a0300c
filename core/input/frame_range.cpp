#include "core/input/frame_range.hpp"

#include "core/errors.hpp"

#include <algorithm>

namespace clscope {

std::pair<std::uint64_t, std::uint64_t> FrameRange::within(std::uint64_t total,
                                                           const std::string& where) const {
    const std::uint64_t end = count ? first + count : total;
    if (first >= total || end > total || end < first)
        throw InputError(where + ": frames " + text() + " (FIRST:COUNT) are beyond its " +
                         std::to_string(total) + " frames");
    return {first, end};
}

std::uint64_t FrameRange::framesIn(std::uint64_t total) const {
    if (first >= total)
        throw InputError("first frame " + std::to_string(first) + " is past the last frame " +
                         std::to_string(total - 1));
    return count == 0 ? total - first : std::min(count, total - first);
}

std::string FrameRange::text() const {
    return std::to_string(first) + ":" + (count ? std::to_string(count) : "");
}

FrameRange FrameRange::parse(const std::string& text) {
    const auto digits = [](const std::string& t) {
        return !t.empty() && t.size() <= 18 &&
               std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const auto colon = text.find(':');
    const std::string first = text.substr(0, colon);
    const std::string count = colon == std::string::npos ? "" : text.substr(colon + 1);
    if (colon == std::string::npos || !digits(first) || (!count.empty() && !digits(count)) ||
        (!count.empty() && std::stoull(count) == 0))
        throw UsageError("--frames must be FIRST:COUNT (COUNT >= 1, or empty: to the end), not '" +
                         text + "'");
    return {std::stoull(first), count.empty() ? 0 : std::stoull(count)};
}

} // namespace clscope
