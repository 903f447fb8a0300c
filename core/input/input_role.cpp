#include "core/input/input_role.hpp"

namespace clscope {

InputRole makeRole(std::string id, std::string flag, std::string defaultPath, std::string help) {
    InputRole r;
    r.id = std::move(id), r.flag = std::move(flag), r.defaultPath = std::move(defaultPath),
    r.help = std::move(help);
    return r;
}

} // namespace clscope
