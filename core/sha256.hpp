// SHA-256 of a text, as lowercase hex (FIPS 180-4): the kernel lab names a program source by it.
#pragma once
#include <string>
#include <string_view>

namespace clscope {

std::string sha256Hex(std::string_view bytes);

} // namespace clscope
