// The input and result types of cluster::Algorithm (algorithm.cpp, split.cpp, passes.cpp).
#pragma once
#include "core/cluster/cluster.hpp"
#include "gpu/algorithm.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clscope::cluster {

// The digis of one event (or, for a run over several devices, of a range of its modules).
class ClusterInput : public AlgorithmInput {
  public:
    explicit ClusterInput(Digis d) : digis(std::move(d)) {}
    std::string describe() const override;
    Digis digis;
    // A part of a split input: the index in the whole input of each digi, and its size.
    std::vector<std::uint32_t> origin;
    std::size_t totalDigis = 0;
};

class ClusterResult : public AlgorithmResult {
  public:
    explicit ClusterResult(Result r) : clusters(std::move(r)) {}
    void write(H5Writer& out, const std::string& group) const override;
    std::string summary() const override;
    Result clusters;
    std::vector<std::uint32_t> origin; // of the part it ran on (empty: the whole input)
    std::size_t totalDigis = 0;
};

} // namespace clscope::cluster
