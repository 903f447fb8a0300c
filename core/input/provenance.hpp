// Provenance: what an input was read from and the `parameters` attribute every output carries
// (DESIGN.md §3), each built by one function here. Part of the input module (DESIGN.md §1).
#pragma once
#include "core/input/input_role.hpp"
#include "core/input/input_sources.hpp"
#include "core/params.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace clscope {

// Where an input came from: {"file": the first role's file, "datasets": {role id: "FILE:PATH",
// or "in memory" for a role the sources hold in memory}, "frames": "FIRST:COUNT" (what --params
// of an exported run gives --frames) when a `stack` role is read and a frame range is given}.
// `roles`: the roles read, in order (an optional role only when it was read).
nlohmann::json inputProvenance(const InputSources& sources, const std::vector<InputRole>& roles);

// The `parameters` attribute: the parameter values, the input's provenance under "input" and
// the kernel overrides under "tuning" when there are any.
std::string parametersJson(const ParamSet& params, const nlohmann::json& input,
                           const std::map<std::string, int>& tuning = {});

} // namespace clscope
