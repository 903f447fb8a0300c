// Where every algorithm's variants are registered (one line per algorithm).
#include "gpu/variant.hpp"

namespace clscope {

void registerAllVariants(VariantRegistry& registry) {
    (void)registry;
}

} // namespace clscope
