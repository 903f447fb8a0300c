#include "core/stream/cbor_item.hpp"

#include "core/errors.hpp"

#include <cbor.h>

namespace clscope::stream {

CborDocument::CborDocument(std::span<const std::byte> bytes, const std::string& what) {
    cbor_load_result result{};
    root_ = cbor_load(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &result);
    if (!root_ || result.error.code != CBOR_ERR_NONE)
        throw InputError("stream " + what + ": not a well-formed CBOR item (error " +
                         std::to_string(int(result.error.code)) + " at byte " +
                         std::to_string(result.error.position) + " of " +
                         std::to_string(bytes.size()) + ")");
    if (result.read != bytes.size()) {
        cbor_decref(&root_);
        throw InputError("stream " + what + ": " + std::to_string(bytes.size() - result.read) +
                         " bytes after the CBOR item");
    }
}

CborDocument::~CborDocument() {
    if (root_) cbor_decref(&root_);
}

void Field::fail(const std::string& expected) const {
    throw InputError("stream " + message_ + " message: field '" + name_ + "': " + expected);
}

Field Field::at(const std::string& key) const {
    if (!item_ || !cbor_isa_map(item_)) fail("expected a map");
    const cbor_pair* pairs = cbor_map_handle(item_);
    const std::string sub = name_.empty() ? key : name_ + "." + key;
    for (std::size_t i = 0; i < cbor_map_size(item_); ++i) {
        const cbor_item_t* k = pairs[i].key;
        if (cbor_isa_string(k) && cbor_string_is_definite(k) &&
            std::string_view(reinterpret_cast<const char*>(cbor_string_handle(k)),
                             cbor_string_length(k)) == key)
            return {pairs[i].value, message_, sub};
    }
    return {nullptr, message_, sub};
}

Field Field::require(const std::string& key) const {
    Field f = at(key);
    if (!f.present()) f.fail("missing");
    return f;
}

std::size_t Field::arraySize() const {
    if (!item_ || !cbor_isa_array(item_) || !cbor_array_is_definite(item_))
        fail("expected an array");
    return cbor_array_size(item_);
}

Field Field::element(std::size_t i) const {
    if (i >= arraySize())
        fail("expected an array of at least " + std::to_string(i + 1) + " elements");
    return {cbor_array_handle(item_)[i], message_, name_ + "[" + std::to_string(i) + "]"};
}

std::size_t Field::mapSize() const {
    if (!item_ || !cbor_isa_map(item_)) fail("expected a map");
    return cbor_map_size(item_);
}

Field Field::mapValue(std::size_t i, std::string* key) const {
    if (i >= mapSize()) fail("expected a map of at least " + std::to_string(i + 1) + " entries");
    const cbor_pair& p = cbor_map_handle(item_)[i];
    Field k{p.key, message_, name_ + " key"};
    *key = k.text();
    return {p.value, message_, name_ + "." + *key};
}

std::string Field::text() const {
    if (!item_ || !cbor_isa_string(item_) || !cbor_string_is_definite(item_))
        fail("expected a text string");
    return {reinterpret_cast<const char*>(cbor_string_handle(item_)), cbor_string_length(item_)};
}

std::uint64_t Field::uint() const {
    if (!item_ || !cbor_isa_uint(item_)) fail("expected an unsigned integer");
    return cbor_get_int(item_);
}

double Field::number() const {
    if (item_ && cbor_isa_uint(item_)) return double(cbor_get_int(item_));
    if (!item_ || !cbor_isa_float_ctrl(item_) || cbor_float_ctrl_is_ctrl(item_))
        fail("expected a number");
    return cbor_float_get_float(item_);
}

bool Field::boolean() const {
    if (!item_ || !cbor_isa_float_ctrl(item_) || !cbor_is_bool(item_)) fail("expected a boolean");
    return cbor_get_bool(item_);
}

std::span<const std::byte> Field::bytes() const {
    if (!item_ || !cbor_isa_bytestring(item_) || !cbor_bytestring_is_definite(item_))
        fail("expected a byte string");
    return {reinterpret_cast<const std::byte*>(cbor_bytestring_handle(item_)),
            cbor_bytestring_length(item_)};
}

bool Field::isTag() const {
    return item_ && cbor_isa_tag(item_);
}

std::uint64_t Field::tag() const {
    if (!isTag()) fail("expected a tagged item");
    return cbor_tag_value(item_);
}

Field Field::tagged() const {
    if (!isTag()) fail("expected a tagged item");
    cbor_item_t* inner = cbor_tag_item(item_); // a new reference; the tag keeps its own
    const cbor_item_t* borrowed = inner;
    cbor_decref(&inner);
    return {borrowed, message_, name_ + " (tag " + std::to_string(cbor_tag_value(item_)) + ")"};
}

} // namespace clscope::stream
