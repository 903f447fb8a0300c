// Runs within a memory budget (Algorithm::planPasses, gpu/scale/passes.hpp): how an algorithm
// cuts its input on disk into passes that each read only their part.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/facets/typed_run.hpp"

#include <cstdint>
#include <memory>

namespace clscope {

class PassesFacet : public Facet {
  public:
    // The plan for the run (its parameters parsed; no input: the passes read it) over these
    // sources; null when the whole input fits the budget.
    virtual std::unique_ptr<PassPlan> plan(const InputSources& sources, const PreparedRun& run,
                                           std::uint64_t budgetBytes) const = 0;
};

// A is the algorithm (its TypedAlgorithm's Run type).
template <class A> class TypedPasses : public PassesFacet {
  public:
    using Run = typename A::Run;
    std::unique_ptr<PassPlan> plan(const InputSources& sources, const PreparedRun& run,
                                   std::uint64_t budgetBytes) const final {
        return planWith(sources, runOf<Run>(run), budgetBytes);
    }

  protected:
    virtual std::unique_ptr<PassPlan> planWith(const InputSources& sources, const Run& run,
                                               std::uint64_t budgetBytes) const = 0;
};

// The passes facet of a planning function (an algorithm's passes.cpp defines the function).
template <class A> class PassesOf final : public TypedPasses<A> {
  public:
    using Run = typename A::Run;
    using Plan = std::unique_ptr<PassPlan> (*)(const InputSources&, const Run&, std::uint64_t);
    explicit PassesOf(Plan plan) : plan_(plan) {}

  protected:
    std::unique_ptr<PassPlan> planWith(const InputSources& sources, const Run& run,
                                       std::uint64_t budgetBytes) const override {
        return plan_(sources, run, budgetBytes);
    }

  private:
    Plan plan_;
};

} // namespace clscope
