// One run over several devices (Algorithm::split, join, unsplittable, splitWork): how an
// algorithm cuts its input into parts whose results join into one run's. The typed base casts
// the prepared run and the parts' results once.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/facets/typed_run.hpp"

#include <string>
#include <vector>

namespace clscope {

class SplitFacet : public Facet {
  public:
    // At most `parts` parts of the run's input, each with the parameters it needs.
    virtual std::vector<Algorithm::Part> split(const PreparedRun& run, std::size_t parts) const = 0;
    virtual std::shared_ptr<AlgorithmResult>
    join(const Algorithm& algorithm,
         const std::vector<std::shared_ptr<AlgorithmResult>>& parts) const = 0;
    // Why `variant` cannot run on the parts ("" when it can). Default: every variant can.
    virtual std::string unsplittable(const std::string& variant) const {
        (void)variant;
        return {};
    }
    // What a split takes off one device. Default: none declared.
    virtual SplitWork splitWork(const PreparedRun& run) const {
        (void)run;
        return {};
    }
};

// A is the algorithm (its TypedAlgorithm's Run and ResultType).
template <class A> class TypedSplit : public SplitFacet {
  public:
    using Run = typename A::Run;
    using ResultType = typename A::ResultType;
    std::vector<Algorithm::Part> split(const PreparedRun& run, std::size_t parts) const final {
        return splitWith(runOf<Run>(run), parts);
    }
    std::shared_ptr<AlgorithmResult>
    join(const Algorithm& algorithm,
         const std::vector<std::shared_ptr<AlgorithmResult>>& parts) const final {
        std::vector<std::shared_ptr<ResultType>> typed;
        for (const auto& part : parts)
            typed.push_back(resultOf<ResultType>(part, algorithm.id()));
        return joinWith(typed);
    }
    SplitWork splitWork(const PreparedRun& run) const final {
        return splitWorkWith(runOf<Run>(run));
    }

  protected:
    virtual std::vector<Algorithm::Part> splitWith(const Run& run, std::size_t parts) const = 0;
    virtual std::shared_ptr<AlgorithmResult>
    joinWith(const std::vector<std::shared_ptr<ResultType>>& parts) const = 0;
    virtual SplitWork splitWorkWith(const Run& run) const {
        (void)run;
        return {};
    }
};

} // namespace clscope
