#include "core/json_parse.hpp"

#include "core/errors.hpp"

#include <algorithm>

namespace clscope {

std::size_t jsonDepth(std::string_view text, std::size_t stopAt) {
    std::size_t depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) { // only the closing quote matters; \" does not close
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest >= stopAt) return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

nlohmann::json parseJson(std::string_view text, const std::string& origin) {
    if (jsonDepth(text) > jsonDepthLimit)
        throw InputError(origin + ": JSON nested deeper than " + std::to_string(jsonDepthLimit) +
                         " levels (clscope reads at most " + std::to_string(jsonDepthLimit) + ")");
    return nlohmann::json::parse(text, nullptr, false);
}

nlohmann::json parseJsonQuietly(std::string_view text) {
    if (jsonDepth(text) > jsonDepthLimit) return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(text, nullptr, false);
}

std::string jsonText(const nlohmann::json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace clscope
