// Which dataset of the open file plays which role: the Data panel's presenter, Qt-free and
// tested without widgets. The roles are the input roles the registered algorithms declare
// (Algorithm::inputRoles, those with a layout), each id once.
#pragma once
#include "core/hdf5.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/variant/variant.hpp"

#include <compare>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

// An input role id (InputRole::id), e.g. "frames" or "labels".
struct DataRole {
    std::string id;
    // The image roles the workbench itself draws: the frames, their q-bin labels as an
    // overlay, the pixel mask as masked pixels.
    static const DataRole Frames, Labels, PixelMask;
    auto operator<=>(const DataRole&) const = default;
};

// Every role some registered algorithm offers the Data panel, in registry order.
const std::vector<DataRole>& allDataRoles();
// The declaration of a role (the first algorithm's that declares the id).
const InputRole& roleDeclaration(const DataRole& role);
std::string roleName(const DataRole& role);      // the title, e.g. "q-bin labels"
std::string roleShortName(const DataRole& role); // the id, e.g. "labels"

class DatasetRoles {
  public:
    // Open a file (without HDF5 file locking) and assign the default paths it has; frames stored
    // sparsely (DESIGN.md §3: the CSR layout or an event list at the frames' path or its
    // sibling group) play the frames role. A Rigaku .bin file (its name) holds frames alone:
    // file() is then an HDF5 file without objects under its name (RigakuFrames::rolesFile).
    void open(const std::string& fileName);
    void close();
    bool isOpen() const { return file_ != nullptr; }
    std::shared_ptr<const H5Reader> file() const { return file_; }
    std::string fileName() const { return file_ ? file_->fileName() : std::string(); }
    // Where a role's data is, for people: FILE.bin's frames (Rigaku) are the file itself, not the
    // path the roles file gives them.
    std::string describe(const DataRole& role, const std::string& path) const;
    // Whether the frames role names an event list: its frames need a bin width (frameTime).
    bool framesAreEvents() const;
    // The width of the frames an event list is binned into, seconds (none until set; open()
    // forgets it).
    std::optional<double> eventFrameTime() const { return eventFrameTime_; }
    void setEventFrameTime(std::optional<double> seconds) { eventFrameTime_ = seconds; }

    // Whether path can play role, with the reason when not (rank, dtype, shape, members).
    Support check(const DataRole& role, const std::string& path) const;
    // Assign when check() passes; returns the check's answer.
    Support assign(const DataRole& role, const std::string& path);
    void unassign(const DataRole& role) { paths_.erase(role); }
    std::optional<std::string> path(const DataRole& role) const;
    const std::map<DataRole, std::string>& assignments() const { return paths_; }
    // The role a double-click gives this path: the first role its check() accepts, roles
    // whose hints the path contains first, frame roles last.
    std::optional<DataRole> guessRole(const std::string& path) const;
    // The algorithm whose input the assigned roles fill: every role it requires assigned, the
    // most of its roles among those (registry order breaks ties), or `preferred` (the panel in
    // front) whenever the file fills it; "" when none.
    std::string fittingAlgorithm(const std::string& preferred = {}) const;

  private:
    Support checkImage(const std::string& path, bool wantInteger) const;
    Support checkFrames(const std::string& path) const;
    // (H, W) of the assigned frames, dense or sparse; none when it cannot be told.
    std::optional<Shape> framesImage() const;
    Support checkGroup(const std::string& path, const std::vector<std::string>& members) const;
    std::shared_ptr<const H5Reader> file_;
    std::map<DataRole, std::string> paths_;
    bool rigaku_ = false; // a Rigaku .bin file: frames alone, at the frames role's default path
    std::optional<double> eventFrameTime_;
};

} // namespace clscope::ui
