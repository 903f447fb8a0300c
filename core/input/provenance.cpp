#include "core/input/provenance.hpp"

namespace clscope {

nlohmann::json inputProvenance(const InputSources& sources, const std::vector<InputRole>& roles) {
    nlohmann::json p = {{"file", roles.empty() ? sources.file : sources.locate(roles[0]).file}};
    for (const InputRole& role : roles) {
        const DataLocation at = sources.locate(role);
        p["datasets"][role.id] =
            sources.inMemory(role) ? std::string("in memory") : at.file + ":" + at.path;
        if (role.stack && !sources.frames.all()) p["frames"] = sources.frames.text();
    }
    return p;
}

std::string parametersJson(const ParamSet& params, const nlohmann::json& input,
                           const std::map<std::string, int>& tuning) {
    nlohmann::json j = params.values();
    j["input"] = input;
    if (!tuning.empty()) j["tuning"] = tuning;
    return j.dump();
}

} // namespace clscope
