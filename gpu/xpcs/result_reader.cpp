// xpcs's result reader facet: /xpcs read back (core/xpcs/xpcs_io.hpp) into the XpcsResult a run
// returns. The fits (/xpcs/fit, written with --fit) are made again from the g2 read, with the
// run's fit settings (its `parameters`) and the q of its bins (/xpcs/q): xpcs::fitBins, the
// one fit a run and the panel's Fits tab make, so they show as after the run. Results in the
// APS 8-ID-I and NXxpcs layouts (other tools' files too) are read by core/xpcs/foreign_layouts.
#include "gpu/facets/result_reader.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/facets.hpp"

#include "core/xpcs/fit_params.hpp"
#include "core/xpcs/foreign_layouts.hpp"
#include "core/xpcs/xpcs_io.hpp"

#include <cmath>
#include <cstdlib>

namespace clscope::xpcs {

namespace {

// q of each bin as the fits wrote it (/xpcs/q, one per label), NaN entries left out.
std::map<std::int32_t, double> storedQ(const H5Reader& file, const std::string& group,
                                       const std::vector<std::int32_t>& labels) {
    std::map<std::int32_t, double> byLabel;
    const auto q = readBinQ(file, labels.size(), group + "/q");
    if (!q) return byLabel;
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (!std::isnan((*q)[i])) byLabel[labels[i]] = (*q)[i];
    return byLabel;
}

class ResultReader final : public TypedResultReader<Algorithm> {
  protected:
    std::string markDataset() const override { return "g2"; }
    std::shared_ptr<XpcsResult> readWith(const H5Reader& file, const std::string& group,
                                         const ParamSet& params,
                                         const RunInfo& info) const override {
        auto out = std::make_shared<XpcsResult>();
        Result& r = out->result;
        r = readResult(file, group);
        r.parametersJson = info.parametersJson, r.kernelMs = info.kernelMs;
        out->excludedPixels = static_cast<std::size_t>(
            std::atof(file.stringAttribute(group, "excluded_pixels").value_or("0").c_str()));
        out->qByLabel = storedQ(file, group, r.labels);
        if (const auto options = fitOptionsFrom(params);
            options && file.hasObject(group + "/fit")) {
            out->fitOptions = options;
            out->fits = fitBins(r, *options, binQ(out->qByLabel, r.labels));
        }
        return out;
    }
    std::string otherLayoutIn(const H5Reader& file) const override { return foreignLayoutIn(file); }
    std::shared_ptr<XpcsResult> readLayout(const H5Reader& file,
                                           const std::string& layout) const override {
        ForeignResult read = readForeignResult(file, layout);
        auto out = std::make_shared<XpcsResult>();
        out->result = std::move(read.result);
        out->qByLabel = std::move(read.qByLabel);
        out->info.deviceName = layout + " layout"; // where it came from: no run recorded it
        return out;
    }
};

} // namespace

std::shared_ptr<const Facet> resultReaderFacet() {
    return std::make_shared<ResultReader>();
}

} // namespace clscope::xpcs
