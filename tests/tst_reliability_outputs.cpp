// No crash, hang or lost byte around a run's outputs (issue 25): a full disk, the one
// output-safety rule for every file a run writes (never an input, another output, a special
// file or a link; temporary names), and the limits of what a run is given: option numbers out
// of range, extreme values, sizes declared but not stored; each through clscope-cli as a user
// would run it. Damaged inputs: tst_reliability.cpp and tst_reliability_inputs.cpp.
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "test_util.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <climits>
#include <hdf5.h>
#include <random>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace clscope;

namespace {

using Run = clscope::test::CliRun;
Run cli(const QStringList& args) {
    return clscope::test::runCli(args, {}, 60000);
}

using clscope::test::readAll;

void writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

// Every entry of a folder, hidden ones included.
QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

// (1,24,24) int32 frames over the whole int32 range (-2^31 included) and an empty pixel mask.
void writeFullRangeInt32(const std::string& file) {
    std::mt19937 rng(11);
    std::uniform_int_distribution<std::int32_t> any(INT32_MIN, INT32_MAX);
    std::vector<std::int32_t> v(24 * 24);
    for (auto& x : v)
        x = any(rng);
    v[0] = v[100] = v[200] = INT32_MIN;
    H5Writer out(file);
    out.write(paths::frames, makeArray<std::int32_t>({1, 24, 24}, v));
    out.write(paths::pixelMask, makeArray<std::uint8_t>({24, 24}, std::vector<std::uint8_t>(576)));
    out.commit();
}

// A dataset that declares `dims` (chunked as `chunk`, or contiguous when empty) and stores
// nothing: a file of a few KB claiming terabytes.
void declareUnstored(const std::string& file, const std::vector<std::string>& datasets,
                     const std::vector<hsize_t>& dims, const std::vector<hsize_t>& chunk) {
    const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_LATE);
    if (!chunk.empty()) H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data());
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    for (const std::string& name : datasets)
        H5Dclose(H5Dcreate2(f, name.c_str(), H5T_NATIVE_UINT16, space, lcpl, dcpl, H5P_DEFAULT));
    H5Sclose(space), H5Pclose(dcpl), H5Pclose(lcpl), H5Fclose(f);
}

// (2, 16384, 16384) uint16 in deflated chunks of one frame (512 MiB) that store 8 KiB each.
void writeInflating(const std::string& file) {
    const hsize_t dims[3] = {2, 16384, 16384}, chunk[3] = {1, 16384, 16384};
    const hid_t f = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    H5Pset_chunk(dcpl, 3, chunk), H5Pset_deflate(dcpl, 4);
    const hid_t space = H5Screate_simple(3, dims, nullptr);
    const hid_t d =
        H5Dcreate2(f, paths::frames.c_str(), H5T_NATIVE_UINT16, space, lcpl, dcpl, H5P_DEFAULT);
    const std::vector<char> bytes(8192, 1);
    for (hsize_t t = 0; t < 2; ++t) {
        const hsize_t offset[3] = {t, 0, 0};
        H5Dwrite_chunk(d, H5P_DEFAULT, 0, offset, bytes.size(), bytes.data());
    }
    H5Dclose(d), H5Sclose(space), H5Pclose(dcpl), H5Pclose(lcpl), H5Fclose(f);
}

// A scalar string dataset added to an existing file (replacing what is at `name`).
void addStringDataset(const std::string& file, const std::string& name, const std::string& text) {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    if (H5Lexists(f, name.c_str(), H5P_DEFAULT) > 0) H5Ldelete(f, name.c_str(), H5P_DEFAULT);
    const hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    H5Tset_size(type, text.size());
    const hid_t d = H5Dcreate2(f, name.c_str(), type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data());
    H5Dclose(d), H5Pclose(lcpl), H5Sclose(space), H5Tclose(type), H5Fclose(f);
}

// "N signal pixels, M spots" of a spots run's summary line.
QString spotCounts(const Run& r) {
    const auto m = QRegularExpression(R"((\d+ signal pixels, \d+ spots))").match(r.out);
    return m.hasMatch() ? m.captured(1) : "exit " + QString::number(r.code) + ": " + r.err;
}

} // namespace

class TestReliabilityOutputs : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString diffraction; // generate diffraction: (1, 512, 1028) uint16

    QString path(const QString& name) const { return tmp.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        diffraction = path("d.h5");
        QCOMPARE(cli({"generate", "diffraction", "-o", diffraction}).code, 0);
    }

    // A full disk while writing: one line naming the cause, exit 3, nothing left behind, and
    // no SIGSEGV at exit (libhdf5's shutdown closed the file whose close had failed).
    void fullDisk() {
        const QString dir = path("small-fs");
        QVERIFY(QDir().mkpath(dir));
        if (::mount("tmpfs", dir.toUtf8().constData(), "tmpfs", 0, "size=16k") != 0)
            QSKIP("cannot mount a 16 KiB tmpfs here (needs root)");
        const Run r =
            cli({"spots", diffraction, "--device", "cpu", "--debug", "-o", dir + "/o.h5"});
        const QStringList left = entries(dir);
        ::umount(dir.toUtf8().constData());
        QVERIFY2(r.code == 3, qPrintable(QString::number(r.code) + " " + r.err));
        QVERIFY2(r.err.contains("No space left on device") && r.err.count('\n') == 1 &&
                     !r.err.contains("bytes actually written"),
                 qPrintable(r.err));
        QVERIFY2(left.isEmpty(), qPrintable(left.join(' ')));
    }

    // int32 frames over the whole range (-2^31 squared overflowed the 64-bit window sums:
    // UBSan in the cpu variant, 32-bit sums in `local`): every variant finds what cpu finds.
    void fullRangeInt32Spots() {
        const QString in = path("i32.h5");
        writeFullRangeInt32(in.toStdString());
        const QStringList base{"spots", in, "-o", path("i32_out.h5")};
        const QString cpu = spotCounts(cli(base + QStringList{"--device", "cpu"}));
        QVERIFY2(cpu.contains("spots"), qPrintable(cpu));
        for (const char* v : {"local", "direct", "sat"})
            QCOMPARE(spotCounts(cli(base + QStringList{"--device", "ocl:0", "--variant", v})), cpu);
        const QStringList ext = base + QStringList{"--algorithm", "dispersion_extended"};
        QCOMPARE(spotCounts(cli(ext + QStringList{"--device", "ocl:0", "--variant", "extended"})),
                 spotCounts(cli(ext + QStringList{"--device", "cpu"})));
    }

    // Integers beyond 64 bits were cast from double (UBSan float-cast-overflow; Release said
    // "min_spot_size = -9223372036854775808"): refused with the value as given.
    void hugeIntegerOptions() {
        const QString huge = "99999999999999999999";
        for (const QStringList& option : QList<QStringList>{{"--min-spot-size", huge},
                                                            {"--max-spot-size", huge},
                                                            {"--kernel-size", "3," + huge}}) {
            const Run r = cli(
                QStringList{"spots", diffraction, "--device", "cpu", "-o", path("h.h5")} + option);
            QVERIFY2(r.code == 2 && !r.err.contains("9223372036854775808"),
                     qPrintable(option.join(' ') + ": " + QString::number(r.code) + " " + r.err));
        }
        QVERIFY(!QFile::exists(path("h.h5")));
    }

    // Lost data: --phil or -o naming another file of the run is refused before anything is
    // written (8: the phil replaced the result; 9: -o replaced the --params file), and a side
    // output that cannot be written leaves the existing main output alone (10).
    void outputsNeverReplaceFilesOfTheRun() {
        const QString f = path("same.out"), params = path("p.json"), keep = path("keep.h5");
        writeAll(f, "precious"), writeAll(params, "{}"), writeAll(keep, "keep");
        const QStringList spots{"spots", diffraction, "--device", "cpu"};
        EXPECT_EXIT(cli(spots + QStringList{"--phil", f, "-o", f}), 2,
                    "--phil " + f + " is also -o");
        EXPECT_EXIT(cli(spots + QStringList{"--params", params, "-o", params}), 2, "(--params");
        EXPECT_EXIT(cli(spots + QStringList{"--phil", diffraction, "-o", f}), 2,
                    "--phil " + diffraction + " is an input file");
        EXPECT_EXIT(cli(spots + QStringList{"--phil", path("nodir/x.phil"), "-o", keep}), 3,
                    "does not exist");
        QCOMPARE(readAll(f), QByteArray("precious"));
        QCOMPARE(readAll(params), QByteArray("{}"));
        QCOMPARE(readAll(keep), QByteArray("keep"));
        QVERIFY(entries(tmp.path()).filter(".tmp-").isEmpty());
    }

    // Lost data (11): a FIFO, a device node or a symbolic link as -o was replaced by a regular
    // file through rename. Refused before any work; the node and the link stay.
    void outputNeverReplacesSpecialFiles() {
        const QString fifo = path("fifo"), node = path("null"), link = path("link.h5");
        QVERIFY(::mkfifo(fifo.toUtf8().constData(), 0600) == 0);
        const bool haveNode =
            ::mknod(node.toUtf8().constData(), S_IFCHR | 0666, makedev(1, 3)) == 0;
        writeAll(path("target.h5"), "target");
        QVERIFY(QFile::link(path("target.h5"), link));
        const QStringList generate{"generate", "xpcs",    "--frames", "2", "--height",
                                   "8",        "--width", "8",        "-o"};
        EXPECT_EXIT(cli(generate + QStringList{fifo}), 2, "not a regular file");
        if (haveNode) EXPECT_EXIT(cli(generate + QStringList{node}), 2, "not a regular file");
        EXPECT_EXIT(cli(generate + QStringList{link}), 2, "symbolic link");
        EXPECT_EXIT(cli({"spots", diffraction, "--device", "cpu", "-o", link}), 2, "symbolic link");
        EXPECT_EXIT(cli({"spots", diffraction, "--device", "cpu", "-o", ""}), 2, "empty");
        EXPECT_EXIT(cli({"spots", diffraction, "--device", "cpu", "-o", tmp.path()}), 2, "folder");
        struct stat st {};
        QVERIFY(::lstat(fifo.toUtf8().constData(), &st) == 0 && S_ISFIFO(st.st_mode));
        QVERIFY(!haveNode || (::lstat(node.toUtf8().constData(), &st) == 0 && S_ISCHR(st.st_mode)));
        QVERIFY(::lstat(link.toUtf8().constData(), &st) == 0 && S_ISLNK(st.st_mode));
        QCOMPARE(readAll(path("target.h5")), QByteArray("target"));
    }

    // A 253-character output name (its temporary exceeded NAME_MAX) is written; a temporary
    // left by a killed run (14: SIGKILL) is removed by the next run to that name.
    void temporaryNames() {
        const QString name = path(QString(253, 'n'));
        const QStringList generate{"generate", "xpcs",    "--frames", "2", "--height",
                                   "8",        "--width", "8",        "-o"};
        const Run r = cli(generate + QStringList{name});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QProcess gone; // a PID that no longer exists
        gone.start("true");
        QVERIFY(gone.waitForStarted());
        const qint64 pid = gone.processId();
        QVERIFY(gone.waitForFinished() && pid > 0);
        const QString stale = path(".out.h5.tmp-" + QString::number(pid) + "-0");
        writeAll(stale, "left by a killed run");
        const QString live = path(".out.h5.tmp-" + QString::number(::getpid()) + "-0");
        writeAll(live, "a running writer's");
        QCOMPARE(cli(generate + QStringList{path("out.h5")}).code, 0);
        QVERIFY(!QFile::exists(stale));
        QVERIFY(QFile::exists(live));
        QFile::remove(live), QFile::remove(name);
    }

    // Hangs and memory (4, 5, 15): files of a few KB declaring terabytes, nothing stored, read
    // in passes. Refused at once naming file and dataset, before any pass buffer exists.
    void declaredButNothingStored() {
        const QString stack = path("stack.h5"), flat = path("flat.h5"), digis = path("digis.h5");
        declareUnstored(stack.toStdString(), {paths::frames}, {100000, 4096, 4096},
                        {1, 4096, 4096});
        declareUnstored(flat.toStdString(), {paths::frames}, {1000, 4096, 4096}, {});
        const std::vector<std::string> columns{"/digis/module", "/digis/x", "/digis/y",
                                               "/digis/adc"};
        declareUnstored(digis.toStdString(), columns, {hsize_t(1) << 40}, {hsize_t(1) << 20});
        const QList<QStringList> runs{{"spots", stack}, {"spots", flat}, {"cluster", digis}};
        for (const QStringList& run : runs) {
            QElapsedTimer clock;
            clock.start();
            const Run r = cli(run + QStringList{"--device", "cpu", "-o", path("n.h5")});
            const QString why = run.join(' ') + ": exit " + QString::number(r.code) + " " + r.err;
            QVERIFY2(r.code == 3 && r.err.contains(run[1] + ":/"), qPrintable(why));
            QVERIFY2(clock.elapsed() < 20000, qPrintable(why));
        }
        QVERIFY(!QFile::exists(path("n.h5")));
    }

    // Resources and messages (16, 18, 20): a chunk of 8 KiB claiming 512 MiB is refused before
    // it is inflated; an external link to a valid dataset is read (its storage was checked
    // against the linking file's size); a pixel_mask that is a group is refused, not ignored;
    // a string frame_time is "expected a number", not a truncated file.
    void inputsJudgedRightly() {
        const QString bomb = path("bomb.h5");
        writeInflating(bomb.toStdString());
        EXPECT_EXIT(cli({"spots", bomb, "--device", "cpu", "-o", path("b.h5")}), 3,
                    "that inflate to");
        const QString target = path("target_frames.h5"), linking = path("linking.h5");
        {
            H5Writer w(target.toStdString());
            w.write("/pad", makeArray<std::uint8_t>({65536}, std::vector<std::uint8_t>(65536)));
            w.write(paths::frames, H5Reader(diffraction.toStdString()).read(paths::frames));
            w.commit();
            H5Writer l(linking.toStdString());
            l.linkExternal(paths::frames, target.toStdString(), paths::frames);
            l.commit();
        }
        const Run r = cli({"spots", linking, "--device", "cpu", "-o", path("l.h5")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString grouped = path("grouped.h5");
        {
            H5Writer w(grouped.toStdString());
            w.write(paths::frames, H5Reader(diffraction.toStdString()).read(paths::frames));
            w.createGroup(paths::pixelMask);
            w.setAttribute(paths::pixelMask, "x", 1.0);
            w.commit();
        }
        EXPECT_EXIT(cli({"spots", grouped, "--device", "cpu", "-o", path("g.h5")}), 3,
                    "is not a dataset");
        const QString text = path("text_time.h5");
        QCOMPARE(
            cli({"generate", "xpcs", "--frames", "4", "--height", "8", "--width", "8", "-o", text})
                .code,
            0);
        addStringDataset(text.toStdString(), paths::frameTime, "0.01 s");
        EXPECT_EXIT(cli({"correlate", text, "--device", "cpu", "-o", path("t.h5")}), 3,
                    "expected a number");
    }

    // Contract (17-20): empty, NaN and infinite values, tune names that are not identifiers,
    // --no-pixel-mask with --pixel-mask: exit 2 naming the option, before any work.
    void optionsRefused() {
        const QStringList anyDevice{"spots", diffraction, "-o", path("o.h5")};
        const QStringList spots = anyDevice + QStringList{"--device", "cpu"};
        for (const QStringList& bad : QList<QStringList>{{"--gain", ""},
                                                         {"--gain", "nan"},
                                                         {"--sigma-b", "inf"},
                                                         {"--global-threshold", "inf"},
                                                         {"--device", ""},
                                                         {"--variant", ""}}) {
            const Run r = cli((bad[0] == "--device" ? anyDevice : spots) + bad);
            const QString name = bad[0].mid(2).replace('-', '_'); // the parameter's name
            QVERIFY2(r.code == 2 && (r.err.contains(bad[0]) || r.err.contains(name)),
                     qPrintable(bad.join(' ') + ": " + QString::number(r.code) + " " + r.err));
        }
        EXPECT_EXIT(cli(spots + QStringList{"--tune", "A B=1"}), 2, "C identifier");
        EXPECT_EXIT(cli(anyDevice + QStringList{"--device", ","}), 4, "empty device");
        EXPECT_EXIT(cli(anyDevice + QStringList{"--device", "ocl:"}), 4, "ocl:N");
        writeAll(path("long.json"), "{\"gain\": \"" + QByteArray(100000, 'x') + "\"}");
        const Run longValue = cli(spots + QStringList{"--params", path("long.json")});
        QVERIFY2(longValue.code == 2 && longValue.err.size() < 400,
                 qPrintable(longValue.err.left(400)));
        EXPECT_EXIT(cli({"correlate", diffraction, "--no-pixel-mask", "--pixel-mask", diffraction,
                         "-o", path("o.h5")}),
                    2, "excludes");
        QVERIFY(!QFile::exists(path("o.h5")));
    }
};

QTEST_GUILESS_MAIN(TestReliabilityOutputs)
#include "tst_reliability_outputs.moc"
