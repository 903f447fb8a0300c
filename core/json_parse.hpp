// The one way clscope parses JSON text (--params, sessions, manifests, the lab's kept files,
// attributes): nesting is counted before nlohmann::json builds the value. nlohmann parses
// without recursion, but copying, comparing or dumping a value recurses once per level: JSON
// nested 65,000 deep overflowed the stack (issue 52). The count itself recurses neither.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace clscope {

// The deepest nesting of arrays and objects clscope reads (a value copied or dumped at this
// depth takes well under 1 MiB of stack: tests/tst_attack.cpp measures it in a 1 MiB thread).
inline constexpr std::size_t jsonDepthLimit = 512;

// The deepest nesting of arrays and objects in text (brackets inside strings not counted),
// counting no further than `stopAt`.
std::size_t jsonDepth(std::string_view text, std::size_t stopAt = jsonDepthLimit + 1);

// text as JSON; a discarded value (is_discarded()) when it is not valid JSON, which the caller
// refuses in its own words. InputError "ORIGIN: JSON nested deeper than 512 levels ..." when
// it is nested past the limit (ORIGIN names the file or option it came from).
nlohmann::json parseJson(std::string_view text, const std::string& origin);

// As parseJson, but nesting past the limit gives a discarded value too: for text clscope
// wrote itself (a run's parameters), where the caller has nothing to tell.
nlohmann::json parseJsonQuietly(std::string_view text);

// j as JSON text (indent as nlohmann's dump), each byte of a string that is not UTF-8 written
// as U+FFFD: a kernel source holding a Latin-1 byte (a comment an editor wrote) no longer
// stops the lab with nlohmann's type_error.316 (issue 52).
std::string jsonText(const nlohmann::json& j, int indent = -1);

} // namespace clscope
