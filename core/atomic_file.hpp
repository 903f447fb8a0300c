// Whole-file writes that never leave a partial output: the bytes go to a temporary name in
// the same folder, which is renamed into place only when everything was written.
#pragma once
#include <string>
#include <string_view>

namespace clscope {

// A whole file written now under its temporary name and renamed into place by publish(), so
// that several outputs of one run replace their files only when all of them were written.
// Destroyed unpublished, it removes the temporary. InputError naming fileName on failure.
class StagedFile {
  public:
    StagedFile(std::string fileName, std::string_view bytes);
    ~StagedFile();
    StagedFile(StagedFile&& o) noexcept;
    StagedFile(const StagedFile&) = delete;
    StagedFile& operator=(const StagedFile&) = delete;
    StagedFile& operator=(StagedFile&&) = delete;
    void publish();

  private:
    std::string fileName_, temp_;
};

// StagedFile(fileName, bytes).publish().
void writeFileAtomically(const std::string& fileName, std::string_view bytes);

// The whole content of a file; throws InputError naming fileName when it cannot be read.
std::string readWholeFile(const std::string& fileName);

} // namespace clscope
