// DECTRIS Stream V2 messages (CBOR maps, one per ZeroMQ message) decoded into typed structs:
// start (series, image size, header detail, channels, pixel mask, frame time, count, the
// detector geometry when sent), image
// (one 2-D frame of the channel picked, else the first, raw or compressed as DECTRIS' compression
// tag says) and end. Every malformed message is an InputError naming the message type and the
// field.
#pragma once
#include "core/array.hpp"
#include "core/stream/frame_pool.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace clscope::stream {

// beam_center_x, _y (pixels), pixel_size_x, _y (m), the distance (m: detector_distance where
// sent, else detector_translation's z; NaN when neither), the wavelength (m: incident_wavelength
// in Å, else from incident_energy in eV).
struct DetectorHeader {
    double beamCenterX = 0, beamCenterY = 0, pixelSizeX = 0, pixelSizeY = 0;
    double distance = 0, wavelength = 0;
};

struct StartMessage {
    std::uint64_t seriesId = 0;
    std::string seriesUniqueId;
    std::size_t width = 0, height = 0; // image_size_x, image_size_y
    std::optional<DType> dtype;        // `image_dtype` when sent (else the images' own)
    std::string channel;               // the channel read: the first of `channels`
    std::vector<std::string> channels; // `channels` as sent (empty when not sent)
    std::string headerDetail;          // `header_detail`: "all", "basic", "none"; "" when not sent
    Array pixelMask;                   // (H,W) uint32 of that channel; empty when not sent
    double frameTime = 0;              // seconds; 0 when not sent
    double countTime = 0;
    std::uint64_t numberOfImages = 0; // 0 when not sent
    // The detector geometry as sent (azint::headerGeometry makes PONI parameters of it);
    // nullopt unless beam_center_x, _y, pixel_size_x, _y and a wavelength or energy are sent.
    std::optional<DetectorHeader> detector;
};

// An image's bytes as they came, compressed (decodeMessage with keepCompressed): what a device
// decodes itself (gpu/decode).
struct PackedImage {
    std::string algorithm;      // DECTRIS' compression tag: "bslz4" or "lz4"
    std::uint64_t elemSize = 1; // bytes per element, as the tag gives it
    std::vector<std::byte> bytes;
    std::size_t height = 0, width = 0;
    DType dtype = DType::UInt8;
    bool empty() const { return algorithm.empty(); }
};

struct ImageMessage {
    std::uint64_t seriesId = 0;
    std::uint64_t imageId = 0;
    Array frame;        // (H,W), the dtype of its typed array; empty when `packed` holds it
    PackedImage packed; // the compressed bytes, kept as they are (keepCompressed)
};

struct EndMessage {
    std::uint64_t seriesId = 0;
};

using Message = std::variant<StartMessage, ImageMessage, EndMessage>;

// Decode one message. `channel` picks the image channel (empty: the only or first one); an
// image's frame comes from `pool` where given. With `keepCompressed`, a little-endian image
// compressed by bslz4 or lz4 keeps its compressed bytes (ImageMessage::packed, checked by
// decodePacked when decoded) instead of being decompressed.
Message decodeMessage(std::span<const std::byte> bytes, const std::string& channel = {},
                      FramePool* pool = nullptr, bool keepCompressed = false);

// The frame of a packed image, decompressed on the host (InputError for corrupt data).
Array decodePacked(const PackedImage& packed, FramePool* pool = nullptr);

// An RFC 8746 typed array tag (64..87) as a DType and whether it is little-endian;
// nullopt for the tags clscope has no DType for (64-bit unsigned, 8/16-bit signed, float16).
struct TypedArrayTag {
    DType dtype;
    bool littleEndian;
};
std::optional<TypedArrayTag> typedArrayTag(std::uint64_t tag);

} // namespace clscope::stream
