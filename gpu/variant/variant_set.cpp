#include "gpu/variant/variant_set.hpp"

#include "core/errors.hpp"

namespace clscope {

std::string joinIds(const std::vector<std::string>& ids) {
    std::string out;
    for (const std::string& id : ids)
        out += (out.empty() ? "" : ", ") + id;
    return out;
}

void throwNoVariant(const std::string& algorithm, const std::string& id,
                    const std::vector<std::string>& ids) {
    throw UsageError(algorithm + ": no variant '" + id + "' (" + joinIds(ids) + ")");
}

} // namespace clscope
