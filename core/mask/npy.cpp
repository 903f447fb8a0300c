#include "core/mask/npy.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>

namespace clscope::mask {

namespace {

static_assert(std::endian::native == std::endian::little, "NPY code assumes a little-endian host");

constexpr std::string_view magic = "\x93NUMPY";
constexpr const char* supported = "|b1, |u1, <u2, <u4, <i4, <i8, <f4 or <f8 (either byte order)";

struct Header {
    DType dtype = DType::UInt8;
    bool bigEndian = false;
    bool fortranOrder = false;
    Shape shape;
};

class HeaderParser {
  public:
    HeaderParser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(source_ + ": NPY header: " + what + " (header: " + std::string(text_) +
                         ")");
    }

    // The text of the value after 'key': up to the next top-level comma or closing brace.
    std::string_view value(const std::string& key) const {
        const std::string quoted = "'" + key + "'";
        const auto at = text_.find(quoted);
        if (at == std::string_view::npos) fail("expected a '" + key + "' entry");
        auto pos = text_.find(':', at + quoted.size());
        if (pos == std::string_view::npos) fail("expected ':' after '" + key + "'");
        ++pos;
        while (pos < text_.size() && text_[pos] == ' ')
            ++pos;
        if (pos >= text_.size()) fail("missing value of '" + key + "'");
        const char open = text_[pos];
        const auto end = open == '(' || open == '\'' ? text_.find(open == '(' ? ')' : '\'', pos + 1)
                                                     : text_.find_first_of(",} ", pos);
        if (end == std::string_view::npos) fail("unterminated value of '" + key + "'");
        return text_.substr(pos, end - pos + (open == '(' || open == '\'' ? 1 : 0));
    }

    Header parse() const {
        Header h;
        parseDescr(value("descr"), h);
        const std::string_view order = value("fortran_order");
        if (order != "False" && order != "True")
            fail("expected fortran_order True or False, found " + std::string(order));
        h.fortranOrder = order == "True";
        h.shape = parseShape(value("shape"));
        return h;
    }

  private:
    void parseDescr(std::string_view d, Header& h) const {
        if (d.size() < 2 || d.front() != '\'' || d.back() != '\'')
            fail("expected a simple dtype " + std::string(supported) + ", found " + std::string(d));
        if (d.size() != 5)
            fail("dtype " + std::string(d) + " is not supported, expected " + supported);
        const char order = d[1], kind = d[2], size = d[3];
        if (order != '<' && order != '>' && order != '|' && order != '=')
            fail("unknown byte order '" + std::string(1, order) + "'");
        h.bigEndian = order == '>';
        struct Code {
            char kind, size;
            DType dtype;
        };
        static constexpr Code codes[] = {{'b', '1', DType::UInt8},   {'u', '1', DType::UInt8},
                                         {'u', '2', DType::UInt16},  {'u', '4', DType::UInt32},
                                         {'i', '4', DType::Int32},   {'i', '8', DType::Int64},
                                         {'f', '4', DType::Float32}, {'f', '8', DType::Float64}};
        for (const Code& c : codes)
            if (c.kind == kind && c.size == size) {
                h.dtype = c.dtype;
                return;
            }
        fail("dtype " + std::string(d) + " is not supported, expected " + supported);
    }

    Shape parseShape(std::string_view s) const {
        if (s.size() < 2 || s.front() != '(' || s.back() != ')')
            fail("expected the shape as a tuple, found " + std::string(s));
        Shape shape;
        std::string_view rest = s.substr(1, s.size() - 2);
        while (!rest.empty()) {
            while (!rest.empty() && (rest.front() == ' ' || rest.front() == ','))
                rest.remove_prefix(1);
            if (rest.empty()) break;
            std::size_t n = 0;
            const auto res = std::from_chars(rest.data(), rest.data() + rest.size(), n);
            if (res.ec != std::errc()) fail("bad shape " + std::string(s));
            shape.push_back(n);
            rest.remove_prefix(static_cast<std::size_t>(res.ptr - rest.data()));
            if (!rest.empty() && rest.front() != ',' && rest.front() != ' ')
                fail("bad shape " + std::string(s));
        }
        return shape;
    }

    std::string_view text_;
    std::string source_;
};

std::size_t readLittle(std::string_view bytes, std::size_t at, std::size_t count) {
    std::size_t v = 0;
    for (std::size_t k = 0; k < count; ++k)
        v |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[at + k])) << (8 * k);
    return v;
}

// Byte-swaps each element of an array in place.
void swapElements(Array& a) {
    const std::size_t item = dtypeSize(a.dtype());
    for (std::size_t i = 0; i < a.size(); ++i)
        std::reverse(a.bytes() + i * item, a.bytes() + (i + 1) * item);
}

// Fortran-order (column-major) data of rank 2 turned into C order.
Array transposed(const Array& fortran) {
    const std::size_t rows = fortran.shape()[0], cols = fortran.shape()[1];
    const std::size_t item = dtypeSize(fortran.dtype());
    Array c(fortran.dtype(), fortran.shape());
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t k = 0; k < cols; ++k)
            std::memcpy(c.bytes() + (r * cols + k) * item, fortran.bytes() + (k * rows + r) * item,
                        item);
    return c;
}

std::string descrOf(DType d) {
    switch (d) {
    case DType::UInt8:
        return "|u1";
    case DType::UInt16:
        return "<u2";
    case DType::UInt32:
        return "<u4";
    case DType::Int32:
        return "<i4";
    case DType::Int64:
        return "<i8";
    case DType::Float32:
        return "<f4";
    case DType::Float64:
        break;
    }
    return "<f8";
}

std::string shapeTuple(const Shape& shape) {
    std::string s = "(";
    for (std::size_t k = 0; k < shape.size(); ++k)
        s += (k ? ", " : "") + std::to_string(shape[k]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

Array parseNpy(std::string_view bytes, const std::string& source) {
    if (bytes.size() < 10 || bytes.substr(0, magic.size()) != magic)
        throw InputError(source + ": not a NPY file (expected the magic string \\x93NUMPY)");
    const int major = static_cast<unsigned char>(bytes[6]);
    if (major < 1 || major > 3)
        throw InputError(source + ": NPY format version " + std::to_string(major) +
                         " is not supported (expected 1, 2 or 3)");
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    const std::size_t headerStart = 8 + lengthBytes;
    if (bytes.size() < headerStart) throw InputError(source + ": truncated NPY header");
    const std::size_t headerLength = readLittle(bytes, 8, lengthBytes);
    if (bytes.size() < headerStart + headerLength)
        throw InputError(source + ": truncated NPY header (expected " +
                         std::to_string(headerLength) + " header bytes)");
    const Header h = HeaderParser(bytes.substr(headerStart, headerLength), source).parse();
    if (h.fortranOrder && h.shape.size() > 2)
        throw InputError(source +
                         ": NPY header: Fortran order is supported up to rank 2, found "
                         "shape " +
                         shapeString(h.shape));
    const std::size_t dataStart = headerStart + headerLength;
    const std::size_t available = bytes.size() - dataStart;
    std::size_t needed = dtypeSize(h.dtype);
    for (const std::size_t n : h.shape)
        needed = n != 0 && needed > available / n ? available + 1 : needed * n;
    if (needed > available)
        throw InputError(source + ": truncated NPY data: " + dtypeName(h.dtype) + " " +
                         shapeString(h.shape) + " needs more than the " +
                         std::to_string(available) + " bytes after the header");
    Array a(h.dtype, h.shape);
    if (a.byteSize()) std::memcpy(a.bytes(), bytes.data() + dataStart, a.byteSize());
    if (h.bigEndian) swapElements(a);
    if (h.fortranOrder && h.shape.size() == 2) return transposed(a);
    return a;
}

std::string formatNpy(const Array& data) {
    std::string header = "{'descr': '" + descrOf(data.dtype()) +
                         "', 'fortran_order': False, 'shape': " + shapeTuple(data.shape()) + ", }";
    // Pad with spaces so that the data starts on a 64-byte boundary; end with a newline.
    const std::size_t unpadded = magic.size() + 4 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    if (header.size() > 65535) throw UsageError("NPY: header too long for format 1.0");
    std::string out(magic);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    out.append(reinterpret_cast<const char*>(data.bytes()), data.byteSize());
    return out;
}

Array readNpy(const std::string& fileName) {
    return parseNpy(readWholeFile(fileName), fileName);
}

void writeNpy(const std::string& fileName, const Array& data) {
    writeFileAtomically(fileName, formatNpy(data));
}

} // namespace clscope::mask
