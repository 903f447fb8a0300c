#include "gpu/lab/program_figures.hpp"

#include "core/atomic_file.hpp"
#include "core/sha256.hpp"
#include "gpu/lab/lab_store.hpp"
#include "gpu/runtime/cl_device.hpp"

#include <algorithm>
#include <functional>
#include <map>

namespace clscope {

namespace {

std::vector<KernelFigures> kernelFigures(cl::Program program, const cl::Device& device) {
    std::vector<cl::Kernel> kernels;
    program.createKernels(&kernels);
    std::vector<KernelFigures> figures;
    for (const cl::Kernel& k : kernels) {
        KernelFigures f;
        f.name = k.getInfo<CL_KERNEL_FUNCTION_NAME>();
        f.name = f.name.substr(0, f.name.find('\0'));
        f.workGroupSize = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
        f.preferredMultiple =
            k.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(device);
        f.localMemBytes = k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device);
        f.privateMemBytes = k.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device);
        figures.push_back(std::move(f));
    }
    std::sort(figures.begin(), figures.end(),
              [](const KernelFigures& a, const KernelFigures& b) { return a.name < b.name; });
    return figures;
}

std::string textWithoutTrailingNuls(std::string bytes) {
    while (!bytes.empty() && bytes.back() == '\0')
        bytes.pop_back();
    return bytes;
}

std::string extensionOf(const ProgramFigures& f, const DeviceInfo& device) {
    const bool nvidia = device.platform.find("NVIDIA") != std::string::npos;
    return !f.binaryText ? ".bin" : nvidia ? ".ptx" : ".txt";
}

// The compiled output (text without its trailing NULs) kept in the lab store and, with a
// prefix, written to PREFIX<name>.<ext>.
void keepBinary(ProgramFigures& f, const std::string& bytes, const DeviceInfo& device,
                const std::string& prefix, const std::string& name) {
    const std::string kept = f.binaryText ? textWithoutTrailingNuls(bytes) : bytes;
    const std::string ext = extensionOf(f, device);
    f.binarySha256 = sha256Hex(kept);
    keepInLabStore(f.binarySha256, ext, kept);
    if (prefix.empty()) return;
    f.binaryFile = prefix + name + ext;
    writeFileAtomically(f.binaryFile, kept);
}

} // namespace

nlohmann::json toJson(const ProgramFigures& f) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const KernelFigures& k : f.kernels)
        kernels.push_back({{"name", k.name},
                           {"work_group_size", k.workGroupSize},
                           {"preferred_work_group_size_multiple", k.preferredMultiple},
                           {"local_mem_bytes", k.localMemBytes},
                           {"private_mem_bytes", k.privateMemBytes}});
    return {{"program", f.program},          {"options", f.options},
            {"build_log", f.buildLog},       {"kernels", kernels},
            {"binary_bytes", f.binaryBytes}, {"binary_text", f.binaryText},
            {"binary_file", f.binaryFile},   {"binary_sha256", f.binarySha256},
            {"tunables", f.tunables}};
}

ProgramFigures programFiguresFromJson(const nlohmann::json& j) {
    ProgramFigures f;
    f.program = j.at("program"), f.options = j.at("options"), f.buildLog = j.at("build_log");
    f.binaryBytes = j.at("binary_bytes"), f.binaryText = j.at("binary_text");
    f.binaryFile = j.at("binary_file"), f.binarySha256 = j.value("binary_sha256", "");
    f.tunables = j.value("tunables", TunableValues{});
    for (const nlohmann::json& k : j.at("kernels"))
        f.kernels.push_back({k.at("name"), k.at("work_group_size"),
                             k.at("preferred_work_group_size_multiple"), k.at("local_mem_bytes"),
                             k.at("private_mem_bytes")});
    return f;
}

nlohmann::json programsJson(const std::vector<ProgramFigures>& programs) {
    nlohmann::json all = nlohmann::json::array();
    for (const ProgramFigures& p : programs)
        all.push_back(toJson(p));
    return all;
}

std::string verboseBuildOption(const DeviceInfo& device) {
    return device.vendor.find("NVIDIA") != std::string::npos ? "-cl-nv-verbose" : "";
}

TunableValues builtTunables(TunableValues declared, const std::vector<ProgramFigures>& programs) {
    for (const ProgramFigures& p : programs)
        for (const auto& [name, value] : p.tunables)
            if (const auto it = declared.find(name); it != declared.end()) it->second = value;
    return declared;
}

bool isTextOutput(const std::string& bytes) {
    const std::string text = textWithoutTrailingNuls(bytes);
    return !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 && c != '\t' && c != '\n' && c != '\r';
    });
}

std::vector<ProgramFigures> builtProgramFigures(const DeviceInfo& device,
                                                const std::vector<ProgramRecipe>& recipes,
                                                const ProgramOverrides& overrides,
                                                const std::string& binaryPrefix) {
    std::map<std::size_t, std::string> names; // source hash -> recipe
    for (const ProgramRecipe& r : recipes)
        names.emplace(std::hash<std::string>{}(overrides.apply(r).source()), r.name());
    const auto cl = ClDevice::get(device);
    std::map<std::string, int> seen; // a recipe built with several option sets: name-2, ...
    std::vector<ProgramFigures> all;
    for (const BuiltProgram& built : cl->builtPrograms()) {
        ProgramFigures f;
        const auto named = names.find(built.sourceHash);
        f.program = named != names.end() ? named->second : "unlisted";
        f.options = built.options, f.tunables = built.values;
        f.buildLog = built.buildLog;
        f.kernels = kernelFigures(built.program, cl->device());
        const std::string bytes = binaryOf(built.program);
        f.binaryBytes = bytes.size(), f.binaryText = isTextOutput(bytes);
        const int n = ++seen[f.program];
        if (!bytes.empty())
            keepBinary(f, bytes, device, binaryPrefix,
                       f.program + (n > 1 ? "-" + std::to_string(n) : ""));
        all.push_back(std::move(f));
    }
    return all;
}

} // namespace clscope
