#include "gpu/variant/user_variants.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_parse.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

namespace clscope {

namespace fs = std::filesystem;

namespace {

const std::string prefix = "user:";

std::string bareName(const std::string& idOrName) {
    return isUserVariantId(idOrName) ? idOrName.substr(prefix.size()) : idOrName;
}

std::string fileText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

UserVariant readVariant(const std::string& algorithm, const std::string& name) {
    const fs::path dir = userVariantsRoot() / algorithm;
    const fs::path meta = dir / (name + ".json");
    const nlohmann::json j = parseJson(fileText(meta), meta.string());
    if (!j.is_object()) throw InputError(meta.string() + ": not a JSON object");
    UserVariant v;
    v.algorithm = algorithm, v.name = name;
    v.base = j.at("base").get<std::string>();
    v.program = j.at("program").get<std::string>();
    v.tunables = j.value("tunables", TunableValues{});
    v.source = fileText(dir / (name + ".cl"));
    return v;
}

std::string namesIn(const std::string& algorithm) {
    std::string names;
    for (const UserVariant& v : listUserVariants(algorithm))
        names += (names.empty() ? "" : ", ") + v.id();
    return names.empty() ? "none" : names;
}

} // namespace

ProgramOverrides UserVariant::overrides() const {
    return {tunables, {{program, source}}};
}

bool isUserVariantId(const std::string& id) {
    return id.rfind(prefix, 0) == 0;
}

std::string builtInVariantOf(const std::string& algorithm, const std::string& id) {
    return isUserVariantId(id) ? loadUserVariant(algorithm, id).base : id;
}

fs::path userVariantsRoot() {
    if (const char* dir = std::getenv("CLSCOPE_USER_VARIANTS"); dir && *dir) return dir;
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data)
        return fs::path(data) / "clscope" / "variants";
    const char* home = std::getenv("HOME");
    return fs::path(home ? home : ".") / ".local" / "share" / "clscope" / "variants";
}

std::vector<UserVariant> listUserVariants(const std::string& algorithm) {
    std::vector<UserVariant> out;
    std::error_code ec;
    const fs::path dir = userVariantsRoot() / algorithm;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().extension() != ".json") continue;
        try {
            out.push_back(readVariant(algorithm, entry.path().stem().string()));
        } catch (const std::exception&) { // half-written or foreign files are not variants
        }
    }
    std::sort(out.begin(), out.end(),
              [](const UserVariant& a, const UserVariant& b) { return a.name < b.name; });
    return out;
}

UserVariant loadUserVariant(const std::string& algorithm, const std::string& idOrName) {
    const std::string name = bareName(idOrName);
    try {
        return readVariant(algorithm, name);
    } catch (const std::exception& e) {
        throw UsageError(algorithm + " has no user variant '" + name + "' in " +
                         (userVariantsRoot() / algorithm).string() + " (" + e.what() +
                         "; there: " + namesIn(algorithm) + ")");
    }
}

fs::path saveUserVariant(const UserVariant& v) {
    static const std::regex valid("[A-Za-z0-9_.-]+");
    if (!std::regex_match(v.name, valid) || v.name.front() == '.')
        throw UsageError("a user variant's name takes letters, digits, '_', '-' and '.': '" +
                         v.name + "'");
    const fs::path dir = userVariantsRoot() / v.algorithm;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw UsageError("cannot create " + dir.string() + ": " + ec.message());
    const nlohmann::json j = {{"algorithm", v.algorithm},
                              {"name", v.name},
                              {"base", v.base},
                              {"program", v.program},
                              {"tunables", v.tunables}};
    const fs::path cl = dir / (v.name + ".cl");
    writeFileAtomically(cl.string(), v.source);
    writeFileAtomically((dir / (v.name + ".json")).string(), jsonText(j, 2) + "\n");
    return cl;
}

void warnDiscarded(const std::string& what) {
    std::fprintf(stderr, "clscope: warning: %s; discarded\n", what.c_str());
}

} // namespace clscope
