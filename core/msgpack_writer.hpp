// The subset of MessagePack (https://msgpack.org/) that DIALS' reflection table file needs
// (core/spots/dials_table): arrays, maps, strings, unsigned integers and binary blobs, each
// in its smallest form, headers big-endian as the format says.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace clscope {

class MsgpackWriter {
  public:
    void array(std::size_t count); // then `count` values
    void map(std::size_t count);   // then `count` keys and values
    void string(std::string_view text);
    void unsignedInt(std::uint64_t value);
    void binary(const void* data, std::size_t size);
    const std::string& bytes() const { return bytes_; }

  private:
    // A header byte then `size` big-endian bytes of value.
    void header(std::uint8_t code, std::uint64_t value, int size);
    // The header of a length: the fix form when below fixLimit, else 8, 16 or 32 bits
    // (codes[0..2]; codes[0] 0 where the form has no 8-bit length).
    void length(std::size_t n, std::uint8_t fix, std::size_t fixLimit,
                const std::uint8_t (&codes)[3]);
    std::string bytes_;
};

} // namespace clscope
