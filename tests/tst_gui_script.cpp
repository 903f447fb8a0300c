// The scripted GUI run (DESIGN.md §4) on files written the way another facility's h5py code
// writes them: frame time in ms (and in µs), q in 1/Å (and in 1/nm). The GUI's export and
// clscope-cli correlate give the same τ, q, g2 and fit, bit for bit (issue 38: the GUI read
// the frame time as seconds and q as nm⁻¹, a plot 1000× off in τ without a warning). Also the
// scripted run's exit codes, and its command_line attribute rerun with clscope-cli.
#include "core/array.hpp"
#include "core/hdf5.hpp"
#include "h5_bytes.hpp"
#include "test_util.hpp"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cstring>

using namespace clscope;

namespace {

QString python() {
    return qEnvironmentVariable("CLSCOPE_PYTHON");
}

bool hasH5py() {
    return !python().isEmpty() && QProcess::execute(python(), {"-c", "import h5py, numpy"}) == 0;
}

// 96 frames of 16×16 uint16 speckle-like counts, 4 ring labels with their q and frame time,
// written by h5py as a facility's reduction code does.
bool writeFacilityFile(const QString& path, const QString& qUnit, double qScale,
                       const QString& timeUnit, double frameTime) {
    const QString script = R"(
import h5py, numpy as np, sys
path, qunit, qscale, tunit, ft = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], float(sys.argv[5])
rng = np.random.default_rng(7)
T, H, W = 96, 16, 16
base = rng.gamma(2.0, 20.0, size=(H, W))
walk = np.cumsum(rng.normal(0, 0.15, size=(T, H, W)), axis=0)
frames = rng.poisson(base * np.exp(0.3 * np.sin(walk))).astype(np.uint16)
y, x = np.mgrid[0:H, 0:W]
r = np.hypot(x - 7.5, y - 7.5)
labels = np.clip((r // 2).astype(np.int32), 0, 4)
with h5py.File(path, 'w') as f:
    f['/entry/data/data'] = frames
    f['/entry/processing/qmask'] = labels
    f['/entry/processing/qmask_label_ids'] = np.arange(1, 5, dtype=np.int32)
    q = f.create_dataset('/entry/processing/qmask_q', data=np.array([0.011, 0.023, 0.034, 0.046]) * qscale)
    q.attrs['units'] = qunit
    t = f.create_dataset('/entry/instrument/detector/frame_time', data=ft)
    t.attrs['units'] = tunit
)";
    return QProcess::execute(python(), {"-c", script, path, qUnit, QString::number(qScale, 'g', 17),
                                        timeUnit, QString::number(frameTime, 'g', 17)}) == 0;
}

// The GUI binary ($CLSCOPE_GUI) with its settings in a directory of its own: a scripted run
// saves the panels' parameters as the form does, and must not meet another run's.
const QTemporaryDir& guiConfig() {
    static QTemporaryDir config;
    return config;
}

test::CliRun runGui(const QStringList& args, QMap<QString, QString> env = {}) {
    env.insert("XDG_CONFIG_HOME", guiConfig().path());
    return test::runProgram(qEnvironmentVariable("CLSCOPE_GUI", "clscope"), args, env, 180000);
}

const char* const comparedDatasets[] = {"/xpcs/tau",      "/xpcs/q",           "/xpcs/g2",
                                        "/xpcs/g2_err",   "/xpcs/labels",      "/xpcs/fit/gamma",
                                        "/xpcs/fit/beta", "/xpcs/fit/baseline"};

} // namespace

class TstGuiScript : public QObject {
    Q_OBJECT
  private slots:
    void facilityFiles_data();
    void facilityFiles();
    void everyAlgorithm_data();
    void everyAlgorithm();
    void seriesBeyondTheBudget();
    void usageErrors();
    void exitCodes();
    void exportOverAnInput();
};

void TstGuiScript::facilityFiles_data() {
    QTest::addColumn<QString>("qUnit");
    QTest::addColumn<double>("qScale"); // stored q = q in 1/Å × qScale
    QTest::addColumn<QString>("timeUnit");
    QTest::addColumn<double>("frameTime"); // 1 ms as stored
    QTest::newRow("ms, 1/angstrom") << "1/angstrom" << 1.0 << "ms" << 1.0;
    QTest::newRow("us, 1/nm") << "1/nm" << 10.0 << "us" << 1000.0;
}

void TstGuiScript::facilityFiles() {
    QFETCH(QString, qUnit);
    QFETCH(double, qScale);
    QFETCH(QString, timeUnit);
    QFETCH(double, frameTime);
    if (!hasH5py()) QSKIP("python3-h5py not available");
    QTemporaryDir dir;
    const QString in = dir.filePath("facility.h5"), gui = dir.filePath("gui.h5");
    QVERIFY(writeFacilityFile(in, qUnit, qScale, timeUnit, frameTime));
    const auto run = runGui({in, "--run", "correlate", "--device", "cpu", "--params",
                             R"({"fit":"single"})", "--export-results", gui});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const H5Reader exported(gui.toStdString());
    const auto variant = exported.stringAttribute("/xpcs", "variant");
    QVERIFY(variant.has_value());
    // τ from 1 ms, q in 1/Å, whatever the file's units.
    const Array tau = exported.read("/xpcs/tau", DType::Float64),
                q = exported.read("/xpcs/q", DType::Float64);
    QVERIFY(std::abs(tau.as<double>()[1] - 1e-3) < 1e-18);
    QVERIFY(std::abs(q.as<double>()[0] - 0.011) < 1e-15);
    // clscope-cli correlate of the same file, variant and fit.
    const QString cli = dir.filePath("cli.h5");
    const auto direct =
        test::runCli({"correlate", in, "--device", "cpu", "--variant",
                      QString::fromStdString(*variant), "--fit", "single", "-o", cli});
    QVERIFY2(direct.code == 0, qPrintable(direct.err));
    // The export's command line, rerun.
    const auto again = test::rerunExport(exported, dir.filePath("again.h5"));
    QVERIFY2(again.code == 0, qPrintable(again.err));
    for (const QString& other : {cli, dir.filePath("again.h5")}) {
        const H5Reader reference(other.toStdString());
        for (const char* path : comparedDatasets) {
            QVERIFY2(exported.hasDataset(path), path);
            QVERIFY2(test::bytesOf(exported, path) == test::bytesOf(reference, path),
                     qPrintable(QString("%1 differs from %2").arg(QString(path), other)));
        }
    }
}

void TstGuiScript::everyAlgorithm_data() {
    QTest::addColumn<QStringList>("generate"); // clscope-cli generate KIND OPTIONS
    QTest::addColumn<QStringList>("run");      // the scripted run's options
    QTest::addColumn<QString>("group");        // the result's group
    QTest::addColumn<QStringList>("expected"); // in its command line: the settings taken
    const QString spotsParams = R"({"gain":1.5,"min_spot_size":2})";
    QTest::newRow("spots") << QStringList{"diffraction", "--frames", "4",       "--height", "64",
                                          "--width",     "96",       "--spots", "8"}
                           << QStringList{"spots", "--frames", "1:2", "--params", spotsParams}
                           << "/spots" << QStringList{"--frames 1:2", "--gain 1.5"};
    QTest::newRow("cluster") << QStringList{"digis", "--modules", "8"}
                             << QStringList{"cluster", "--params", R"({"charge_cut":"phase1"})"}
                             << "/clusters" << QStringList{"--charge-cut phase1"};
    QTest::newRow("rbf") << QStringList{"particles", "--sources", "20", "--grid-points", "16"}
                         << QStringList{"rbf", "--params", R"({"kernel":"laplace","planes":12})"}
                         << "/rbf" << QStringList{"--kernel laplace", "--planes 12"};
    QTest::newRow("xpcs") << QStringList{"xpcs", "--frames", "60", "--height",
                                         "24",   "--width",  "24"}
                          << QStringList{"correlate", "--frames", "5:40", "--params",
                                         R"({"fit":"single","twotime":[1]})"}
                          << "/xpcs" << QStringList{"--frames 5:40", "--fit single"};
}

// A GUI run of each algorithm with parameters off their defaults (and a frame range where it
// reads frames), its export's command line rerun with clscope-cli: the same datasets, bit for
// bit, and the same `parameters` attribute.
void TstGuiScript::everyAlgorithm() {
    QFETCH(QStringList, generate);
    QFETCH(QStringList, run);
    QFETCH(QString, group);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    const QString in = dir.filePath("in.h5"), gui = dir.filePath("gui.h5");
    const auto made = test::runCli(QStringList{"generate"} + generate + QStringList{"-o", in});
    QVERIFY2(made.code == 0, qPrintable(made.err));
    const auto scripted = runGui(QStringList{in, "--device", "cpu", "--run"} + run +
                                 QStringList{"--export-results", gui});
    QVERIFY2(scripted.code == 0, qPrintable(scripted.err));
    const H5Reader exported(gui.toStdString());
    const QString line = QString::fromStdString(*exported.stringAttribute("/", "command_line"));
    for (const QString& words : expected)
        QVERIFY2(line.contains(" " + words + " "), qPrintable(line + " lacks " + words));
    const QString cli = dir.filePath("cli.h5");
    const auto again = test::rerunExport(exported, cli);
    QVERIFY2(again.code == 0, qPrintable(again.err));
    const H5Reader reference(cli.toStdString());
    test::compareDatasets(exported, reference, group.toStdString());
    if (QTest::currentTestFailed()) return;
    QCOMPARE(exported.stringAttribute(group.toStdString(), "parameters"),
             reference.stringAttribute(group.toStdString(), "parameters"));
    // The user's settings (here: the run's XDG_CONFIG_HOME) keep no parameter of the run.
    for (QDirIterator it(guiConfig().path(), QDir::Files, QDirIterator::Subdirectories);
         it.hasNext();) {
        QFile saved(it.next());
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY2(!saved.readAll().contains("parameters"), qPrintable(saved.fileName()));
    }
}

// An xpcs series longer than the memory budget (CLSCOPE_MEMORY_LIMIT: the GUI's budget is the
// command line's default, half of it) runs as clscope-cli runs it, dense in passes over groups
// of bins, multi-tau streamed: the export has g2 without the frames (/xpcs/input), equal to a
// whole run's and the command line's; within the budget the frames are read whole for the
// intensity views and exported with the result.
void TstGuiScript::seriesBeyondTheBudget() {
    QTemporaryDir dir;
    const QString in = dir.filePath("in.h5"), passes = dir.filePath("passes.h5");
    const auto made = test::runCli({"generate", "xpcs", "--frames", "60", "--height", "24",
                                    "--width", "24", "--ring-width", "3", "-o", in});
    QVERIFY2(made.code == 0, qPrintable(made.err));
    const QStringList run{in, "--device", "cpu", "--run", "correlate", "--export-results"};
    // cpu holds one bin's 60 x 60 Gram matrix (28,800 bytes) beside the frames (34,560): of a
    // budget of 50,000 bytes the passes get the rest.
    const QMap<QString, QString> limit{{"CLSCOPE_MEMORY_LIMIT", "100000"}};
    const auto scripted = runGui(run + QStringList{passes}, limit);
    QVERIFY2(scripted.code == 0, qPrintable(scripted.err));
    const QString whole = dir.filePath("whole.h5");
    QVERIFY(runGui(run + QStringList{whole}).code == 0);
    const H5Reader inPasses(passes.toStdString()), read(whole.toStdString());
    QVERIFY(!inPasses.hasObject("/xpcs/input") && read.hasObject("/xpcs/input"));
    test::compareDatasets(read, inPasses, "/xpcs");
    // The command line under the same limit: passes, and the same datasets.
    const QString cli = dir.filePath("cli.h5");
    const auto line = test::runCli({"correlate", in, "--device", "cpu", "-o", cli}, limit);
    QVERIFY2(line.code == 0 && line.out.contains(" passes within"), qPrintable(line.out));
    test::compareDatasets(inPasses, H5Reader(cli.toStdString()), "/xpcs");
    // Multi-tau on an OpenCL device streams through the pipeline: it plans no passes, so the
    // frames' size alone tells that they are not read whole.
    const QString streamed = dir.filePath("streamed.h5"), cliStreamed = dir.filePath("cs.h5");
    const auto multitau =
        runGui({in, "--device", "ocl:0", "--run", "correlate", "--variant", "multitau", "--params",
                R"({"multitau":true})", "--export-results", streamed},
               {{"CLSCOPE_MEMORY_LIMIT", "60000"}});
    QVERIFY2(multitau.code == 0, qPrintable(multitau.err));
    const H5Reader streamedRun(streamed.toStdString());
    QVERIFY(!streamedRun.hasObject("/xpcs/input"));
    const auto again = test::rerunExport(streamedRun, cliStreamed);
    QVERIFY2(again.code == 0, qPrintable(again.err));
    test::compareDatasets(streamedRun, H5Reader(cliStreamed.toStdString()), "/xpcs");
}

// What clscope-cli refuses as a usage error, the scripted run refuses the same way (exit 2,
// the reason on stderr, no export): a frame range for an algorithm that reads no frames, an
// unknown variant, a parameter value out of its range.
void TstGuiScript::usageErrors() {
    QTemporaryDir dir;
    const QString in = dir.filePath("digis.h5"), out = dir.filePath("o.h5");
    QCOMPARE(test::runCli({"generate", "digis", "--modules", "4", "-o", in}).code, 0);
    const QList<std::pair<QStringList, QString>> cases{
        {{"--frames", "0:2"}, "reads no frames"},
        {{"--variant", "nosuch"}, "nosuch"},
        {{"--params", R"({"charge_cut":"tiny"})"}, "tiny"}};
    for (const auto& [options, reason] : cases) {
        const auto run = runGui(QStringList{in, "--run", "cluster", "--device", "cpu"} + options +
                                QStringList{"--export-results", out});
        QVERIFY2(run.code == 2 && run.err.contains(reason),
                 qPrintable(options.join(' ') + ": " + QString::number(run.code) + " " + run.err));
        QVERIFY(!QFile::exists(out));
    }
}

// Bad input (an array-valued units attribute): exit 3 with the dataset named on stderr, no
// export; a usage error: exit 2; an unknown device: exit 4.
void TstGuiScript::exitCodes() {
    if (!hasH5py()) QSKIP("python3-h5py not available");
    QTemporaryDir dir;
    const QString in = dir.filePath("facility.h5"), out = dir.filePath("o.h5");
    QVERIFY(writeFacilityFile(in, "1/angstrom", 1.0, "ms", 1.0));
    QCOMPARE(runGui({in, "--run", "correlate", "--frames", "x:y", "--export-results", out}).code,
             2);
    QCOMPARE(runGui({in, "--run", "correlate", "--device", "ocl:99", "--export-results", out}).code,
             4);
    QCOMPARE(QProcess::execute(python(), {"-c",
                                          "import h5py,sys; f=h5py.File(sys.argv[1],'r+'); "
                                          "f['/entry/instrument/detector/frame_time']"
                                          ".attrs['units']=['ms','s']",
                                          in}),
             0);
    const auto bad = runGui({in, "--run", "correlate", "--device", "cpu", "--export-results", out});
    QCOMPARE(bad.code, 3);
    QVERIFY2(bad.err.contains("frame_time") && bad.err.contains("one unit name"),
             qPrintable(bad.err));
    QVERIFY(!QFile::exists(out));
    // A device error of the run itself (a user variant that does not build): 4, as the CLI
    // (the panel heard of the failure before the script read its kind: it exited 3).
    if (!test::runCli({"devices"}).out.contains("ocl:0")) return; // no OpenCL device
    const QString small = dir.filePath("small.h5");
    QCOMPARE(test::runCli({"generate", "xpcs", "-o", small, "--frames", "6", "--height", "16",
                           "--width", "16"})
                 .code,
             0);
    QVERIFY(QDir().mkpath(dir.filePath("variants/xpcs")));
    QFile broken(dir.filePath("variants/xpcs/broken.cl")),
        meta(dir.filePath("variants/xpcs/broken.json"));
    QVERIFY(broken.open(QIODevice::WriteOnly) && meta.open(QIODevice::WriteOnly));
    broken.write("__kernel void xpcs_ordered(this is not C) {}\n");
    meta.write(R"({"base": "ordered", "program": "xpcs_seed", "tunables": {}})");
    broken.close(), meta.close();
    const auto device = runGui({small, "--run", "correlate", "--variant", "user:broken", "--device",
                                "ocl:0", "--export-results", out},
                               {{"CLSCOPE_USER_VARIANTS", dir.filePath("variants")}});
    QVERIFY2(device.code == 4 && device.err.contains("kernel build failed"),
             qPrintable(QString::number(device.code) + " " + device.err));
    QVERIFY(!QFile::exists(out));
}

// An export that would replace an input (the open file itself, a link to it, the --params
// file) or that is a folder: exit 2 before the run, as clscope-cli refuses such a -o, and the
// input left whole (issue 52: the export replaced IN.h5 and exited 0).
void TstGuiScript::exportOverAnInput() {
    QTemporaryDir dir;
    const QString in = dir.filePath("d.h5"), params = dir.filePath("p.json");
    QCOMPARE(test::runCli({"generate", "diffraction", "-o", in, "--frames", "2", "--height", "32",
                           "--width", "40", "--spots", "3"})
                 .code,
             0);
    QFile paramsFile(params);
    QVERIFY(paramsFile.open(QIODevice::WriteOnly) && paramsFile.write(R"({"gain":1.5})") > 0);
    paramsFile.close();
    QVERIFY(QFile::link(in, dir.filePath("link.h5")));
    const QList<std::pair<QString, QString>> cases{{in, "input file"},
                                                   {dir.filePath("link.h5"), "input file"},
                                                   {params, "input file"},
                                                   {dir.path(), "folder"}};
    for (const auto& [out, reason] : cases) {
        const auto run = runGui(
            {in, "--run", "spots", "--device", "cpu", "--params", params, "--export-results", out});
        QVERIFY2(run.code == 2 && run.err.contains(reason),
                 qPrintable(out + ": " + QString::number(run.code) + " " + run.err));
        QVERIFY(H5Reader(in.toStdString()).hasDataset("/entry/data/data"));
        QVERIFY(paramsFile.open(QIODevice::ReadOnly));
        QCOMPARE(paramsFile.readAll(), QByteArray(R"({"gain":1.5})"));
        paramsFile.close();
    }
}

QTEST_GUILESS_MAIN(TstGuiScript)
#include "tst_gui_script.moc"
