#include "gpu/lab/build_log.hpp"

#include "gpu/kernel_source.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace clscope {

namespace {

std::size_t lineCount(const std::string& text) {
    return std::size_t(std::count(text.begin(), text.end(), '\n')) +
           (text.empty() || text.back() == '\n' ? 0 : 1);
}

std::string lineOf(const std::string& text, std::size_t line) {
    std::istringstream in(text);
    std::string row;
    for (std::size_t n = 1; std::getline(in, row); ++n)
        if (n == line) return row;
    return "";
}

SourcePart part(std::string file, std::size_t first, std::string text) {
    const std::size_t count = lineCount(text);
    return {std::move(file), first, count, std::move(text)};
}

} // namespace

std::vector<SourcePart> sourceParts(const ProgramRecipe& recipe, const std::string& userFile) {
    if (recipe.sourceReplaced()) return {part(userFile, 1, recipe.source())};
    std::vector<SourcePart> parts;
    std::size_t first = 1;
    for (const std::string& name : recipe.sources()) {
        parts.push_back(part("resources/kernels/" + name + ".cl", first, kernelSource(name)));
        first += std::max<std::size_t>(parts.back().count, 1); // the joining newline
    }
    return parts;
}

std::string mapBuildLog(const std::string& log, const std::vector<SourcePart>& parts) {
    static const std::regex entry(R"(^.*?:(\d+):(\d+): (fatal error|error|warning|note): (.*)$)");
    std::istringstream in(log);
    std::string row, out;
    // PoCL 5 and later: "error: FILE:LINE:COL: text"
    static const std::regex pocl(R"(^(fatal error|error|warning|note): .*?:(\d+):(\d+): (.*)$)");
    std::smatch m;
    while (std::getline(in, row)) {
        if (std::regex_match(row, m, pocl))
            row =
                "<source>:" + m[2].str() + ":" + m[3].str() + ": " + m[1].str() + ": " + m[4].str();
        if (!std::regex_match(row, m, entry)) continue;
        const std::size_t line = std::stoul(m[1]);
        const auto at = std::find_if(parts.begin(), parts.end(), [&](const SourcePart& p) {
            return line >= p.first && line < p.first + std::max<std::size_t>(p.count, 1);
        });
        if (at == parts.end()) {
            out += row + "\n";
            continue;
        }
        const std::size_t local = line - at->first + 1;
        out += at->file + ":" + std::to_string(local) + ":" + m[2].str() + ": " + m[3].str() +
               ": " + m[4].str() + "\n    " + std::to_string(local) + " | " +
               lineOf(at->text, local) + "\n";
    }
    return out;
}

} // namespace clscope
