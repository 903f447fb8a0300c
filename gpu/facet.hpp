// What an algorithm does besides reading, running and comparing (splitting over devices,
// passes within a memory budget, a streaming stage, synthetic datasets, bench cases, the kernel
// lab's figures, side outputs) is a facet: a small object the algorithm registers in its
// constructor (Algorithm::add). Generic code asks the algorithm (Algorithm::split, ...), which
// forwards to the facet or gives the behaviour of an algorithm without one. The interfaces are
// in gpu/facets/, each with a typed base that casts the prepared run once.
#pragma once

namespace clscope {

class Facet {
  public:
    virtual ~Facet() = default;
};

} // namespace clscope
