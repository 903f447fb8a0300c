// Two rows of the kernel lab side by side (`clscope-cli lab-diff`, the window's History ▸ Diff):
// tunables, check and times, the source (a line diff of the program texts kept in the lab store),
// and per program its build options, its kernels' OpenCL figures and its compiled output (a line
// diff when both are text). A row is the CLI's JSON row: lab --json's, or a history entry.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clscope {

// The lines of `a` and `b` as a unified diff body: "-" only in a, "+" only in b, " " both, with
// `context` lines kept around each change ("..." between); empty when the texts are equal. Texts
// too long to compare line by line (more than 4000 lines either) give one line saying so.
std::vector<std::string> lineDiff(const std::string& a, const std::string& b,
                                  std::size_t context = 2);

// The report, one line per fact, ending with a newline.
std::string labDiff(const nlohmann::json& a, const nlohmann::json& b);

} // namespace clscope
