#include "ui/data/dataset_roles.hpp"

#include "core/io.hpp"

#include <algorithm>

namespace clscope::ui {

const std::vector<DataRole>& allDataRoles() {
    static const std::vector<DataRole> roles{DataRole::Frames, DataRole::Labels,
                                             DataRole::PixelMask, DataRole::Digis,
                                             DataRole::Particles};
    return roles;
}

std::string roleName(DataRole role) {
    switch (role) {
    case DataRole::Frames:
        return "frames / image";
    case DataRole::Labels:
        return "q-bin labels";
    case DataRole::PixelMask:
        return "pixel mask";
    case DataRole::Digis:
        return "digis";
    case DataRole::Particles:
        break;
    }
    return "particles";
}

std::string roleShortName(DataRole role) {
    switch (role) {
    case DataRole::Frames:
        return "frames";
    case DataRole::Labels:
        return "labels";
    case DataRole::PixelMask:
        return "mask";
    case DataRole::Digis:
        return "digis";
    case DataRole::Particles:
        break;
    }
    return "particles";
}

void DatasetRoles::open(const std::string& fileName) {
    auto file = std::make_shared<const H5Reader>(fileName);
    file_ = std::move(file);
    paths_.clear();
    const std::vector<std::pair<DataRole, std::string>> defaults{
        {DataRole::Frames, paths::frames},
        {DataRole::Labels, paths::qmask},
        {DataRole::PixelMask, paths::pixelMask},
        {DataRole::Digis, paths::digis},
        {DataRole::Particles, paths::particles}};
    for (const auto& [role, path] : defaults)
        if (file_->hasObject(path)) assign(role, path);
}

void DatasetRoles::close() {
    file_.reset();
    paths_.clear();
}

Support DatasetRoles::checkImage(const std::string& path, bool wantInteger) const {
    if (!file_->hasDataset(path)) return {false, path + " is not a dataset"};
    const DatasetInfo info = file_->info(path);
    if (!info.dtype) return {false, "type " + info.typeName + " cannot be read"};
    if (wantInteger && (info.shape.size() != 2 || !dtypeIsInteger(*info.dtype)))
        return {false, "needs a 2-d integer dataset, this is " + shapeString(info.shape) + " " +
                           info.typeName};
    if (!wantInteger && info.shape.size() != 2 && info.shape.size() != 3)
        return {false, "needs (T,H,W) or (H,W), this is " + shapeString(info.shape)};
    // Masks must match the frames' (H,W) when frames are assigned.
    const auto frames = this->path(DataRole::Frames);
    if (wantInteger && frames) {
        const Shape fs = file_->info(*frames).shape;
        const Shape image{fs[fs.size() - 2], fs[fs.size() - 1]};
        if (info.shape != image)
            return {false, "shape " + shapeString(info.shape) + " does not match the frames' " +
                               shapeString(image)};
    }
    return {};
}

Support DatasetRoles::checkGroup(const std::string& path,
                                 const std::vector<std::string>& members) const {
    if (file_->hasDataset(path)) return {false, path + " is a dataset; this role takes a group"};
    for (const std::string& m : members)
        if (!file_->hasDataset(path + "/" + m))
            return {false, "the group has no '" + m + "' dataset"};
    return {};
}

Support DatasetRoles::check(DataRole role, const std::string& path) const {
    if (!file_) return {false, "no file is open"};
    if (!file_->hasObject(path)) return {false, path + " does not exist"};
    switch (role) {
    case DataRole::Frames:
        return checkImage(path, false);
    case DataRole::Labels:
    case DataRole::PixelMask:
        return checkImage(path, true);
    case DataRole::Digis:
        return checkGroup(path, {"module", "x", "y", "adc"});
    case DataRole::Particles:
        break;
    }
    return checkGroup(path, {"sources", "targets", "weights"});
}

Support DatasetRoles::assign(DataRole role, const std::string& path) {
    Support s = check(role, path);
    if (s.ok) paths_[role] = path;
    return s;
}

std::optional<std::string> DatasetRoles::path(DataRole role) const {
    const auto it = paths_.find(role);
    if (it == paths_.end()) return std::nullopt;
    return it->second;
}

std::optional<DataRole> DatasetRoles::guessRole(const std::string& path) const {
    std::string lower = path;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    const auto has = [&](const char* word) { return lower.find(word) != std::string::npos; };
    std::vector<DataRole> order;
    if (has("qmask") || has("label") || has("roi")) order.push_back(DataRole::Labels);
    if (has("pixel_mask") || has("mask")) order.push_back(DataRole::PixelMask);
    for (DataRole role : {DataRole::Digis, DataRole::Particles, DataRole::Frames})
        order.push_back(role);
    for (DataRole role : order)
        if (check(role, path).ok) return role;
    return std::nullopt;
}

} // namespace clscope::ui
