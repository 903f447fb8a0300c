// Where every algorithm is registered: one line per algorithm.
#include "gpu/algorithm.hpp"
#include "gpu/azint/algorithm.hpp"
#include "gpu/cluster/algorithm.hpp"
#include "gpu/rbf/algorithm.hpp"
#include "gpu/spots/algorithm.hpp"
#include "gpu/xpcs/algorithm.hpp"

namespace clscope {

void registerAllAlgorithms(AlgorithmRegistry& registry) {
    registry.add(std::make_shared<xpcs::Algorithm>());
    registry.add(std::make_shared<cluster::Algorithm>());
    registry.add(std::make_shared<rbf::Algorithm>());
    registry.add(std::make_shared<spots::Algorithm>());
    registry.add(std::make_shared<azint::Algorithm>());
}

} // namespace clscope
