// OpenCL sources of resources/kernels/, embedded at build time; CLSCOPE_KERNEL_DIR loads
// them from disk instead (for editing kernels without rebuilding).
#pragma once
#include "core/array.hpp"

#include <string>
#include <vector>

namespace clscope {

// Text of resources/kernels/<name>.cl; throws DeviceError when there is none.
std::string kernelSource(const std::string& name);
// Adds the text of a kernel file that is not in resources/kernels (a test fixture's own, e.g.
// the toy's tests/toy/toy_frame_sums.cl): kernelSource(name) gives it, before the others.
void addKernelSource(const std::string& name, std::string text);
// Names of the embedded kernel files, without .cl.
std::vector<std::string> embeddedKernelNames();
// The OpenCL C type of a dtype's elements (uchar, ushort, uint, int, long, float, double), for
// -D DATA_T=... when a kernel is built for its input.
std::string clTypeName(DType dtype);

} // namespace clscope
