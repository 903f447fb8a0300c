// Instructions of an architecture-specific PTX target (sm_90a's wgmma) from OpenCL C.
//
// NVIDIA's OpenCL builds for the plain target (sm_90), where ptxas refuses such instructions.
// A kernel writes each of them in its inline PTX behind archSpecificMark, a PTX comment, so
// that the plain build passes; the program binary NVIDIA returns is that PTX, and
// archSpecificPtx turns it into the PTX to build again: the marks removed (the instructions
// back) and the .target given its "a" suffix.
#pragma once
#include <optional>
#include <string>

namespace clscope {

inline constexpr const char* archSpecificMark = "// clscope:arch-specific ";

// The PTX with the marked instructions restored and the target made architecture-specific;
// nullopt when the PTX holds no mark. Throws DeviceError when it names no sm_ target.
std::optional<std::string> archSpecificPtx(const std::string& ptx);

// The options of a build that still apply when its PTX is built again: NVIDIA's own (-cl-nv-*,
// such as a register cap, which act on the PTX's translation).
std::string archSpecificOptions(const std::string& options);

} // namespace clscope
