// numpy .npy files (format versions 1.0, 2.0 and 3.0 read; 1.0 written), without numpy.
//
// Read: dtypes |b1 (as uint8), |u1, u2, u4, i4, i8, f4, f8 in either byte order ('<', '>',
// '=' or '|'); C order, or Fortran order for rank <= 2 (transposed on load). Written:
// little-endian, C order, the Array's own dtype (|u1, <u2, <u4, <i4, <i8, <f4, <f8).
// Every error is an InputError naming the source and what was expected.
#pragma once
#include "core/array.hpp"

#include <string>
#include <string_view>

namespace clscope::mask {

Array parseNpy(std::string_view bytes, const std::string& source);
std::string formatNpy(const Array& data);

Array readNpy(const std::string& fileName);
// Written to a temporary name, then renamed.
void writeNpy(const std::string& fileName, const Array& data);

} // namespace clscope::mask
