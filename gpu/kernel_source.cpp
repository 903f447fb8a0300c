#include "gpu/kernel_source.hpp"

#include "core/errors.hpp"

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace clscope {

// Defined in the generated kernels_embedded.cpp.
const std::map<std::string, std::string>& embeddedKernels();

namespace {

struct AddedSources {
    std::mutex mutex;
    std::map<std::string, std::string> texts;
};

AddedSources& added() {
    static AddedSources a;
    return a;
}

} // namespace

void addKernelSource(const std::string& name, std::string text) {
    std::lock_guard lock(added().mutex);
    added().texts[name] = std::move(text);
}

std::string kernelSource(const std::string& name) {
    {
        std::lock_guard lock(added().mutex);
        if (const auto it = added().texts.find(name); it != added().texts.end()) return it->second;
    }
    if (const char* dir = std::getenv("CLSCOPE_KERNEL_DIR"); dir && *dir) {
        const std::string path = std::string(dir) + "/" + name + ".cl";
        std::ifstream in(path);
        if (!in) throw DeviceError("kernel source " + path + " not found (CLSCOPE_KERNEL_DIR)");
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }
    const auto& all = embeddedKernels();
    const auto it = all.find(name);
    if (it == all.end()) throw DeviceError("no embedded kernel source " + name + ".cl");
    return it->second;
}

std::vector<std::string> embeddedKernelNames() {
    std::vector<std::string> names;
    for (const auto& [name, text] : embeddedKernels())
        names.push_back(name);
    return names;
}

std::string clTypeName(DType dtype) {
    switch (dtype) {
    case DType::UInt8:
        return "uchar";
    case DType::UInt16:
        return "ushort";
    case DType::UInt32:
        return "uint";
    case DType::Int32:
        return "int";
    case DType::Int64:
        return "long";
    case DType::Float32:
        return "float";
    case DType::Float64:
        return "double";
    }
    return "float";
}

} // namespace clscope
