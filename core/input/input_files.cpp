#include "core/input/input_files.hpp"

#include "core/input/input_sources.hpp"

namespace clscope {

std::vector<NamedPath> inputFiles(const std::vector<InputRole>& roles, const InputSources& sources,
                                  const std::string& paramsArgument) {
    std::vector<NamedPath> files{{"input", sources.file}};
    if (!paramsArgument.empty() && paramsArgument.front() != '{')
        files.push_back({"--params", paramsArgument});
    for (const InputRole& role : roles)
        if (!sources.disabled.count(role.id))
            files.push_back({role.flag.empty() ? role.id : role.flag, sources.locate(role).file});
    return files;
}

} // namespace clscope
