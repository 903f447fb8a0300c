// A dataset's bytes as stored, whole groups compared and an export's command line rerun, to
// check outputs bit for bit.
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"
#include "test_util.hpp"

#include <QByteArray>
#include <QTest>

namespace clscope::test {

inline QByteArray bytesOf(const H5Reader& file, const std::string& path) {
    const Array a = file.read(path);
    return QByteArray(reinterpret_cast<const char*>(a.bytes()),
                      static_cast<qsizetype>(a.size() * dtypeSize(a.dtype())));
}

// Every dataset under `group` of `reference` is in `exported`, the same: type, shape, bytes
// (strings: the type).
inline void compareDatasets(const H5Reader& exported, const H5Reader& reference,
                            const std::string& group) {
    for (const H5Node& node : reference.children(group)) {
        if (node.kind == H5Node::Group) compareDatasets(exported, reference, node.path);
        if (node.kind != H5Node::Dataset) continue;
        QVERIFY2(exported.hasDataset(node.path), node.path.c_str());
        QCOMPARE(exported.info(node.path).typeName, node.info.typeName);
        if (node.info.typeName == "string") continue; // H5Reader reads numbers only
        QVERIFY2(test::bytesOf(exported, node.path) == test::bytesOf(reference, node.path),
                 (node.path + " differs").c_str());
    }
}

// The export's command_line attribute run with clscope-cli, writing `out` instead of OUT.h5.
inline CliRun rerunExport(const H5Reader& exported, const QString& out) {
    const auto line = exported.stringAttribute("/", "command_line");
    if (!line) return {-3, {}, "the export has no command_line attribute"};
    QStringList words = shellWords(QString::fromStdString(*line));
    if (words.size() < 4 || words.front() != "clscope-cli" || words.at(words.size() - 2) != "-o")
        return {-3, {}, "not a clscope-cli command line: " + QString::fromStdString(*line)};
    words.removeFirst();
    words.last() = out;
    CliRun run = runCli(words);
    run.err += " (from " + QString::fromStdString(*line) + ")";
    return run;
}

} // namespace clscope::test
