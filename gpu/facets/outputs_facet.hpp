// Files besides the HDF5 output that a run's parameters ask for (Algorithm::sideOutputs).
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/facets/typed_run.hpp"

#include <string>
#include <utility>
#include <vector>

namespace clscope {

class OutputsFacet : public Facet {
  public:
    // (path, contents) of each file for this result of the run (its parameters parsed).
    virtual std::vector<std::pair<std::string, std::string>>
    sideOutputs(const AlgorithmResult& result, const PreparedRun& run) const = 0;
};

// A is the algorithm (its TypedAlgorithm's Run and ResultType).
template <class A> class TypedOutputs : public OutputsFacet {
  public:
    using Run = typename A::Run;
    using ResultType = typename A::ResultType;
    std::vector<std::pair<std::string, std::string>>
    sideOutputs(const AlgorithmResult& result, const PreparedRun& run) const final {
        return sideOutputsWith(resultOf<ResultType>(result, run.algorithm().id()), runOf<Run>(run));
    }

  protected:
    virtual std::vector<std::pair<std::string, std::string>>
    sideOutputsWith(const ResultType& result, const Run& run) const = 0;
};

} // namespace clscope
