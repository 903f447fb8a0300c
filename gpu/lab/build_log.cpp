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
    return {std::move(file), first, count, std::move(text), 1};
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

std::vector<BuildMessage> buildMessages(const std::string& log,
                                        const std::vector<SourcePart>& parts) {
    static const std::regex entry(R"(^.*?:(\d+):(\d+): (fatal error|error|warning|note): (.*)$)");
    // PoCL 5 and later: "error: FILE:LINE:COL: text"
    static const std::regex pocl(R"(^(fatal error|error|warning|note): .*?:(\d+):(\d+): (.*)$)");
    std::istringstream in(log);
    std::string row;
    std::vector<BuildMessage> out;
    std::smatch m;
    while (std::getline(in, row)) {
        if (std::regex_match(row, m, pocl))
            row =
                "<source>:" + m[2].str() + ":" + m[3].str() + ": " + m[1].str() + ": " + m[4].str();
        if (!std::regex_match(row, m, entry)) continue;
        BuildMessage message;
        message.line = std::stoul(m[1]), message.column = std::stoul(m[2]);
        message.kind = m[3], message.text = m[4], message.raw = row;
        const auto at = std::find_if(parts.begin(), parts.end(), [&](const SourcePart& p) {
            return message.line >= p.first &&
                   message.line < p.first + std::max<std::size_t>(p.count, 1);
        });
        if (at != parts.end()) {
            message.mapped = true, message.file = at->file;
            message.line = message.line - at->first + 1;
            message.sourceLine = lineOf(at->text, message.line);
            message.line += at->fileFirst - 1;
        }
        out.push_back(std::move(message));
    }
    return out;
}

std::string mapBuildLog(const std::string& log, const std::vector<SourcePart>& parts) {
    std::string out;
    for (const BuildMessage& m : buildMessages(log, parts)) {
        if (!m.mapped) {
            out += m.raw + "\n";
            continue;
        }
        const std::string line = std::to_string(m.line);
        out += m.file + ":" + line + ":" + std::to_string(m.column) + ": " + m.kind + ": " +
               m.text + "\n    " + line + " | " + m.sourceLine + "\n";
    }
    return out;
}

} // namespace clscope
