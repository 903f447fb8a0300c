#include "ui/data/dataset_roles.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"

#include <algorithm>

namespace clscope::ui {

const DataRole DataRole::Frames{"frames"}, DataRole::Labels{"labels"},
    DataRole::PixelMask{"pixel_mask"};

namespace {

// Each offered role id once, with the first declaration of it, in registry order.
const std::vector<InputRole>& declarations() {
    static const std::vector<InputRole> roles = [] {
        std::vector<InputRole> out;
        for (const auto& algorithm : AlgorithmRegistry::instance().all())
            for (const InputRole& role : algorithm->inputRoles())
                if (role.layout != InputRole::Layout::None &&
                    std::none_of(out.begin(), out.end(),
                                 [&](const InputRole& r) { return r.id == role.id; }))
                    out.push_back(role);
        return out;
    }();
    return roles;
}

} // namespace

const std::vector<DataRole>& allDataRoles() {
    static const std::vector<DataRole> roles = [] {
        std::vector<DataRole> out;
        for (const InputRole& role : declarations())
            out.push_back({role.id});
        return out;
    }();
    return roles;
}

const InputRole& roleDeclaration(const DataRole& role) {
    for (const InputRole& r : declarations())
        if (r.id == role.id) return r;
    throw UsageError("no registered algorithm reads a role '" + role.id + "'");
}

std::string roleName(const DataRole& role) {
    const InputRole& r = roleDeclaration(role);
    return r.title.empty() ? r.id : r.title;
}

std::string roleShortName(const DataRole& role) {
    return role.id;
}

std::string DatasetRoles::fittingAlgorithm(const std::string& preferred) const {
    std::string best;
    std::size_t most = 0;
    for (const auto& algorithm : AlgorithmRegistry::instance().all()) {
        std::size_t filled = 0;
        bool complete = true;
        for (const InputRole& role : algorithm->inputRoles()) {
            if (role.layout == InputRole::Layout::None) continue;
            const bool assigned = paths_.contains(DataRole{role.id});
            filled += assigned ? 1 : 0;
            complete = complete && (assigned || role.optional);
        }
        if (complete && filled > 0 && algorithm->id() == preferred) return preferred;
        if (complete && filled > most) best = algorithm->id(), most = filled;
    }
    return best;
}

void DatasetRoles::open(const std::string& fileName) {
    auto file = std::make_shared<const H5Reader>(fileName);
    file_ = std::move(file);
    paths_.clear();
    for (const InputRole& role : declarations())
        if (file_->hasObject(role.defaultPath)) assign({role.id}, role.defaultPath);
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

Support DatasetRoles::check(const DataRole& role, const std::string& path) const {
    if (!file_) return {false, "no file is open"};
    if (!file_->hasObject(path)) return {false, path + " does not exist"};
    const InputRole& r = roleDeclaration(role);
    switch (r.layout) {
    case InputRole::Layout::Frames:
        return checkImage(path, false);
    case InputRole::Layout::IntegerImage:
        return checkImage(path, true);
    case InputRole::Layout::Group:
        return checkGroup(path, r.members);
    case InputRole::Layout::None:
        break;
    }
    return {false, "the role '" + role.id + "' is not read from the Data panel"};
}

Support DatasetRoles::assign(const DataRole& role, const std::string& path) {
    Support s = check(role, path);
    if (s.ok) paths_[role] = path;
    return s;
}

std::optional<std::string> DatasetRoles::path(const DataRole& role) const {
    const auto it = paths_.find(role);
    if (it == paths_.end()) return std::nullopt;
    return it->second;
}

std::optional<DataRole> DatasetRoles::guessRole(const std::string& path) const {
    std::string lower = path;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    const auto hinted = [&](const InputRole& role) {
        return std::any_of(role.hints.begin(), role.hints.end(), [&](const std::string& word) {
            return lower.find(word) != std::string::npos;
        });
    };
    std::vector<const InputRole*> order;
    for (int pass = 0; pass < 3; ++pass)
        for (const InputRole& role : declarations()) {
            const bool frames = role.layout == InputRole::Layout::Frames;
            if ((pass == 0 && hinted(role)) || (pass == 1 && !hinted(role) && !frames) ||
                (pass == 2 && !hinted(role) && frames))
                order.push_back(&role);
        }
    for (const InputRole* role : order)
        if (check({role->id}, path).ok) return DataRole{role->id};
    return std::nullopt;
}

} // namespace clscope::ui
