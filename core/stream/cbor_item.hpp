// Read-only access to a decoded CBOR item (libcbor) with InputErrors that name the message and
// the field: every getter throws "stream MESSAGE message: field 'F': expected WHAT".
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

struct cbor_item_t;

namespace clscope::stream {

// Owns a whole decoded message.
class CborDocument {
  public:
    // InputError naming `what` when the bytes are not one well-formed CBOR item.
    CborDocument(std::span<const std::byte> bytes, const std::string& what);
    ~CborDocument();
    CborDocument(const CborDocument&) = delete;
    CborDocument& operator=(const CborDocument&) = delete;
    const cbor_item_t* root() const { return root_; }

  private:
    cbor_item_t* root_ = nullptr;
};

// A field of a message: the item plus where it is, for error messages. Borrowed from its
// CborDocument, which must outlive it.
class Field {
  public:
    Field(const cbor_item_t* item, std::string message, std::string name)
        : item_(item), message_(std::move(message)), name_(std::move(name)) {}
    bool present() const { return item_ != nullptr; }
    const std::string& name() const { return name_; }
    const cbor_item_t* item() const { return item_; }

    // Map entry `key` (absent: present() false); requires this field to be a map.
    Field at(const std::string& key) const;
    // Like at(), but InputError "missing" when absent.
    Field require(const std::string& key) const;
    // Array element i; requires an array of more than i elements.
    Field element(std::size_t i) const;
    std::size_t arraySize() const;
    std::size_t mapSize() const;
    Field mapValue(std::size_t i, std::string* key) const; // i-th entry of a map
    std::string text() const;
    std::uint64_t uint() const;
    double number() const; // float or unsigned integer
    bool boolean() const;
    std::span<const std::byte> bytes() const;
    bool isTag() const;
    std::uint64_t tag() const; // requires a tag
    Field tagged() const;      // the item a tag wraps
    [[noreturn]] void fail(const std::string& expected) const;

  private:
    const cbor_item_t* item_;
    std::string message_, name_;
};

} // namespace clscope::stream
