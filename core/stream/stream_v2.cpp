#include "core/stream/stream_v2.hpp"

#include "core/errors.hpp"
#include "core/stream/cbor_item.hpp"
#include "core/stream/compression.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace clscope::stream {
namespace {

constexpr std::uint64_t TagMultiDim = 40, TagCompressed = 56500;
constexpr std::size_t MaxSide = 1 << 16; // pixels per side: bounds what a message can allocate

std::optional<DType> dtypeNamed(const std::string& name) {
    for (DType d : {DType::UInt8, DType::UInt16, DType::UInt32, DType::Int32, DType::Int64,
                    DType::Float32, DType::Float64})
        if (dtypeName(d) == name) return d;
    return std::nullopt;
}

// The bytes of a typed array's content into `out`: a byte string, or a compressed one.
void fillBytes(const Field& content, Array& out) {
    std::span<std::byte> dst{out.bytes(), out.byteSize()};
    if (!content.isTag()) {
        auto src = content.bytes();
        if (src.size() != dst.size())
            content.fail("holds " + std::to_string(src.size()) + " bytes, expected " +
                         std::to_string(dst.size()));
        std::memcpy(dst.data(), src.data(), src.size());
        return;
    }
    if (content.tag() != TagCompressed)
        content.fail("expected a byte string or compression tag 56500, got tag " +
                     std::to_string(content.tag()));
    const Field c = content.tagged();
    if (c.arraySize() != 3) c.fail("expected [algorithm, element size, bytes]");
    try {
        decompress(c.element(0).text(), c.element(1).uint(), c.element(2).bytes(), dst);
    } catch (const InputError& e) {
        if (std::string(e.what()).starts_with("stream ")) throw;
        c.fail(e.what());
    }
}

// A compressed content (bslz4 or lz4) of a little-endian array into `packed`, as it is.
bool keepPacked(const Field& content, bool littleEndian, PackedImage& packed) {
    if (!littleEndian || !content.isTag() || content.tag() != TagCompressed) return false;
    const Field c = content.tagged();
    if (c.arraySize() != 3) c.fail("expected [algorithm, element size, bytes]");
    const std::string algorithm = c.element(0).text();
    if (algorithm != "bslz4" && algorithm != "lz4") return false; // decompress() says why
    const auto bytes = c.element(2).bytes();
    packed.algorithm = algorithm, packed.elemSize = c.element(1).uint();
    packed.bytes.assign(bytes.begin(), bytes.end());
    return true;
}

void toHostOrder(Array& a, bool littleEndian) {
    const std::size_t n = dtypeSize(a.dtype());
    if (littleEndian || n == 1) return;
    for (std::byte* p = a.bytes(); p != a.bytes() + a.byteSize(); p += n)
        std::reverse(p, p + n);
}

// tag 40 [[H, W], typed array]: a (H,W) array of `field`, checked against the expected size
// (0, 0: any size).
Array multiDimArray(const Field& field, std::size_t height, std::size_t width,
                    FramePool* pool = nullptr, PackedImage* packed = nullptr) {
    if (!field.isTag() || field.tag() != TagMultiDim)
        field.fail("expected a multi-dimensional array (tag 40)");
    const Field body = field.tagged();
    const Field dims = body.element(0);
    if (body.arraySize() != 2 || dims.arraySize() != 2)
        body.fail("expected [[height, width], typed array]");
    const std::size_t h = dims.element(0).uint(), w = dims.element(1).uint();
    if (h == 0 || w == 0 || h > MaxSide || w > MaxSide)
        dims.fail("image of " + std::to_string(h) + "x" + std::to_string(w) +
                  ", expected sides of 1.." + std::to_string(MaxSide));
    if ((height || width) && (h != height || w != width))
        dims.fail("image of " + std::to_string(h) + "x" + std::to_string(w) + ", expected " +
                  std::to_string(height) + "x" + std::to_string(width) + " (image_size_y x _x)");
    const Field typed = body.element(1);
    const auto t = typed.isTag() ? typedArrayTag(typed.tag()) : std::nullopt;
    if (!t) typed.fail("expected a typed array (RFC 8746 tag 64-87) of a supported type");
    if (packed &&
        keepPacked(typed.tagged(), t->littleEndian || dtypeSize(t->dtype) == 1, *packed)) {
        packed->height = h, packed->width = w, packed->dtype = t->dtype;
        return {};
    }
    Array out = pool ? pool->take(t->dtype, {h, w}) : Array(t->dtype, {h, w});
    fillBytes(typed.tagged(), out);
    toHostOrder(out, t->littleEndian);
    return out;
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

// The channel entry of a map of channels (data, pixel_mask): `channel`, else the first.
Field channelOf(const Field& map, const std::string& channel) {
    if (!channel.empty()) return map.require(channel);
    std::string key;
    return map.mapValue(0, &key);
}

// The sample-detector distance (m): DECTRIS sends the detector's translation vector
// (`detector_translation`, its z the distance); some publishers send `detector_distance` too,
// which is taken first. NaN when neither is sent.
double distanceOf(const Field& m) {
    if (const Field d = m.at("detector_distance"); d.present()) return d.number();
    const Field t = m.at("detector_translation");
    return t.present() && t.arraySize() == 3 ? t.element(2).number() : std::nan("");
}

// The detector geometry a start message sends (StartMessage::detector), as sent; nullopt when
// a field is missing (values are checked where they are used: a detector not set up sends zeros).
std::optional<DetectorHeader> detectorOf(const Field& m) {
    for (const char* name : {"beam_center_x", "beam_center_y", "pixel_size_x", "pixel_size_y"})
        if (!m.at(name).present()) return std::nullopt;
    const Field wavelength = m.at("incident_wavelength"), energy = m.at("incident_energy");
    if (!wavelength.present() && !energy.present()) return std::nullopt;
    constexpr double hcEvAngstrom = 12398.419843320026; // h c in eV Å
    DetectorHeader d;
    d.beamCenterX = m.at("beam_center_x").number(), d.beamCenterY = m.at("beam_center_y").number();
    d.pixelSizeX = m.at("pixel_size_x").number(), d.pixelSizeY = m.at("pixel_size_y").number();
    d.distance = distanceOf(m);
    d.wavelength =
        1e-10 * (wavelength.present() ? wavelength.number() : hcEvAngstrom / energy.number());
    return d;
}

StartMessage decodeStart(const Field& m, const std::string& channel) {
    StartMessage s;
    s.seriesId = m.require("series_id").uint();
    if (auto f = m.at("series_unique_id"); f.present()) s.seriesUniqueId = f.text();
    s.width = m.require("image_size_x").uint();
    s.height = m.require("image_size_y").uint();
    if (s.width == 0 || s.height == 0) m.require("image_size_x").fail("image size 0");
    if (auto f = m.at("header_detail"); f.present()) {
        s.headerDetail = f.text();
        if (s.headerDetail != "all" && s.headerDetail != "basic" && s.headerDetail != "none")
            f.fail("'" + s.headerDetail + "', expected all, basic or none");
    }
    if (auto f = m.at("channels"); f.present())
        for (std::size_t i = 0; i < f.arraySize(); ++i)
            s.channels.push_back(f.element(i).text());
    s.channel = channel.empty() && !s.channels.empty() ? s.channels.front() : channel;
    if (!channel.empty() && !s.channels.empty() &&
        std::find(s.channels.begin(), s.channels.end(), channel) == s.channels.end())
        m.require("channels")
            .fail("no channel '" + channel + "' (the series sends " + joined(s.channels) + ")");
    if (auto f = m.at("image_dtype"); f.present()) {
        s.dtype = dtypeNamed(f.text());
        if (!s.dtype) f.fail("unknown dtype '" + f.text() + "'");
    }
    if (auto f = m.at("frame_time"); f.present()) s.frameTime = f.number();
    if (auto f = m.at("count_time"); f.present()) s.countTime = f.number();
    if (auto f = m.at("number_of_images"); f.present()) s.numberOfImages = f.uint();
    s.detector = detectorOf(m);
    if (auto f = m.at("pixel_mask"); f.present() && f.mapSize() > 0) {
        s.pixelMask = multiDimArray(channelOf(f, s.channel), s.height, s.width);
        if (s.pixelMask.dtype() != DType::UInt32)
            f.fail("expected a uint32 mask, got " + dtypeName(s.pixelMask.dtype()));
    }
    return s;
}

ImageMessage decodeImage(const Field& m, const std::string& channel, FramePool* pool,
                         bool keepCompressed) {
    ImageMessage img;
    img.seriesId = m.require("series_id").uint();
    img.imageId = m.require("image_id").uint();
    const Field data = channelOf(m.require("data"), channel);
    // Any size here; the source checks it against the start message's.
    img.frame = multiDimArray(data, 0, 0, pool, keepCompressed ? &img.packed : nullptr);
    return img;
}

} // namespace

std::optional<TypedArrayTag> typedArrayTag(std::uint64_t tag) {
    if (tag < 64 || tag > 87) return std::nullopt;
    const unsigned f = (tag >> 4) & 1, s = (tag >> 3) & 1, e = (tag >> 2) & 1, ll = tag & 3;
    const bool little = e || (!f && ll == 0);
    if (f) {
        if (ll == 1) return TypedArrayTag{DType::Float32, bool(e)};
        if (ll == 2) return TypedArrayTag{DType::Float64, bool(e)};
        return std::nullopt;
    }
    if (!s) {
        static constexpr DType unsignedTypes[] = {DType::UInt8, DType::UInt16, DType::UInt32};
        if (ll < 3) return TypedArrayTag{unsignedTypes[ll], little};
        return std::nullopt;
    }
    if (ll == 2) return TypedArrayTag{DType::Int32, bool(e)};
    if (ll == 3) return TypedArrayTag{DType::Int64, bool(e)};
    return std::nullopt;
}

Message decodeMessage(std::span<const std::byte> bytes, const std::string& channel, FramePool* pool,
                      bool keepCompressed) {
    CborDocument doc(bytes, "message");
    const Field root(doc.root(), "unknown", "");
    const std::string type = root.require("type").text();
    const Field m(doc.root(), type, "");
    if (type == "start") return decodeStart(m, channel);
    if (type == "image") return decodeImage(m, channel, pool, keepCompressed);
    if (type == "end") return EndMessage{m.require("series_id").uint()};
    root.require("type").fail("unknown message type '" + type + "' (expected start, image, end)");
}

Array decodePacked(const PackedImage& packed, FramePool* pool) {
    const Shape shape{packed.height, packed.width};
    Array out = pool ? pool->take(packed.dtype, shape) : Array(packed.dtype, shape);
    try {
        decompress(packed.algorithm, packed.elemSize, packed.bytes, {out.bytes(), out.byteSize()});
    } catch (const InputError& e) {
        throw InputError(std::string("image message: field 'data': ") + e.what());
    }
    return out;
}

} // namespace clscope::stream
