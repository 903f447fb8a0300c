#include "core/output_check.hpp"

#include "core/errors.hpp"

#include <filesystem>
#include <sys/stat.h>

namespace clscope {

namespace fs = std::filesystem;

namespace {

std::string normalised(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? fs::path(path).lexically_normal().string() : p.lexically_normal().string();
}

std::string named(const NamedPath& p) {
    return p.option + " " + p.path;
}

} // namespace

bool sameFile(const std::string& a, const std::string& b) {
    struct stat sa {
    }, sb{};
    if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return normalised(a) == normalised(b);
}

void checkOutputFile(const std::string& option, const std::string& path) {
    const std::string what = option + " " + path;
    if (path.empty()) throw UsageError(option + ": the output file name is empty");
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode))
            throw UsageError(what + " is a symbolic link: the output would replace the link; "
                                    "give the file it points to");
        if (S_ISDIR(st.st_mode)) throw UsageError(what + " is a folder: give a file name");
        if (!S_ISREG(st.st_mode))
            throw UsageError(what + " is not a regular file (a FIFO, socket or device): the "
                                    "output would replace it; choose another output");
    }
    const fs::path dir = fs::path(path).parent_path();
    std::error_code ec;
    if (!dir.empty() && !fs::is_directory(dir, ec))
        throw InputError(path + ": output folder " + dir.string() + " does not exist");
}

void checkOutputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const NamedPath& out = outputs[i];
        for (const NamedPath& in : inputs)
            if (!in.path.empty() && sameFile(out.path, in.path))
                throw UsageError(named(out) + " is an input file of this run (" + named(in) +
                                 "): it would be replaced; choose another output");
        checkOutputFile(out.option, out.path);
        for (std::size_t j = 0; j < i; ++j)
            if (sameFile(out.path, outputs[j].path))
                throw UsageError(named(out) + " is also " + named(outputs[j]) +
                                 ": one would replace the other; choose another output");
    }
}

} // namespace clscope
