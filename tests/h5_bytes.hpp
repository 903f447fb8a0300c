// A dataset's bytes as stored, to compare outputs bit for bit.
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"

#include <QByteArray>

namespace clscope::test {

inline QByteArray bytesOf(const H5Reader& file, const std::string& path) {
    const Array a = file.read(path);
    return QByteArray(reinterpret_cast<const char*>(a.bytes()),
                      static_cast<qsizetype>(a.size() * dtypeSize(a.dtype())));
}

} // namespace clscope::test
