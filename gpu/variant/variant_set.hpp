// An algorithm's variants (gpu/variant/variant_object.hpp), declared once and looked up by id.
#pragma once
#include "gpu/variant/variant_object.hpp"

#include <string>
#include <utility>
#include <vector>

namespace clscope {

// The list "a, b, c" of the ids, for messages.
std::string joinIds(const std::vector<std::string>& ids);
// UsageError "ALGORITHM: no variant 'ID' (a, b, c)".
[[noreturn]] void throwNoVariant(const std::string& algorithm, const std::string& id,
                                 const std::vector<std::string>& ids);

// An algorithm's variants, declared once; looked up by id.
template <class Context, class Output, class Traits = NoTraits> class VariantSet {
  public:
    using Member = Variant<Context, Output, Traits>;
    VariantSet(std::string algorithm, std::vector<Member> variants)
        : algorithm_(std::move(algorithm)), variants_(std::move(variants)) {}
    // The variant of that id; null when absent.
    const Member* get(const std::string& id) const {
        for (const Member& v : variants_)
            if (v.id() == id) return &v;
        return nullptr;
    }
    // The variant of that id; UsageError listing the ids when absent.
    const Member& find(const std::string& id) const {
        if (const Member* v = get(id)) return *v;
        throwNoVariant(algorithm_, id, ids());
    }
    // The given entry's device check (runAlgorithm lifts it for an emulated run), then, when a
    // context is given, the accepts of the variant of its id (none for an id not declared here,
    // e.g. a user's fork asked about under its own id).
    Support supports(const VariantEntry& entry, const DeviceInfo& device,
                     const Context* context) const {
        Support s = entry.supports(device);
        const Member* v = get(entry.info.id);
        if (s.ok && context && v && v->accepts) s = v->accepts(*context);
        return s;
    }
    std::vector<VariantEntry> entries() const {
        std::vector<VariantEntry> out;
        for (const Member& v : variants_)
            out.push_back(v.entry);
        return out;
    }
    std::vector<std::string> ids() const {
        std::vector<std::string> out;
        for (const Member& v : variants_)
            out.push_back(v.id());
        return out;
    }
    const std::vector<Member>& all() const { return variants_; }

  private:
    std::string algorithm_;
    std::vector<Member> variants_;
};

} // namespace clscope
