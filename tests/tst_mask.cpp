// tst_mask: helpers shared by the slots, and main().
#include "tst_mask.hpp"

#include <cstdlib>

using clscope::mask::PixelSet;

PixelSet pixelsFromPicture(const std::vector<std::string>& rows) {
    PixelSet pixels;
    for (std::size_t j = 0; j < rows.size(); ++j)
        for (std::size_t i = 0; i < rows[j].size(); ++i)
            if (rows[j][i] == '#') pixels.push_back(static_cast<std::uint32_t>(j * rows[j].size() + i));
    return pixels;
}

std::string pictureOf(const PixelSet& pixels, std::size_t height, std::size_t width) {
    std::string text(height * (width + 1), '.');
    for (std::size_t j = 0; j < height; ++j) text[j * (width + 1) + width] = '\n';
    for (const std::uint32_t p : pixels) text[(p / width) * (width + 1) + p % width] = '#';
    return "\n" + text;
}

std::string testDataFile(const char* name) {
    const char* dir = std::getenv("CLSCOPE_TEST_DATA");
    return std::string(dir ? dir : "data") + "/" + name;
}

QTEST_APPLESS_MAIN(TstMask)
