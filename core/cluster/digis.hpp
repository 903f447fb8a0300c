// cluster's input: pixel digis of a silicon tracker, and their HDF5 layout (DESIGN.md §3,
// group /digis: module, x, y, adc as 1-D uint16 columns of one length).
#pragma once
#include "core/hdf5.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clscope {

// Pixel digis of a silicon tracker, structure of arrays.
struct Digis {
    static constexpr std::uint16_t invalidModule = 65534;
    static constexpr std::uint16_t moduleSizeX = 160;
    static constexpr std::uint16_t moduleSizeY = 416;
    std::vector<std::uint16_t> module, x, y, adc;
    std::size_t size() const { return module.size(); }
};

namespace paths {
inline const std::string digis = "/digis";
} // namespace paths

// The number of digis (InputError unless module, x, y and adc are 1-D of one length), and
// digis [first, first + count) checked to lie inside their module (for runs in passes).
std::size_t digiCount(const H5Reader& file, const std::string& group = paths::digis);
Digis readDigiRange(const H5Reader& file, const std::string& group, std::size_t first,
                    std::size_t count);
Digis readDigis(const H5Reader& file, const std::string& group = paths::digis);
void writeDigis(H5Writer& out, const Digis& digis, const std::string& group = paths::digis);

} // namespace clscope
