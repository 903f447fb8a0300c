// The kernel lab's figures of a run (Algorithm::hostTunables, work): the tunable values the
// host passes to the variant's programs and the work every variant has to do.
#pragma once
#include "gpu/algorithm.hpp"
#include "gpu/facets/typed_run.hpp"

namespace clscope {

class LabFacet : public Facet {
  public:
    // The run's variant on its device (request().variant, device). Default: none.
    virtual TunableValues hostTunables(const PreparedRun& run) const {
        (void)run;
        return {};
    }
    // Default: none declared.
    virtual RunWork work(const PreparedRun& run) const {
        (void)run;
        return {};
    }
};

// A is the algorithm (its TypedAlgorithm's Run type).
template <class A> class TypedLab : public LabFacet {
  public:
    using Run = typename A::Run;
    TunableValues hostTunables(const PreparedRun& run) const final {
        return hostTunablesWith(runOf<Run>(run));
    }
    RunWork work(const PreparedRun& run) const final { return workWith(runOf<Run>(run)); }

  protected:
    virtual TunableValues hostTunablesWith(const Run& run) const {
        (void)run;
        return {};
    }
    virtual RunWork workWith(const Run& run) const {
        (void)run;
        return {};
    }
};

} // namespace clscope
