// Output layouts besides clscope's own (--layout NAME; DESIGN.md §3 "Interchange with the
// facility's tools"; Algorithm::outputLayouts, checkLayout, layoutOutput): the layouts an
// algorithm can write, what each needs of the run (checked before it starts) and how each is
// written from the run's result.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/facets/typed_run.hpp"

#include <memory>
#include <string>
#include <vector>

namespace clscope {

class LayoutsFacet : public Facet {
  public:
    // Its layouts (clscope's own not among them).
    virtual std::vector<OutputLayout> layouts() const = 0;
    // Before the run (its parameters parsed; no input): UsageError naming what the run over
    // these sources lacks for `layout`, one of layouts().
    virtual void check(const std::string& layout, const InputSources& sources,
                       const PreparedRun& run) const = 0;
    // After it: `result` in `layout`, everything it needs computed (the run's input when it
    // was read whole, else null: read again from the sources where needed).
    virtual LayoutOutput output(const std::string& layout,
                                const std::shared_ptr<AlgorithmResult>& result,
                                const InputSources& sources, const PreparedRun& run) const = 0;
    // The suffix of a file in `layout` (an export's file name): HDF5's unless overridden.
    virtual std::string suffix(const std::string& /*layout*/) const { return "h5"; }
};

// The suffix of a file in `layout`, one of algorithm.outputLayouts() ("h5" for any other).
std::string layoutSuffix(const Algorithm& algorithm, const std::string& layout);

// A is the algorithm (its TypedAlgorithm's Run and ResultType).
template <class A> class TypedLayouts : public LayoutsFacet {
  public:
    using Run = typename A::Run;
    using ResultType = typename A::ResultType;
    void check(const std::string& layout, const InputSources& sources,
               const PreparedRun& run) const final {
        checkWith(layout, sources, runOf<Run>(run));
    }
    LayoutOutput output(const std::string& layout, const std::shared_ptr<AlgorithmResult>& result,
                        const InputSources& sources, const PreparedRun& run) const final {
        return outputWith(layout, resultOf<ResultType>(result, run.algorithm().id()), sources,
                          runOf<Run>(run));
    }

  protected:
    virtual void checkWith(const std::string& layout, const InputSources& sources,
                           const Run& run) const = 0;
    virtual LayoutOutput outputWith(const std::string& layout,
                                    const std::shared_ptr<ResultType>& result,
                                    const InputSources& sources, const Run& run) const = 0;
};

} // namespace clscope
