// Runs at scale through clscope-cli: every algorithm within a memory budget far below its
// input's size (several passes reading from disk) writes exactly what the in-memory run
// writes; one run over two PoCL devices (the same device listed twice) writes what one device
// writes, with and without a budget.
#include "core/hdf5.hpp"
#include "test_util.hpp"

#include <QRegularExpression>
#include <cmath>
#include <cstring>

using clscope::test::CliRun;

namespace {

CliRun cli(const QStringList& args) {
    return clscope::test::runCli(args);
}

// The pass count of a run's summary line ("...; 5 passes within a memory budget of ...").
int passesOf(const CliRun& r) {
    const auto m = QRegularExpression(R"((\d+) pass(es)? within a memory budget)").match(r.out);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

// Every dataset under `group` of two files: the same names, shapes, types and bytes.
void compareGroups(const clscope::H5Reader& a, const clscope::H5Reader& b, const std::string& group,
                   int& datasets) {
    const auto left = a.children(group), right = b.children(group);
    QCOMPARE(left.size(), right.size());
    for (std::size_t i = 0; i < left.size(); ++i) {
        QCOMPARE(left[i].path, right[i].path);
        if (left[i].kind == clscope::H5Node::Group) {
            compareGroups(a, b, left[i].path, datasets);
            continue;
        }
        if (left[i].kind != clscope::H5Node::Dataset) continue;
        const clscope::Array x = a.read(left[i].path), y = b.read(right[i].path);
        QVERIFY2(x.shape() == y.shape() && x.dtype() == y.dtype(), left[i].path.c_str());
        QVERIFY2(x.byteSize() == y.byteSize() &&
                     std::memcmp(x.bytes(), y.bytes(), x.byteSize()) == 0,
                 ("values differ in " + left[i].path).c_str());
        ++datasets;
    }
}

void expectSameOutput(const QString& first, const QString& second, const std::string& group) {
    const clscope::H5Reader a(first.toStdString()), b(second.toStdString());
    int datasets = 0;
    compareGroups(a, b, group, datasets);
    QVERIFY(datasets > 0);
    // The same parameters and input provenance, whatever the passes and devices.
    QCOMPARE(a.stringAttribute(group, "parameters"), b.stringAttribute(group, "parameters"));
}

} // namespace

class TestScale : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString path(const QString& name) { return tmp.filePath(name); }

    QString generate(const QStringList& args, const QString& name) {
        const CliRun r = cli(QStringList{"generate"} + args + QStringList{"-o", path(name)});
        if (r.code != 0) qWarning() << r.err;
        return r.code == 0 ? path(name) : QString();
    }

    // The algorithm command on `input`: in memory, then within `budget` (several passes), both
    // with the file read as a run without a stream stage reads it (CLSCOPE_FILE_PIPELINE=0),
    // then as the command runs it (through the streaming pipeline where the algorithm has a
    // stream stage), then on ocl:0 twice with and without the budget; every output equals the
    // in-memory one.
    void checkScaled(const QStringList& command, const QString& budget, const std::string& group,
                     int minPasses) {
        const QString whole = path("whole.h5"), passes = path("passes.h5");
        const QMap<QString, QString> noPipeline{{"CLSCOPE_FILE_PIPELINE", "0"}};
        const CliRun one = clscope::test::runCli(
            command + QStringList{"--device", "ocl:0", "-o", whole}, noPipeline);
        QVERIFY2(one.code == 0, qPrintable(one.err));
        QCOMPARE(passesOf(one), 1);
        const CliRun bounded = clscope::test::runCli(
            command + QStringList{"--device", "ocl:0", "--memory-budget", budget, "-o", passes},
            noPipeline);
        QVERIFY2(bounded.code == 0, qPrintable(bounded.err));
        QVERIFY2(passesOf(bounded) >= minPasses, qPrintable(bounded.out));
        expectSameOutput(whole, passes, group);
        const CliRun asRun = cli(
            command + QStringList{"--device", "ocl:0", "--memory-budget", budget, "-o", passes});
        QVERIFY2(asRun.code == 0, qPrintable(asRun.err));
        expectSameOutput(whole, passes, group);
        for (const QStringList& extra : {QStringList{}, QStringList{"--memory-budget", budget}}) {
            const QString two = path("two.h5");
            const CliRun r =
                cli(command + extra +
                    QStringList{"--device", "ocl:0,ocl:0", "--split", "always", "-o", two});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            expectSameOutput(whole, two, group);
            const clscope::H5Reader file(two.toStdString());
            QCOMPARE(file.stringAttribute(group, "device").value_or("").rfind("ocl:0,ocl:0", 0),
                     std::size_t(0));
        }
    }

  private slots:
    void xpcsInPassesEqualsInMemory() {
        // 48 frames of 40x36 uint16 (138 KB); 32 KB: slabs of 4 frames, 2-4 rings per pass.
        const QString in = generate({"xpcs", "--frames", "48", "--height", "40", "--width", "36",
                                     "--ring-width", "2", "--dtype", "uint16"},
                                    "xpcs.h5");
        QVERIFY(!in.isEmpty());
        checkScaled({"correlate", in, "--fit", "single", "--twotime", "3,9"}, "32K", "/xpcs", 4);
    }

    void spotsInPassesEqualsInMemory() {
        // 7 frames of 64x80 uint16 (72 KB); 24K: one frame per pass; auto threshold from frame 0.
        const QString in =
            generate({"diffraction", "--frames", "7", "--height", "64", "--width", "80", "--gaps"},
                     "diffraction.h5");
        QVERIFY(!in.isEmpty());
        checkScaled({"spots", in}, "24K", "/spots", 7);
        checkScaled(
            {"spots", in, "--global-threshold", "auto", "--algorithm", "dispersion_extended"},
            "24K", "/spots", 7);
    }

    void clusterInPassesEqualsInMemory() {
        const QString in = generate(
            {"digis", "--modules", "24", "--duplicates", "20", "--invalid", "15"}, "digis.h5");
        QVERIFY(!in.isEmpty());
        // A budget of a third of the digis' 32 bytes each: a quarter of them per pass.
        const clscope::H5Reader file(in.toStdString());
        const auto digis = file.info("/digis/module").shape.at(0);
        checkScaled({"cluster", in, "--charge-cut", "phase1"}, QString::number(digis * 32 / 3),
                    "/clusters", 3);
    }

    void rbfInPassesEqualsInMemory() {
        // 300 sources, 3 x 24^2 = 1728 targets (122 KB as counted); 40K: 5 passes of targets.
        const QString in =
            generate({"particles", "--sources", "300", "--grid-points", "24"}, "particles.h5");
        QVERIFY(!in.isEmpty());
        checkScaled({"rbf", in, "--kernel", "laplace"}, "40K", "/rbf", 4);
        // The run's own check against double covers as many targets over two devices as on
        // one: each part checks its share.
        const auto sampled = [&](const QString& devices) {
            const QString out = path("sampled.h5");
            const CliRun r = cli({"rbf", in, "--kernel", "laplace", "--device", devices, "--split",
                                  "always", "-o", out});
            if (r.code != 0) qWarning() << r.err;
            return clscope::H5Reader(out.toStdString()).stringAttribute("/rbf", "sample_targets");
        };
        const auto one = sampled("ocl:0");
        QVERIFY(one.has_value());
        QCOMPARE(sampled("ocl:0,ocl:0"), one);
    }

    // azint in passes, through the pipeline and over two devices (frame ranges, each device
    // uploading its own frames): the in-memory output, bit for bit.
    void azintInPassesEqualsInMemory() {
        const QString in =
            generate({"powder", "--frames", "9", "--height", "40", "--width", "50"}, "powder.h5");
        QVERIFY(!in.isEmpty());
        // 9 frames of 40x50 uint16 (36 KB); 12K: a few frames a pass.
        checkScaled({"azint", in, "--bins", "30", "--azimuth-bins", "3", "--solid-angle"}, "12K",
                    "/azint", 3);
    }

    void budgetErrorsAreUsageErrors() {
        const QString in =
            generate({"xpcs", "--frames", "20", "--height", "16", "--width", "16"}, "small.h5");
        for (const QString bad : {"0", "12X", "-5M", "99999999999999999999", "1.5G"}) {
            const CliRun r = cli({"correlate", in, "--memory-budget", bad, "-o", path("x.h5")});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--memory-budget"), qPrintable(r.err));
        }
        // One bin's frames cannot be cut: a budget below them names the bin and what it needs.
        const CliRun r = cli({"correlate", in, "--memory-budget", "64", "-o", path("x.h5")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("raise --memory-budget"), qPrintable(r.err));
        QVERIFY(!QFile::exists(path("x.h5")));
        // A bin that fits the budget but not beside the slab that reads the frames: the message
        // names both, and what it says is needed is more than the budget (it said 15.2 KiB,
        // "more than the memory budget 19.5 KiB allows").
        const QString longer =
            generate({"xpcs", "--frames", "60", "--height", "24", "--width", "24"}, "longer.h5");
        const CliRun s = cli({"correlate", longer, "--memory-budget", "20000", "-o", path("x.h5")});
        QCOMPARE(s.code, 2);
        const QRegularExpression said(R"(a read slab of .*: needs ([0-9.]+) KiB, more than the )"
                                      R"(memory budget ([0-9.]+) KiB allows)");
        const QRegularExpressionMatch m = said.match(s.err);
        QVERIFY2(m.hasMatch() && m.captured(1).toDouble() > m.captured(2).toDouble(),
                 qPrintable(s.err));
    }
};

QTEST_GUILESS_MAIN(TestScale)
#include "tst_scale.moc"
