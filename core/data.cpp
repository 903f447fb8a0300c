#include "core/data.hpp"

#include <algorithm>

namespace clscope {

std::vector<std::int32_t> LabelMask::bins() const {
    std::vector<std::int32_t> out;
    for (std::int32_t l : labels)
        if (l > 0) out.push_back(l);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace clscope
