// Checks and command-line helpers of tst_cluster.
#pragma once
#include "core/cluster/cluster.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "test_util.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

namespace clscope::test {

// Parameters with a charge cut given as on the command line.
inline cluster::Params cut(const std::string& text) {
    cluster::Params p;
    p.chargeCut = cluster::ChargeCut::parse(text);
    return p;
}

// Results equal: ids per digi and every per-cluster quantity; on failure the count, the first
// difference and its values.
inline void expectSame(const cluster::Result& got, const cluster::Result& want,
                       const QString& what) {
    long long first = -1;
    const std::size_t bad = cluster::idMismatches(got, want, &first);
    if (bad)
        QFAIL(qPrintable(QString("%1: %2 of %3 digi ids differ, first digi %4 (%5 vs %6)")
                             .arg(what)
                             .arg(bad)
                             .arg(want.id.size())
                             .arg(first)
                             .arg(first < qint64(got.id.size()) ? got.id[first] : -99)
                             .arg(want.id[first])));
    QCOMPARE(got.count(), want.count());
    for (std::size_t c = 0; c < want.count(); ++c) {
        const bool same = got.module[c] == want.module[c] && got.size[c] == want.size[c] &&
                          got.sizeX[c] == want.sizeX[c] && got.sizeY[c] == want.sizeY[c] &&
                          got.charge[c] == want.charge[c] && got.x[c] == want.x[c] &&
                          got.y[c] == want.y[c];
        if (!same)
            QFAIL(qPrintable(
                QString("%1: cluster %2 differs (module %3/%4 size %5/%6 charge %7/%8 x %9/%10)")
                    .arg(what)
                    .arg(c)
                    .arg(got.module[c])
                    .arg(want.module[c])
                    .arg(got.size[c])
                    .arg(want.size[c])
                    .arg(got.charge[c])
                    .arg(want.charge[c])
                    .arg(got.x[c], 0, 'g', 17)
                    .arg(want.x[c], 0, 'g', 17)));
    }
}

// Numbering invariants: per module 0..n-1 without holes, ordered by lowest digi index.
inline void expectCanonical(const Digis& d, const cluster::Result& r) {
    std::map<int, std::vector<std::size_t>> firstDigi; // module -> lowest digi of each number
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (r.id[i] < 0) continue;
        auto& v = firstDigi[d.module[i]];
        if (v.size() <= std::size_t(r.id[i])) v.resize(r.id[i] + 1, SIZE_MAX);
        v[r.id[i]] = std::min(v[r.id[i]], i);
    }
    std::size_t clusters = 0;
    for (const auto& [module, v] : firstDigi) {
        for (std::size_t k = 0; k < v.size(); ++k) {
            QVERIFY2(v[k] != SIZE_MAX,
                     qPrintable(QString("module %1: number %2 unused").arg(module).arg(k)));
            if (k)
                QVERIFY2(v[k - 1] < v[k],
                         qPrintable(QString("module %1: numbers out of order").arg(module)));
        }
        clusters += v.size();
    }
    QCOMPARE(clusters, r.count());
}

inline CliRun cli(const QStringList& args) {
    return runCli(args);
}

inline std::string writeDigisFile(const QTemporaryDir& dir, const QString& name, const Digis& d) {
    const std::string file = dir.filePath(name).toStdString();
    H5Writer out(file);
    writeDigis(out, d);
    out.commit();
    return file;
}

template <class T> std::vector<T> readColumn(const H5Reader& in, const std::string& path) {
    const Array a = in.read(path, dtypeOf<T>());
    return {a.as<T>().begin(), a.as<T>().end()};
}

} // namespace clscope::test
