#include "core/synthetic/limits.hpp"

#include "core/errors.hpp"
#include "core/limits.hpp"

#include <cmath>

namespace clscope::synthetic {

void checkGeneratedMemory(const std::string& kind, const Shape& shape, double bytesPerElement) {
    const auto elements = checkedBytes(shape, 1);
    const double bytes = elements ? static_cast<double>(*elements) * bytesPerElement : INFINITY;
    const std::uint64_t available = availableHostMemory();
    if (!elements || (available > 0 && bytes > static_cast<double>(available)))
        throw UsageError(kind + ": " + shapeString(shape) + " needs " +
                         (elements ? byteText(static_cast<std::uint64_t>(bytes))
                                   : std::string("more than 2^64 bytes")) +
                         " in host memory, " + byteText(available) + " available");
}

} // namespace clscope::synthetic
