// The /digis layout: read (checked column by column and digi by digi) and written.
#include "core/cluster/digis.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"

namespace clscope {

std::size_t digiCount(const H5Reader& file, const std::string& group) {
    const std::size_t n = checkUInt16Column(file, group + "/module");
    for (const char* column : {"/x", "/y", "/adc"})
        if (checkUInt16Column(file, group + column) != n)
            throw InputError(file.where(group) +
                             ": module, x, y and adc must have the same length");
    return n;
}

Digis readDigiRange(const H5Reader& file, const std::string& group, std::size_t first,
                    std::size_t count) {
    Digis d;
    d.module = readUInt16Range(file, group + "/module", first, count);
    d.x = readUInt16Range(file, group + "/x", first, count);
    d.y = readUInt16Range(file, group + "/y", first, count);
    d.adc = readUInt16Range(file, group + "/adc", first, count);
    for (std::size_t i = 0; i < count; ++i)
        if (d.module[i] != Digis::invalidModule &&
            (d.x[i] >= Digis::moduleSizeX || d.y[i] >= Digis::moduleSizeY))
            throw InputError(file.where(group) + ": digi " + std::to_string(first + i) + " at (" +
                             std::to_string(d.x[i]) + ", " + std::to_string(d.y[i]) +
                             ") lies outside the 160x416 module");
    return d;
}

Digis readDigis(const H5Reader& file, const std::string& group) {
    return readDigiRange(file, group, 0, digiCount(file, group));
}

void writeDigis(H5Writer& out, const Digis& digis, const std::string& group) {
    const Shape n{digis.size()};
    out.write(group + "/module", makeArray(n, digis.module));
    out.write(group + "/x", makeArray(n, digis.x));
    out.write(group + "/y", makeArray(n, digis.y));
    out.write(group + "/adc", makeArray(n, digis.adc));
}

} // namespace clscope
