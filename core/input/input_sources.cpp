#include "core/input/input_sources.hpp"

#include "core/sparse/rigaku_frames.hpp"
#include "core/stream/live_frames.hpp"

namespace clscope {

DataLocation InputSources::locate(const InputRole& role) const {
    const auto it = overrides.find(role.id);
    if (it == overrides.end() || it->second.empty()) return {file, role.defaultPath};
    if (role.otherFile) return parseLocation(it->second, role.defaultPath);
    return {file, it->second};
}

std::shared_ptr<H5Reader> InputSources::open(const std::string& name) const {
    if (RigakuFrames::named(name)) return RigakuFrames::rolesFile(name); // frames alone
    if (!live || name != file) return std::make_shared<H5Reader>(name);
    return live->startFile(); // the start message's datasets, opened once
}

bool InputSources::inMemory(const InputRole& role) const {
    const auto held = arrays.find(role.id);
    return held != arrays.end() && held->second;
}

} // namespace clscope
