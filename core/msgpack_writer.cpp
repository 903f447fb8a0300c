#include "core/msgpack_writer.hpp"

#include "core/errors.hpp"

namespace clscope {

void MsgpackWriter::header(std::uint8_t code, std::uint64_t value, int size) {
    bytes_.push_back(static_cast<char>(code));
    for (int i = size - 1; i >= 0; --i)
        bytes_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void MsgpackWriter::length(std::size_t n, std::uint8_t fix, std::size_t fixLimit,
                           const std::uint8_t (&codes)[3]) {
    if (n < fixLimit)
        bytes_.push_back(static_cast<char>(fix | n));
    else if (codes[0] && n <= 0xff)
        header(codes[0], n, 1);
    else if (n <= 0xffff)
        header(codes[1], n, 2);
    else if (n <= 0xffffffffu)
        header(codes[2], n, 4);
    else
        throw UsageError("msgpack: " + std::to_string(n) + " elements do not fit 32 bits");
}

void MsgpackWriter::array(std::size_t count) {
    length(count, 0x90, 16, {0, 0xdc, 0xdd});
}

void MsgpackWriter::map(std::size_t count) {
    length(count, 0x80, 16, {0, 0xde, 0xdf});
}

void MsgpackWriter::string(std::string_view text) {
    length(text.size(), 0xa0, 32, {0xd9, 0xda, 0xdb});
    bytes_.append(text);
}

void MsgpackWriter::unsignedInt(std::uint64_t value) {
    if (value < 0x80)
        bytes_.push_back(static_cast<char>(value));
    else if (value <= 0xff)
        header(0xcc, value, 1);
    else if (value <= 0xffff)
        header(0xcd, value, 2);
    else if (value <= 0xffffffffu)
        header(0xce, value, 4);
    else
        header(0xcf, value, 8);
}

void MsgpackWriter::binary(const void* data, std::size_t size) {
    // bin has no fix form: a fix limit of 0 never takes it.
    length(size, 0, 0, {0xc4, 0xc5, 0xc6});
    bytes_.append(static_cast<const char*>(data), size);
}

} // namespace clscope
