#include "ui/data/dataset_roles.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/sparse/rigaku_frames.hpp"
#include "core/sparse/sparse_location.hpp"

#include <algorithm>
#include <filesystem>

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

std::string DatasetRoles::describe(const DataRole& role, const std::string& path) const {
    if (rigaku_ && role == DataRole::Frames)
        return std::filesystem::path(fileName()).filename().string() + " (Rigaku binary frames)";
    return path;
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
    rigaku_ = RigakuFrames::named(fileName);
    std::shared_ptr<const H5Reader> file;
    if (rigaku_) {
        RigakuFrames frames(fileName); // checked now: a bad file is refused as it opens
        file = RigakuFrames::rolesFile(fileName);
    } else {
        file = std::make_shared<const H5Reader>(fileName);
    }
    file_ = std::move(file);
    paths_.clear();
    eventFrameTime_.reset();
    const std::string frames = roleDeclaration(DataRole::Frames).defaultPath;
    if (rigaku_) paths_[DataRole::Frames] = frames;
    for (const InputRole& role : declarations())
        if (file_->hasObject(role.defaultPath)) assign({role.id}, role.defaultPath);
    if (!paths_.contains(DataRole::Frames))
        if (const auto sparse = findSparse(*file_, frames)) assign(DataRole::Frames, sparse->group);
}

void DatasetRoles::close() {
    file_.reset();
    paths_.clear();
    rigaku_ = false;
    eventFrameTime_.reset();
}

bool DatasetRoles::framesAreEvents() const {
    const auto frames = path(DataRole::Frames);
    if (!file_ || !frames || rigaku_) return false;
    const auto sparse = findSparse(*file_, *frames);
    return sparse && sparse->kind == SparseLocation::Kind::Events;
}

// The sparse layouts' shape attribute: (T, H, W) or, for an event list, (H, W), on the group
// or on its first column (docs/SPARSE.md).
std::optional<Shape> DatasetRoles::framesImage() const {
    const auto frames = path(DataRole::Frames);
    if (!frames) return std::nullopt;
    if (rigaku_) return Shape{RigakuFrames::height, RigakuFrames::width};
    if (file_->hasDataset(*frames)) {
        const Shape fs = file_->info(*frames).shape;
        return Shape{fs[fs.size() - 2], fs[fs.size() - 1]};
    }
    const auto sparse = findSparse(*file_, *frames);
    if (!sparse) return std::nullopt;
    for (const char* at : {"", "/frame_ptr", "/pixel"}) {
        const std::string object = sparse->group + at;
        if (!file_->hasObject(object)) continue;
        const auto shape = file_->integerAttribute(object, "shape");
        if (shape && shape->size() >= 2 && (*shape)[shape->size() - 2] > 0 && shape->back() > 0)
            return Shape{static_cast<std::size_t>((*shape)[shape->size() - 2]),
                         static_cast<std::size_t>(shape->back())};
    }
    return std::nullopt;
}

// A frame stack: a dense (T,H,W) or (H,W) dataset, or a group holding frames stored sparsely.
Support DatasetRoles::checkFrames(const std::string& path) const {
    if (rigaku_) return {false, "a Rigaku .bin file holds its frames alone"};
    if (!file_->hasDataset(path)) {
        const auto sparse = findSparse(*file_, path);
        if (sparse && sparse->group == path) return {};
        return {false, path + " is neither a dataset nor sparse frames (docs/SPARSE.md)"};
    }
    return checkImage(path, false);
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
    const auto image = wantInteger ? framesImage() : std::nullopt;
    if (image) {
        if (info.shape != *image)
            return {false, "shape " + shapeString(info.shape) + " does not match the frames' " +
                               shapeString(*image)};
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
        return checkFrames(path);
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
