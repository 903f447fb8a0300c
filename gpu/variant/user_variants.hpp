// User variants (the kernel lab): a fork of a built-in variant's program, kept as one .cl (the
// program text) and one small JSON (the variant it was forked from, the program it replaces and
// the tunable values) in the user's data folder:
//   $CLSCOPE_USER_VARIANTS, else $XDG_DATA_HOME/clscope/variants, else
//   ~/.local/share/clscope/variants; then ALGO/NAME.cl and ALGO/NAME.json.
// A user variant runs as `user:NAME` wherever a variant id is taken: runAlgorithm runs the base
// variant's host code with the user's program (RunRequest::programs).
#pragma once
#include "gpu/recipe.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace clscope {

class Algorithm;

struct UserVariant {
    std::string algorithm, name; // name without the "user:" prefix
    std::string base;            // the built-in variant it was forked from
    std::string program;         // the recipe its source replaces
    std::string source;          // the program text (the .cl file)
    TunableValues tunables;      // values over the recipe's defaults
    std::string id() const { return "user:" + name; }
    // What a run of it asks of the base variant's programs.
    ProgramOverrides overrides() const;
};

// "user:NAME" ids are user variants.
bool isUserVariantId(const std::string& id);
// The built-in variant whose host code runs `id`: a user variant's base, else `id` itself
// (what an algorithm's supports() knows; UsageError for an unknown user variant).
std::string builtInVariantOf(const std::string& algorithm, const std::string& id);
// The folder holding one folder per algorithm.
std::filesystem::path userVariantsRoot();
// The user variants of an algorithm, by name; files that do not parse are skipped.
std::vector<UserVariant> listUserVariants(const std::string& algorithm);
// One user variant by id or name; UsageError naming the folder and the ones there when absent
// or unreadable.
UserVariant loadUserVariant(const std::string& algorithm, const std::string& idOrName);
// Writes NAME.cl and NAME.json (each atomically); UsageError for a name that is not
// [A-Za-z0-9_.-]+. Returns the .cl path.
std::filesystem::path saveUserVariant(const UserVariant& variant);
// The lab's kept state (a sweep cache row, the kept peaks) found not to be what clscope wrote:
// "clscope: warning: WHAT; discarded" on stderr (WHAT names the file), then measured again.
void warnDiscarded(const std::string& what);

} // namespace clscope
