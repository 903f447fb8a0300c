// RigakuFrames::rolesFile: an HDF5 file image with no objects, made once by H5Writer.
#include "core/sparse/rigaku_frames.hpp"

#include "core/temp_file.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace clscope {

namespace {

std::vector<std::byte> emptyFileImage() {
    namespace fs = std::filesystem;
    const std::string path = temporaryNameFor((fs::temp_directory_path() / "empty.h5").string());
    {
        H5Writer out(path);
        out.commit();
    }
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
    fs::remove(path);
    std::vector<std::byte> image(bytes.size());
    std::memcpy(image.data(), bytes.data(), bytes.size());
    return image;
}

} // namespace

std::shared_ptr<H5Reader> RigakuFrames::rolesFile(const std::string& fileName) {
    static const std::vector<std::byte> image = emptyFileImage();
    return std::make_shared<H5Reader>(fileName, image.data(), image.size(),
                                      H5Reader::Image::WrittenHere);
}

} // namespace clscope
