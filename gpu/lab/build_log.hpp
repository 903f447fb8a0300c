// A build log's errors and warnings at the lines of the files the program was made of. PoCL
// (Clang) writes "<source>:LINE:COL: error: text", NVIDIA "<kernel>:LINE:COL: error: text"; the
// line is the program text's. A replaced source is built as the user's file unchanged, so its
// lines are the file's; a recipe's own program is its source files joined with one newline
// between, so a line maps back into one of them.
#pragma once
#include "gpu/recipe.hpp"

#include <string>
#include <vector>

namespace clscope {

// One file within a program text: lines [first, first + count) of it are the file's 1..count.
struct SourcePart {
    std::string file;
    std::size_t first = 1, count = 0;
    std::string text;
    std::size_t fileFirst = 1; // the file's line of the part's line 1 (after a printed header)
};

// The parts of the program a recipe builds: the user's file when replaced (named `userFile`),
// else resources/kernels/<source>.cl each.
std::vector<SourcePart> sourceParts(const ProgramRecipe& recipe, const std::string& userFile);

// One error, warning or note of a build log. Mapped: at `line` of `file` (a part's); else the
// log's row as it was (`raw`), its line outside every part.
struct BuildMessage {
    bool mapped = false;
    std::string file;
    std::size_t line = 0, column = 0;
    std::string kind; // "error", "fatal error", "warning" or "note"
    std::string text, sourceLine, raw;
};

// The log's "FILE:LINE:COL: kind: text" (and PoCL 5's "kind: FILE:LINE:COL: text") rows, in
// order, at their files' lines.
std::vector<BuildMessage> buildMessages(const std::string& log,
                                        const std::vector<SourcePart>& parts);

// The log's messages at their files' lines, each followed by the source line; empty when the
// log has none in that form.
std::string mapBuildLog(const std::string& log, const std::vector<SourcePart>& parts);

} // namespace clscope
