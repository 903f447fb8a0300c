// Which dataset of the open file plays which role (frames, q-bin labels, pixel mask, digis,
// particles): the Data panel's presenter, Qt-free and tested without widgets.
#pragma once
#include "core/hdf5.hpp"
#include "gpu/variant.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

enum class DataRole { Frames, Labels, PixelMask, Digis, Particles };

const std::vector<DataRole>& allDataRoles();
std::string roleName(DataRole role);      // "frames / image", "q-bin labels", ...
std::string roleShortName(DataRole role); // "frames", "labels", "mask", "digis", "particles"

class DatasetRoles {
  public:
    // Open a file (without HDF5 file locking) and assign the default paths it has.
    void open(const std::string& fileName);
    void close();
    bool isOpen() const { return file_ != nullptr; }
    std::shared_ptr<const H5Reader> file() const { return file_; }
    std::string fileName() const { return file_ ? file_->fileName() : std::string(); }

    // Whether path can play role, with the reason when not (rank, dtype, shape, members).
    Support check(DataRole role, const std::string& path) const;
    // Assign when check() passes; returns the check's answer.
    Support assign(DataRole role, const std::string& path);
    void unassign(DataRole role) { paths_.erase(role); }
    std::optional<std::string> path(DataRole role) const;
    const std::map<DataRole, std::string>& assignments() const { return paths_; }
    // The role a double-click gives this path: the first role its check() accepts, by name
    // hints first (qmask, pixel_mask, digis, particles), else frames.
    std::optional<DataRole> guessRole(const std::string& path) const;

  private:
    Support checkImage(const std::string& path, bool wantInteger) const;
    Support checkGroup(const std::string& path, const std::vector<std::string>& members) const;
    std::shared_ptr<const H5Reader> file_;
    std::map<DataRole, std::string> paths_;
};

} // namespace clscope::ui
