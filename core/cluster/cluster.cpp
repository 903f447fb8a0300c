#include "core/cluster/cluster.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cctype>

namespace clscope::cluster {

std::uint64_t ChargeCut::threshold(std::uint16_t module) const {
    switch (kind) {
    case Kind::None:
        return 0;
    case Kind::Phase1:
        return module < phase1InnerModules ? 2000 : 4000;
    case Kind::Value:
        return value;
    }
    return 0;
}

ChargeCut ChargeCut::parse(const std::string& text) {
    if (text == "none" || text.empty()) return {};
    if (text == "phase1") return {Kind::Phase1, 0};
    const bool digits =
        std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
    if (!digits || text.size() > 12)
        throw UsageError("cluster: --charge-cut takes none, phase1 or a non-negative integer adc "
                         "threshold, not '" +
                         text + "'");
    return {Kind::Value, std::stoull(text)};
}

std::string ChargeCut::text() const {
    switch (kind) {
    case Kind::None:
        return "none";
    case Kind::Phase1:
        return "phase1";
    case Kind::Value:
        return std::to_string(value);
    }
    return "none";
}

void ClusterSums::add(std::uint16_t x, std::uint16_t y, std::uint16_t adc) {
    if (size == 0) minX = maxX = x, minY = maxY = y;
    minX = std::min<std::uint32_t>(minX, x), maxX = std::max<std::uint32_t>(maxX, x);
    minY = std::min<std::uint32_t>(minY, y), maxY = std::max<std::uint32_t>(maxY, y);
    ++size;
    charge += adc;
    weightedX2 += std::uint64_t(adc) * (2u * x + 1u);
    weightedY2 += std::uint64_t(adc) * (2u * y + 1u);
    plainX2 += 2u * x + 1u;
    plainY2 += 2u * y + 1u;
}

Result makeResult(std::vector<std::int32_t> ids, const std::vector<ClusterSums>& sums) {
    return makeResult(std::move(ids), sums.size(), [&](std::size_t c) { return sums[c]; });
}

void checkDigis(const Digis& d) {
    const std::size_t n = d.size();
    if (d.x.size() != n || d.y.size() != n || d.adc.size() != n)
        throw InputError("cluster: module, x, y and adc must have the same length (" +
                         std::to_string(n) + ", " + std::to_string(d.x.size()) + ", " +
                         std::to_string(d.y.size()) + ", " + std::to_string(d.adc.size()) + ")");
    for (std::size_t i = 0; i < n; ++i)
        if (d.module[i] != invalidModule && (d.x[i] >= moduleSizeX || d.y[i] >= moduleSizeY))
            throw InputError("cluster: digi " + std::to_string(i) + " (module " +
                             std::to_string(d.module[i]) + ", x " + std::to_string(d.x[i]) +
                             ", y " + std::to_string(d.y[i]) + ") lies outside the 160x416 module");
}

std::size_t idMismatches(const Result& a, const Result& b, long long* first) {
    if (first) *first = -1;
    const std::size_t n = std::max(a.id.size(), b.id.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const bool same = i < a.id.size() && i < b.id.size() && a.id[i] == b.id[i];
        if (!same && bad++ == 0 && first) *first = static_cast<long long>(i);
    }
    return bad;
}

} // namespace clscope::cluster
