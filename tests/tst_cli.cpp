// clscope-cli as scripts use it: exit codes, devices, generate -> read back.
#include "core/cluster/digis.hpp"
#include "core/input/chunked_frames.hpp"
#include "core/io.hpp"
#include "core/rbf/particles.hpp"
#include "registry_cases.hpp"
#include "test_util.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

using namespace clscope;

namespace {

using Run = clscope::test::CliRun;
Run cli(const QStringList& args) {
    return clscope::test::runCli(args);
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    // The same frames written raw and as bitshuffle-LZ4 chunks (the EIGER/NXmx layout, one
    // frame a chunk): spots and multi-tau on the OpenCL device write the same datasets from
    // both; the chunks are read raw and decoded on the device.
    void bslz4ChunkedFilesEqualRawFiles_data() {
        QTest::addColumn<QStringList>("generate");
        QTest::addColumn<QStringList>("command");
        QTest::newRow("spots") << QStringList{"diffraction", "--frames", "5",
                                              "--height",    "96",       "--width",
                                              "120",         "--spots",  "20"}
                               << QStringList{"spots", "--device", "ocl:0"};
        QTest::newRow("spots frames 1:3")
            << QStringList{"diffraction", "--frames", "5", "--height", "96", "--width", "120"}
            << QStringList{"spots", "--device", "ocl:0", "--frames", "1:3"};
        QTest::newRow("multitau") << QStringList{"xpcs",   "--frames",     "40", "--height",
                                                 "32",     "--width",      "40", "--dtype",
                                                 "uint16", "--ring-width", "4"}
                                  << QStringList{"correlate", "--multitau", "--channels",
                                                 "4",         "--device",   "ocl:0"};
    }
    void bslz4ChunkedFilesEqualRawFiles() {
        QFETCH(QStringList, generate);
        QFETCH(QStringList, command);
        const QString tag = QString(QTest::currentDataTag()).replace(' ', '_').remove(':');
        QStringList outputs;
        for (const char* compression : {"none", "bslz4"}) {
            const QString in = tmp.filePath(tag + "_" + compression + ".h5");
            const Run g = cli(QStringList{"generate"} + generate +
                              QStringList{"--seed", "11", "--compression", compression, "-o", in});
            QVERIFY2(g.code == 0, qPrintable(g.err));
            outputs << tmp.filePath(tag + "_" + compression + "_out.h5");
            const Run r = cli(command + QStringList{in, "-o", outputs.back()});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            // The chunks go up compressed and are decoded on the device (the streaming
            // pipeline, as a live stream's bslz4 images); the raw file's frames are read by
            // libhdf5 and uploaded a batch at a time.
            QVERIFY2(r.err.contains(QString(compression) == "bslz4"
                                        ? "frames decoded on the device"
                                        : "uploaded as received (not compressed)"),
                     qPrintable(r.err));
        }
        int compared = 0;
        test::compareTrees(H5Reader(outputs[0].toStdString()), H5Reader(outputs[1].toStdString()),
                           "/", compared);
        QVERIFY(compared > 2);
    }

    // A file's stack in any layout goes through the streaming pipeline (a batch at a time,
    // uploaded in one copy; read straight from the file where stored as held, else by
    // libhdf5): h5py rewrites a generated stack contiguous, contiguous after a user block,
    // gzip chunks after a user block,
    // big-endian, gzip with 3 frames a chunk (decoded on several threads, also in batches of 2
    // frames), shuffle + gzip with 2, shuffle + gzip in chunks of half a frame (libhdf5); spots
    // and multi-tau write the same datasets as with the file read whole or in passes
    // (CLSCOPE_FILE_PIPELINE=0), the run's frame range included.
    void everyFileLayoutThroughThePipeline_data() {
        QTest::addColumn<QStringList>("generate");
        QTest::addColumn<QStringList>("command");
        const QStringList spots{"diffraction", "--frames", "7",       "--height", "96",
                                "--width",     "120",      "--spots", "20"};
        const QStringList xpcs{"xpcs", "--frames", "40",     "--height",     "32", "--width",
                               "40",   "--dtype",  "uint16", "--ring-width", "4"};
        const QStringList multitau{"correlate", "--multitau", "--channels",
                                   "4",         "--device",   "ocl:0"};
        for (const char* layout :
             {"contiguous", "user-block", "big-endian", "gzip-3-frames", "shuffle-gzip-2-frames",
              "user-block-gzip-3-frames", "half-frames"}) {
            QTest::newRow(qPrintable(QString("spots ") + layout))
                << spots << QStringList{"spots", "--device", "ocl:0", "--layout", layout};
            QTest::newRow(qPrintable(QString("multitau ") + layout))
                << xpcs << (multitau + QStringList{"--layout", layout});
        }
        QTest::newRow("spots gzip-3-frames batches of 2")
            << spots << QStringList{"spots", "--device", "ocl:0",        "--memory-budget",
                                    "48K",   "--layout", "gzip-3-frames"};
        QTest::newRow("spots gzip-3-frames frames 2:4")
            << spots << QStringList{"spots", "--device", "ocl:0",        "--frames",
                                    "2:4",   "--layout", "gzip-3-frames"};
    }
    void everyFileLayoutThroughThePipeline() {
        const QString python = qEnvironmentVariable("CLSCOPE_PYTHON");
        if (python.isEmpty() || QProcess::execute(python, {"-c", "import h5py"}) != 0)
            QSKIP("python3-h5py not available");
        QFETCH(QStringList, generate);
        QFETCH(QStringList, command);
        const qsizetype at = command.indexOf("--layout");
        const QString layout = command[at + 1];
        command.remove(at, 2);
        const QString tag = QString(QTest::currentDataTag()).replace(' ', '_').remove(':');
        const QString raw = tmp.filePath(tag + "_raw.h5"), in = tmp.filePath(tag + ".h5");
        const Run g =
            cli(QStringList{"generate"} + generate + QStringList{"--seed", "5", "-o", raw});
        QVERIFY2(g.code == 0, qPrintable(g.err));
        QProcess p;
        p.start(python,
                {"-c",
                 "import h5py,sys\n"
                 "k = sys.argv[3]; src = h5py.File(sys.argv[1], 'r')\n"
                 "f = h5py.File(sys.argv[2], 'w', userblock_size=1024 if "
                 "k.startswith('user-block') else 0)\n"
                 "for g in src: src.copy(g, f)\n"
                 "d = f['/entry/data/data'][()]; del f['/entry/data/data']\n"
                 "t, h, w = d.shape\n"
                 "opts = {'contiguous': {}, 'user-block': {},\n"
                 "  'big-endian': {'dtype': d.dtype.newbyteorder('>')},\n"
                 "  'gzip-3-frames': {'chunks': (3, h, w), 'compression': 'gzip'},\n"
                 "  'user-block-gzip-3-frames': {'chunks': (3, h, w), 'compression': 'gzip'},\n"
                 "  'shuffle-gzip-2-frames': {'chunks': (2, h, w), 'shuffle': True,\n"
                 "                            'compression': 'gzip'},\n"
                 "  'half-frames': {'chunks': (1, (h + 1) // 2, w), 'shuffle': True,\n"
                 "                  'compression': 'gzip'}}[k]\n"
                 "f.create_dataset('/entry/data/data', data=d, **opts)\n",
                 raw, in, layout});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        // Whole-frame gzip chunks are decoded by ChunkedFrames (its fallback to libhdf5 would
        // hide a chunk read from the wrong place): every frame, as libhdf5 reads them.
        if (layout.contains("frames") && layout != "half-frames") {
            const auto chunks = ChunkedFrames::open(in.toStdString(), paths::frames);
            QVERIFY(chunks);
            const Array want = readFrames(H5Reader(in.toStdString()));
            std::vector<std::byte> got(want.byteSize());
            QVERIFY(chunks->read(0, chunks->frameCount(), got.data(), 2));
            QVERIFY(std::memcmp(got.data(), want.bytes(), got.size()) == 0);
        }
        QStringList outputs;
        for (const char* pipeline : {"1", "0"}) {
            outputs << tmp.filePath(tag + "_out_" + pipeline + ".h5");
            const Run r = test::runCli(command + QStringList{in, "-o", outputs.back()},
                                       {{"CLSCOPE_FILE_PIPELINE", pipeline}});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY2(r.err.contains("uploaded as received (not compressed)") ==
                         (QString(pipeline) == "1"),
                     qPrintable(r.err));
            // The summary says how the frames went: batches of the pipeline, or passes.
            QVERIFY2(r.out.contains(QString(pipeline) == "1" ? "; streamed in " : " pass"),
                     qPrintable(r.out));
        }
        int compared = 0;
        test::compareTrees(H5Reader(outputs[0].toStdString()), H5Reader(outputs[1].toStdString()),
                           "/", compared);
        QVERIFY(compared > 2);
    }

    // The bslz4 chunks are read where libhdf5's chunk index puts them, on several threads: in
    // a file with a user block (its addresses start after it), and through an EIGER master's
    // external link (the chunks are in the data file). h5py writes both from a generated file;
    // spots writes the same datasets from each as from the generated file.
    void bslz4ChunksReadWhereTheIndexPutsThem() {
        const QString python = qEnvironmentVariable("CLSCOPE_PYTHON");
        if (python.isEmpty() || QProcess::execute(python, {"-c", "import h5py"}) != 0)
            QSKIP("python3-h5py not available");
        const QString in = tmp.filePath("chunks.h5"), block = tmp.filePath("chunks_ub.h5"),
                      master = tmp.filePath("chunks_master.h5");
        const Run g =
            cli({"generate", "diffraction", "--frames", "6", "--height", "96", "--width", "120",
                 "--spots", "20", "--seed", "4", "--compression", "bslz4", "-o", in});
        QVERIFY2(g.code == 0, qPrintable(g.err));
        QProcess p;
        p.start(python,
                {"-c",
                 "import h5py,sys,os\n"
                 "src = h5py.File(sys.argv[1], 'r'); d = src['/entry/data/data']\n"
                 "with h5py.File(sys.argv[2], 'w', userblock_size=1024) as f:\n"
                 "  for k in src: src.copy(k, f)\n"
                 "  del f['/entry/data/data']\n"
                 "  o = f.create_dataset('/entry/data/data', d.shape, d.dtype, chunks=d.chunks,\n"
                 "                       compression=32008, compression_opts=(0, 2))\n"
                 "  for t in range(d.shape[0]):\n"
                 "    m, b = d.id.read_direct_chunk((t, 0, 0)); o.id.write_direct_chunk((t, 0, 0), "
                 "b, m)\n"
                 "with h5py.File(sys.argv[3], 'w') as f:\n"
                 "  for k in src: src.copy(k, f)\n"
                 "  del f['/entry/data/data']\n"
                 "  f['/entry/data/data'] = h5py.ExternalLink(os.path.basename(sys.argv[1]),\n"
                 "                                             '/entry/data/data')\n",
                 in, block, master});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QStringList outputs;
        for (const QString& file : {in, block, master}) {
            outputs << file + ".out.h5";
            const Run r = cli({"spots", file, "--device", "ocl:0", "-o", outputs.back()});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY2(r.err.contains("6 frames decoded on the device"), qPrintable(r.err));
        }
        for (int i : {1, 2}) {
            int compared = 0;
            test::compareTrees(H5Reader(outputs[0].toStdString()),
                               H5Reader(outputs[i].toStdString()), "/", compared);
            QVERIFY(compared > 2);
        }
    }

    // A bitshuffle-LZ4 chunk that does not decode (written raw by h5py over frame 2): one clear
    // message naming the file and the frame, exit 3, no output.
    void corruptBslz4ChunkNamed() {
        const QString python = qEnvironmentVariable("CLSCOPE_PYTHON");
        if (python.isEmpty() || QProcess::execute(python, {"-c", "import h5py"}) != 0)
            QSKIP("python3-h5py not available");
        const QString in = tmp.filePath("corrupt_bslz4.h5"), out = tmp.filePath("corrupt_out.h5");
        QCOMPARE(cli({"generate", "diffraction", "--frames", "4", "--height", "64", "--width", "80",
                      "--compression", "bslz4", "-o", in})
                     .code,
                 0);
        QProcess p;
        p.start(python, {"-c",
                         "import h5py,sys; d=h5py.File(sys.argv[1],'r+')['/entry/data/data'];"
                         "d.id.write_direct_chunk((2,0,0), bytes(range(200)), 0)",
                         in});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        const Run r = cli({"spots", in, "--device", "ocl:0", "-o", out});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("corrupt_bslz4.h5:/entry/data/data: image 2"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void devicesList() {
        const Run r = cli({"devices"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("ocl:0  "));
        QVERIFY(r.out.contains("\ncpu  "));
        const Run j = cli({"devices", "--json"});
        QCOMPARE(j.code, 0);
        const QJsonArray devices = QJsonDocument::fromJson(j.out.toUtf8()).array();
        QVERIFY(devices.size() >= 2);
        QCOMPARE(devices[0].toObject()["spec"].toString(), QString("cpu"));
        QCOMPARE(devices[1].toObject()["spec"].toString(), QString("ocl:0"));
        QVERIFY(devices[1].toObject()["max_work_group_size"].toInt() > 0);
    }

    void usageErrors() {
        QCOMPARE(cli({}).code, 2);
        QCOMPARE(cli({"nonsense"}).code, 2);
        QCOMPARE(cli({"variants", "nonsense"}).code, 2);
        QCOMPARE(cli({"generate", "xpcs"}).code, 2); // -o is required
        QCOMPARE(cli({"generate", "xpcs", "-o", "x.h5", "--frames", "many"}).code, 2);
        const Run r = cli({"generate", "xpcs", "-o", tmp.filePath("z.h5"), "--frames", "0"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("frames"));
        QVERIFY(!QFile::exists(tmp.filePath("z.h5")));
        QCOMPARE(cli({"--help"}).code, 0);
    }

    // The toy algorithm is a test fixture (tests/toy/): the product's command line lists the
    // five algorithms, and neither the toy nor its `fault` parameter nor its synthetic kind.
    void helpListsOnlyTheFiveAlgorithms() {
        const Run help = cli({"--help"});
        QCOMPARE(help.code, 0);
        for (const char* command : {"correlate", "spots", "cluster", "rbf", "azint"})
            QVERIFY2(help.out.contains(command), command);
        for (const QStringList& args :
             {QStringList{"--help"}, QStringList{"generate", "--help"},
              QStringList{"bench", "--help"}, QStringList{"variants", "--help"}}) {
            const Run r = cli(args);
            QCOMPARE(r.code, 0);
            QVERIFY2(!r.out.contains("toy", Qt::CaseInsensitive), qPrintable(args.join(' ')));
            QVERIFY2(!r.out.contains("--fault"), qPrintable(args.join(' ')));
        }
        QCOMPARE(cli({"toy", tmp.filePath("in.h5")}).code, 2);
        QCOMPARE(cli({"variants", "toy"}).code, 2);
        QCOMPARE(cli({"bench", "toy"}).code, 2);
        QCOMPARE(cli({"generate", "toyframes", "-o", tmp.filePath("t.h5")}).code, 2);
    }

    // xpcs' frames role asks for 2 frames at least (InputRole::minFrames): every route refuses
    // fewer with the same reason, after the frame range, nothing written (before: the CLI
    // correlated a single frame while the GUI refused it).
    void correlateNeedsTwoFrames() {
        const QString one = tmp.filePath("one_frame.h5"), three = tmp.filePath("three_frames.h5");
        const QString out = tmp.filePath("too_few.h5");
        const QStringList size{"--height", "16", "--width", "16"};
        QCOMPARE(cli(QStringList{"generate", "xpcs", "-o", one, "--frames", "1"} + size).code, 0);
        QCOMPARE(cli(QStringList{"generate", "xpcs", "-o", three, "--frames", "3"} + size).code, 0);
        for (const QStringList& args :
             {QStringList{"correlate", one}, QStringList{"correlate", one, "--multitau"},
              QStringList{"correlate", three, "--frames", "2:1"},
              QStringList{"correlate", three, "--frames", "2:", "--multitau"}}) {
            const Run r = cli(args + QStringList{"-o", out});
            QCOMPARE(r.code, 3);
            QVERIFY2(r.err.contains("gives 1 frame; xpcs needs at least 2"), qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
        }
        QCOMPARE(cli({"correlate", three, "--frames", "1:2", "-o", out}).code, 0);
    }

    void badOutputFolder() {
        const Run r = cli({"generate", "particles", "-o", "/no/such/folder/p.h5"});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains("/no/such/folder"));
        QCOMPARE(r.err.count('\n'), 1); // one clear line
    }

    void generateEveryKind_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("xpcs") << QStringList{
            "xpcs", "--frames", "7", "--height", "30", "--width", "40", "--ring-width", "5"};
        QTest::newRow("xpcs bslz4")
            << QStringList{"xpcs", "--frames", "3", "--compression", "bslz4", "--dtype", "uint32"};
        QTest::newRow("diffraction") << QStringList{"diffraction", "--frames", "2", "--gaps"};
        QTest::newRow("digis") << QStringList{"digis", "--modules", "40"};
        QTest::newRow("particles") << QStringList{"particles", "--grid-points", "9", "--complex"};
    }
    void generateEveryKind() {
        QFETCH(QStringList, args);
        const QString file =
            tmp.filePath(QTest::currentDataTag() + QString(".h5")).replace(' ', '_');
        const Run r = cli(QStringList{"generate"} + args + QStringList{"-o", file, "--seed", "3"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("wrote " + file));
        H5Reader in(file.toStdString());
        const QString kind = args[0];
        if (kind == "xpcs") {
            const Array frames = readFrames(in);
            QCOMPARE(readLabels(in, paths::qmask, frames.height(), frames.width()).height,
                     frames.height());
        } else if (kind == "diffraction") {
            QCOMPARE(readFrames(in).shape(), (Shape{2, 512, 1028}));
            QCOMPARE(readPixelMask(in).width, std::size_t{1028});
        } else if (kind == "digis") {
            const Digis d = readDigis(in);
            QVERIFY(d.size() > 100);
        } else {
            const Particles p = readParticles(in);
            QCOMPARE(p.targetCount(), std::size_t{243});
            QVERIFY(p.complexWeights);
        }
    }

    void outputOpensInH5py() {
        const QString python = qEnvironmentVariable("CLSCOPE_PYTHON");
        if (python.isEmpty() || QProcess::execute(python, {"-c", "import h5py"}) != 0)
            QSKIP("python3-h5py not available");
        const QString file = tmp.filePath("py.h5");
        QCOMPARE(cli({"generate", "xpcs", "--frames", "4", "--frame-time", "0.5", "-o", file}).code,
                 0);
        QProcess p;
        p.start(python, {"-c",
                         "import h5py,sys; f=h5py.File(sys.argv[1]); d=f['/entry/data/data'];"
                         "print(d.shape, d.dtype, f['/entry/processing/qmask'].dtype,"
                         " float(f['/entry/instrument/detector/frame_time'][()]))",
                         file});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()).trimmed(),
                 QString("(4, 201, 241) uint8 int32 0.5"));
    }

    void variantsList() {
        const Run r = cli({"variants", "xpcs"});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 9);
        QVERIFY(lines[2].startsWith("gemm\t") && lines[2].endsWith("(default)"));
        QVERIFY(lines[3].startsWith("mma\t"));
        QVERIFY(lines[4].startsWith("cpu\t"));
        QVERIFY(lines[5].startsWith("multitau\t")); // the default of --multitau
        QVERIFY(lines[6].startsWith("sparse-cpu\t") && lines[7].startsWith("sparse\t"));
        QVERIFY(lines[8].startsWith("sparse-pairs\t"));
        QCOMPARE(cli({"variants", "nope"}).code, 2);
    }

    void benchTableAndJson() {
        const QString json = tmp.filePath("bench.json");
        const Run r = cli({"bench", "xpcs", "--device", "cpu", "--variant", "cpu", "--repeat", "1",
                           "--json", json});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("GFLOP/s"));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        const QJsonArray rows = doc["rows"].toArray();
        QCOMPARE(rows.size(), 1);
        const QJsonObject row = rows[0].toObject();
        QVERIFY(row["ran"].toBool());
        QVERIFY(row["median_ms"].toDouble() > 0);
        // The transfer bound is a field of every row: 0 where no GPU bandwidth was measured.
        QVERIFY(row.contains("transfer_bound_ms") && row.contains("h2d_pinned_gbps"));
        QCOMPARE(row["transfer_bound_ms"].toDouble(), 0.0);
        QVERIFY(row["deviation"].toObject()["pass"].toBool());
        QCOMPARE(row["deviation"].toObject()["beyond"].toInt(), 0);
        // Unknown names are usage errors, not empty tables.
        const Run bad = cli({"bench", "xpcs", "--variant", "zzz"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("zzz"));
        QCOMPARE(cli({"bench", "nope"}).code, 2);
        QCOMPARE(cli({"bench", "xpcs", "--size", "huge", "--device", "cpu"}).code, 2);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
