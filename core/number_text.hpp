// Numbers as text that reads back exactly.
#pragma once
#include <charconv>
#include <string>

namespace clscope {

// The shortest text that reads back as the same double (as Python's repr).
inline std::string shortestText(double value) {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

} // namespace clscope
