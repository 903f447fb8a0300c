// Algorithm's entry points of the result reader facet and the provenance every reader reads.
#include "gpu/facets/result_reader.hpp"

#include "core/errors.hpp"
#include "gpu/command_line.hpp"

namespace clscope {

RunInfo storedRunInfo(const H5Reader& file, const std::string& group,
                      const std::string& algorithm) {
    RunInfo info;
    info.algorithm = algorithm;
    info.device = file.stringAttribute(group, "device").value_or("");
    info.variant = file.stringAttribute(group, "variant").value_or("");
    info.parametersJson = file.stringAttribute(group, "parameters").value_or("{}");
    const std::string ms = file.stringAttribute(group, "kernel_ms").value_or("0");
    try {
        info.kernelMs = std::stod(ms);
    } catch (const std::exception&) {
        throw InputError(file.where(group) + ": attribute kernel_ms is not a number: " + ms);
    }
    const auto open = info.device.find(" (");
    if (open != std::string::npos && info.device.back() == ')') {
        info.deviceName = info.device.substr(open + 2, info.device.size() - open - 3);
        info.device.resize(open);
    }
    return info;
}

ParamSet storedParams(const Algorithm& algorithm, const RunInfo& info, const std::string& where) {
    return storedCommand(algorithm, info, where).params;
}

void expectShape(const H5Reader& file, const std::string& path, const Array& a, bool ok,
                 const std::string& what) {
    if (!ok)
        throw InputError(file.where(path) + ": expected " + what + ", found " +
                         shapeString(a.shape()));
}

bool Algorithm::holdsResult(const H5Reader& file) const {
    const auto* f = facet<ResultReaderFacet>();
    return f && f->holds(file, outputGroup());
}

std::shared_ptr<AlgorithmResult> Algorithm::readResult(const H5Reader& file) const {
    const auto* f = facet<ResultReaderFacet>();
    if (!f) throw UsageError(id() + ": its results cannot be read back");
    return f->read(file, *this);
}

const Algorithm* AlgorithmRegistry::resultIn(const H5Reader& file) const {
    for (const auto& a : algorithms_)
        if (a->holdsResult(file)) return a.get();
    return nullptr;
}

} // namespace clscope
