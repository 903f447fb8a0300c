// Where every algorithm's variants and bench cases are registered (one line per algorithm).
#include "gpu/bench.hpp"
#include "gpu/rbf/rbf_gpu.hpp"
#include "gpu/variant.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"

namespace clscope {

void registerAllVariants(VariantRegistry& registry) {
    xpcs::registerXpcsVariants(registry);
    rbf::registerRbfVariants(registry);
}

void registerAllBenchCases(BenchRegistry& registry) {
    xpcs::registerXpcsBench(registry);
}

} // namespace clscope
