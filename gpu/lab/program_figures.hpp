// What the OpenCL API says about the programs a lab row built (gpu/lab/lab_job.hpp): per program
// its build options, its build log (verbose on NVIDIA: -cl-nv-verbose, registers and spills) and
// its compiled output (CL_PROGRAM_BINARIES: PTX text on NVIDIA, whatever the platform gives
// elsewhere), and per kernel the resource figures CL_KERNEL_WORK_GROUP_SIZE,
// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, CL_KERNEL_LOCAL_MEM_SIZE and
// CL_KERNEL_PRIVATE_MEM_SIZE. Generic: programs are named by the recipes they were built from.
#pragma once
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clscope {

struct KernelFigures {
    std::string name;
    std::uint64_t workGroupSize = 0;     // the largest work-group this kernel can be launched with
    std::uint64_t preferredMultiple = 0; // work-group sizes should be multiples of it
    std::uint64_t localMemBytes = 0;     // local memory the kernel uses (its __local arrays)
    std::uint64_t privateMemBytes = 0;   // private memory per work-item
};

struct ProgramFigures {
    std::string program; // the recipe's name ("unlisted" for a program built from no recipe)
    std::string options, buildLog;
    TunableValues tunables; // the recipe's resolved values it was built with
    std::vector<KernelFigures> kernels;
    std::uint64_t binaryBytes = 0;
    bool binaryText = false;  // the compiled output is text (PTX): shown as it is
    std::string binaryFile;   // where it was written ("" when not asked)
    std::string binarySha256; // kept in the lab store under it (gpu/lab/lab_store.hpp)
};

nlohmann::json toJson(const ProgramFigures& figures);
ProgramFigures programFiguresFromJson(const nlohmann::json& j);
nlohmann::json programsJson(const std::vector<ProgramFigures>& programs);

// The build option asking for the verbose log where the platform has one (NVIDIA's
// -cl-nv-verbose, by the device's vendor); "" elsewhere.
std::string verboseBuildOption(const DeviceInfo& device);

// The programs this process built on the device (ClDevice's cache), named by the recipe (as the
// run built it, `overrides` applied) whose source they were made from. Each compiled output is
// kept in the lab store and, with `binaryPrefix`, written to PREFIX<program>[-N].ptx|.txt|.bin.
std::vector<ProgramFigures> builtProgramFigures(const DeviceInfo& device,
                                                const std::vector<ProgramRecipe>& recipes,
                                                const ProgramOverrides& overrides,
                                                const std::string& binaryPrefix);

// The values `declared` names as the programs were built: each program's resolved tunables
// (kept with it when it was built) over the declared value (the host's own per-device values
// included, which the declaration does not know).
TunableValues builtTunables(TunableValues declared, const std::vector<ProgramFigures>& programs);

// Whether these bytes are text: no NUL or control characters other than tab and line ends once
// trailing NULs are dropped (PTX ends with one).
bool isTextOutput(const std::string& bytes);

} // namespace clscope
