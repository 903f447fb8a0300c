// The sending side of a detector stream, for benches and tests: frames compressed as the
// bitshuffle HDF5 filter does ("bslz4", 8192-byte blocks) and DECTRIS Stream V2 messages
// encoded as CBOR (start, image, end), as a detector would send them.
#pragma once
#include "core/array.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace clscope::stream {

using Bytes = std::vector<std::byte>;

// `raw` (elements of elemSize bytes) compressed as bslz4.
Bytes compressBslz4(std::span<const std::byte> raw, std::size_t elemSize);

// Series 1, channel "threshold_1", `images` images of height x width `dtype`.
Bytes encodeStart(std::size_t height, std::size_t width, DType dtype, std::uint64_t images);
// Image `imageId` of series 1: a (height, width) `dtype` array given as bslz4 bytes. The
// image_id is an 8-byte CBOR integer right after the key "image_id" (setImageId patches it).
Bytes encodeImage(std::uint64_t imageId, std::size_t height, std::size_t width, DType dtype,
                  std::span<const std::byte> bslz4);
Bytes encodeEnd();
// Sets the image_id of a message made by encodeImage.
void setImageId(Bytes& image, std::uint64_t imageId);

} // namespace clscope::stream
