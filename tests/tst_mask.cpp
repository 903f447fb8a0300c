// tst_mask: helpers shared by the slots, and main().
#include "tst_mask.hpp"

#include <cstdlib>

using clscope::mask::PixelSet;

PixelSet pixelsFromPicture(const std::string& picture) {
    PixelSet pixels;
    const std::size_t width = picture.find(' ');
    std::size_t row = 0, column = 0;
    for (const char c : picture) {
        if (c == ' ') {
            ++row, column = 0;
            continue;
        }
        if (c == '#') pixels.push_back(static_cast<std::uint32_t>(row * width + column));
        ++column;
    }
    return pixels;
}

std::string pictureOf(const PixelSet& pixels, std::size_t height, std::size_t width) {
    std::string text(height * (width + 1), '.');
    for (std::size_t j = 0; j < height; ++j)
        text[j * (width + 1) + width] = '\n';
    for (const std::uint32_t p : pixels)
        text[(p / width) * (width + 1) + p % width] = '#';
    return "\n" + text;
}

std::string testDataFile(const char* name) {
    const char* dir = std::getenv("CLSCOPE_TEST_DATA");
    return std::string(dir ? dir : "data") + "/" + name;
}

QTEST_APPLESS_MAIN(TstMask)
