// xpcs over several devices: bins are independent, so a run splits into groups of bins;
// multi-tau on OpenCL devices splits by pixels (split_pixels.cpp).
#include "core/errors.hpp"
#include "gpu/facets/split_facet.hpp"
#include "gpu/variant/user_variants.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/facets.hpp"
#include "gpu/xpcs/multitau.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace clscope::xpcs {

namespace {

// Bins dealt to `parts` groups, largest first onto the group with the least pixels so far.
std::vector<std::vector<std::int32_t>> groupBins(const LabelMask& labels, std::size_t parts) {
    const Bins bins = makeBins(labels);
    std::vector<std::size_t> order(bins.count());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return bins.pixelCounts[a] > bins.pixelCounts[b];
    });
    std::vector<std::vector<std::int32_t>> groups(std::min(parts, bins.count()));
    std::vector<std::int64_t> load(groups.size(), 0);
    for (std::size_t b : order) {
        const std::size_t g =
            static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        groups[g].push_back(bins.labels[b]);
        load[g] += bins.pixelCounts[b];
    }
    return groups;
}

bool contains(const std::vector<std::int32_t>& sorted, std::int32_t label) {
    return std::binary_search(sorted.begin(), sorted.end(), label);
}

} // namespace

ParamSet paramsForBins(const ParamSet& params, const std::vector<std::int32_t>& sortedLabels) {
    ParamSet p = params;
    nlohmann::json twotime = nlohmann::json::array();
    for (long long l : params.intList("twotime"))
        if (contains(sortedLabels, static_cast<std::int32_t>(l))) twotime.push_back(l);
    p.set("twotime", twotime);
    return p;
}

namespace {

// Groups of bins of about equal work (pixels), joined in label order; the OpenCL variant
// multitau splits by pixels instead (split_pixels.cpp: split by bins, every device would read
// every frame, and multi-tau is bound by that read), its parts' sums merged before the fold, the
// result part 0's (the others' are empty: the join below keeps part 0's bins).
class SplitByBins : public TypedSplit<Algorithm> {
  protected:
    // Groups of bins share out the kernels only: every part reads every frame. `mma` ran the
    // large case's Gram matrices (8e11 of runWork's operations) in 2.9 ms on an H100, 3e14 a
    // second. Split by pixels, multi-tau shares out the frames' upload.
    SplitWork splitWorkWith(const Run& run) const override {
        if (byPixels(run)) return splitByPixelsWork(run.input());
        if (run.params().multitau) return {};
        return {0, runWork(run.input(), run.params()).operations / 3e14 * 1e3};
    }
    std::vector<Algorithm::Part> splitWith(const Run& run, std::size_t parts) const override;
    std::shared_ptr<clscope::AlgorithmResult>
    joinWith(const std::vector<std::shared_ptr<XpcsResult>>& parts) const override;

  private:
    static bool byPixels(const Run& run) {
        return run.params().multitau &&
               builtInVariantOf("xpcs", run.request().variant) == "multitau";
    }
};

std::vector<Algorithm::Part> SplitByBins::splitWith(const Run& run, std::size_t parts) const {
    const XpcsInput& in = run.input();
    if (byPixels(run)) return splitByPixels(in, run.values(), run.params().channels, parts);
    std::vector<Algorithm::Part> out;
    for (std::vector<std::int32_t> group : groupBins(in.labels, parts)) {
        std::sort(group.begin(), group.end());
        auto part = std::make_shared<XpcsInput>(in); // frames shared, not copied
        for (std::int32_t& l : part->labels.labels)
            if (l > 0 && !contains(group, l)) l = 0;
        out.push_back({part, paramsForBins(run.values(), group)});
    }
    return out;
}

std::shared_ptr<clscope::AlgorithmResult>
SplitByBins::joinWith(const std::vector<std::shared_ptr<XpcsResult>>& parts) const {
    // Split by pixels: part 0 holds the merged result, the others none.
    const auto holding = std::count_if(parts.begin(), parts.end(),
                                       [](const auto& p) { return p->result.binCount() > 0; });
    if (holding == 1 && parts.front()->result.binCount() > 0) // a copy: runOnDevices sets its info
        return std::make_shared<XpcsResult>(*parts.front());
    std::vector<std::pair<std::int32_t, std::pair<const Result*, std::size_t>>>
        rows; // label -> (part, bin)
    std::map<const Result*, std::shared_ptr<const ResultSums>> sumsOf;
    for (const auto& p : parts) {
        const Result& r = p->result;
        for (std::size_t b = 0; b < r.binCount(); ++b)
            rows.push_back({r.labels[b], {&r, b}});
        sumsOf[&r] = p->sums;
    }
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    auto out = std::make_shared<XpcsResult>();
    Result& j = out->result;
    const XpcsResult& firstPart = *parts.front();
    const Result& first = firstPart.result;
    out->excludedPixels = firstPart.excludedPixels;
    j.frames = first.frames, j.tau = first.tau, j.tauInSeconds = first.tauInSeconds;
    j.normalisation = first.normalisation, j.errFromPixels = first.errFromPixels;
    j.multitau = first.multitau, j.lagFrames = first.lagFrames, j.levels = first.levels;
    j.twotimeBin = first.twotimeBin;
    auto sums = std::make_shared<ResultSums>();
    for (const auto& [label, at] : rows) {
        const auto [r, b] = at;
        if (const auto& part = sumsOf.at(r)) sums->appendBin(*part, b);
        j.labels.push_back(label);
        j.pixels.push_back(r->pixels[b]);
        j.g2.insert(j.g2.end(), r->g2.begin() + b * r->frames, r->g2.begin() + (b + 1) * r->frames);
        j.g2Err.insert(j.g2Err.end(), r->g2Err.begin() + b * r->frames,
                       r->g2Err.begin() + (b + 1) * r->frames);
        if (const auto it = r->twotime.find(label); it != r->twotime.end())
            j.twotime[label] = it->second;
    }
    if (sums->binCount() == j.binCount()) out->sums = std::move(sums); // every part had them
    // Fits again over all bins: Γ(q) needs every bin.
    out->qByLabel = firstPart.qByLabel;
    if (firstPart.fitOptions) {
        out->fitOptions = firstPart.fitOptions;
        out->fits = fitBins(j, *out->fitOptions, binQ(out->qByLabel, j.labels));
    }
    return out;
}

} // namespace

std::shared_ptr<const Facet> splitFacet() {
    return std::make_shared<SplitByBins>();
}

} // namespace clscope::xpcs
