// The kernel lab's store of what its rows built, by content: each program text and each compiled
// output once, as userVariantsRoot()/lab_store/<sha256>.<ext> (.cl a program text; .ptx, .txt or
// .bin a compiled output), so two rows of the history can be diffed long after their runs
// (gpu/lab/lab_diff.hpp). A row names them by its source_sha256 and its programs' binary_sha256.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace clscope {

std::filesystem::path labStoreFolder();
// Writes the bytes as <sha256>.<ext> unless there; errors are ignored (the store is an aid).
void keepInLabStore(const std::string& sha256, const std::string& ext, const std::string& bytes);
// The bytes kept under that sha256 with any extension; none when absent.
std::optional<std::string> fromLabStore(const std::string& sha256);

} // namespace clscope
