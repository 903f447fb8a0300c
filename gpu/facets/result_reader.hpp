// A clscope result read back from its file (File ▸ Open of a result, Algorithm::readResult):
// the algorithm's output group (DESIGN.md §3) recognised, its datasets read into the
// algorithm's own Result — the type its runs return — and the provenance attributes (device,
// variant, parameters, kernel_ms) into RunInfo, so that the result shows as a run's would.
// What a file does not hold (the run's input, per-phase timings) stays empty.
#pragma once
#include "core/errors.hpp"
#include "gpu/algorithm.hpp"

#include <memory>
#include <string>
#include <vector>

namespace clscope {

class ResultReaderFacet : public Facet {
  public:
    // Whether `file` holds this algorithm's result under `group` (its mark dataset is there) or
    // in a layout of another tool that the reader knows (otherLayoutIn).
    bool holds(const H5Reader& file, const std::string& group) const {
        return file.hasDataset(group + "/" + markDataset()) || !otherLayoutIn(file).empty();
    }
    // The result under the algorithm's output group with its provenance; InputError naming the
    // file and dataset that is missing or has the wrong shape.
    virtual std::shared_ptr<AlgorithmResult> read(const H5Reader& file,
                                                  const Algorithm& algorithm) const = 0;

  protected:
    // The dataset of the group every result of the algorithm has (xpcs: "g2").
    virtual std::string markDataset() const = 0;
    // The name of another tool's layout (an output layout, --layout NAME) that `file` holds this
    // algorithm's result in, "" when none. Default: none.
    virtual std::string otherLayoutIn(const H5Reader&) const { return {}; }
};

// The provenance attributes of `group` as a RunInfo of `algorithm` (a device written as
// "SPEC (NAME)" split into device and deviceName).
RunInfo storedRunInfo(const H5Reader& file, const std::string& group, const std::string& algorithm);
// The algorithm's parameters at their defaults with those of the `parameters` JSON set
// (InputError naming the attribute when it is not the algorithm's parameters).
ParamSet storedParams(const Algorithm& algorithm, const RunInfo& info, const std::string& where);
// InputError "FILE:PATH: expected WHAT, found SHAPE" unless `ok`.
void expectShape(const H5Reader& file, const std::string& path, const Array& a, bool ok,
                 const std::string& what);

// The dataset at `path` as T, one value per element: a vector of `count` values (any length
// when count is npos); InputError naming it otherwise.
template <class T>
std::vector<T> storedColumn(const H5Reader& file, const std::string& path,
                            std::size_t count = std::string::npos) {
    const Array a = file.read(path, dtypeOf<T>());
    expectShape(file, path, a, a.rank() == 1 && (count == std::string::npos || a.size() == count),
                count == std::string::npos ? "a vector" : "(" + std::to_string(count) + ")");
    return std::vector<T>(a.as<T>().begin(), a.as<T>().end());
}

// A is the algorithm: readWith fills its own ResultType from the group, given the run's
// parameters (e.g. the fit settings); the provenance is added here.
template <class A> class TypedResultReader : public ResultReaderFacet {
  public:
    using ResultType = typename A::ResultType;
    std::shared_ptr<AlgorithmResult> read(const H5Reader& file,
                                          const Algorithm& algorithm) const final {
        const std::string group = algorithm.outputGroup();
        if (!file.hasDataset(group + "/" + markDataset()))
            if (const std::string layout = otherLayoutIn(file); !layout.empty()) {
                std::shared_ptr<ResultType> result = readLayout(file, layout);
                result->info.algorithm = algorithm.id();
                result->info.parametersJson = "{}";
                return result;
            }
        RunInfo info = storedRunInfo(file, group, algorithm.id());
        const ParamSet params = storedParams(algorithm, info, file.where(group));
        std::shared_ptr<ResultType> result = readWith(file, group, params, info);
        result->info = std::move(info);
        return result;
    }

  protected:
    virtual std::shared_ptr<ResultType> readWith(const H5Reader& file, const std::string& group,
                                                 const ParamSet& params,
                                                 const RunInfo& info) const = 0;
    // The result in another tool's layout (otherLayoutIn); no provenance (the layouts have
    // none of clscope's). Default: refuses.
    virtual std::shared_ptr<ResultType> readLayout(const H5Reader& file,
                                                   const std::string& layout) const {
        throw InputError(file.fileName() + ": cannot read the " + layout + " layout");
    }
};

} // namespace clscope
