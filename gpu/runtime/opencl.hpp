// The one place that includes the OpenCL C++ bindings, with the version pair that builds
// on Debian's header (2023.02), PoCL and NVIDIA's driver.
#pragma once
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#define CL_HPP_ENABLE_EXCEPTIONS
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <CL/opencl.hpp>
#pragma GCC diagnostic pop

#include <string>
#include <utility>
#include <vector>

namespace clscope {
// Every OpenCL device with its platform, in ocl:N order.
std::vector<std::pair<cl::Platform, cl::Device>> clDevicePairs();
// Name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES".
std::string clErrorName(int code);
} // namespace clscope
