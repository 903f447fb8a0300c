// The attack of issue 52 (item 7), each finding as the attack met it, through clscope-cli where
// it ran it: JSON nested too deep, a compressed chunk judged by the device, bytes that are not
// UTF-8 in the lab, kept state that is not what clscope wrote.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/json_parse.hpp"
#include "core/stream/series_encoder.hpp"
#include "test_util.hpp"

#include <QDirIterator>
#include <QThread>
#include <hdf5.h>
#include <span>

using namespace clscope;

namespace {

using Run = test::CliRun;

QByteArray nested(int depth) {
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

// Chunk `frame` of the (T,H,W) dataset /entry/data/data replaced by `chunk`, as h5py's
// write_direct_chunk does (the filters not applied again).
void writeChunk(const QString& file, hsize_t frame, const std::vector<std::byte>& chunk) {
    const hid_t f = H5Fopen(file.toLocal8Bit().constData(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, "/entry/data/data", H5P_DEFAULT);
    const hsize_t offset[3] = {frame, 0, 0};
    const herr_t written = H5Dwrite_chunk(d, H5P_DEFAULT, 0, offset, chunk.size(), chunk.data());
    H5Dclose(d), H5Fclose(f);
    QVERIFY(written >= 0);
}

// Frame `frame` of the file's uint16 frames widened to uint32 and compressed as bitshuffle
// writes it: a chunk whose header says twice the frame's bytes.
std::vector<std::byte> widenedChunk(const QString& file, std::size_t frame) {
    const Array narrow = H5Reader(file.toStdString()).readSlab("/entry/data/data", frame, 1);
    std::vector<std::uint32_t> wide(narrow.as<std::uint16_t>().begin(),
                                    narrow.as<std::uint16_t>().end());
    return stream::compressBslz4(std::as_bytes(std::span(wide)), sizeof(std::uint32_t));
}

// The chunk of `frame` as stored, its header's block size set to 0.
std::vector<std::byte> zeroBlockChunk(const QString& file, hsize_t frame) {
    const hid_t f = H5Fopen(file.toLocal8Bit().constData(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, "/entry/data/data", H5P_DEFAULT);
    const hsize_t offset[3] = {frame, 0, 0};
    hsize_t bytes = 0;
    H5Dget_chunk_storage_size(d, offset, &bytes);
    std::vector<std::byte> chunk(bytes);
    std::uint32_t mask = 0;
    H5Dread_chunk(d, H5P_DEFAULT, offset, &mask, chunk.data());
    H5Dclose(d), H5Fclose(f);
    std::fill(chunk.begin() + 8, chunk.begin() + 12, std::byte{0});
    return chunk;
}

} // namespace

class TstAttack : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QStringList devices_{"cpu"}; // and ocl:0 where there is an OpenCL device (PoCL here)
    QByteArray printed_;         // rbf tiled's program as lab --print-source writes it
    QString path(const QString& name) const { return tmp_.filePath(name); }
    // clscope-cli lab rbf --from FROM on the PoCL device, one timed run, the user variants,
    // sweep cache and kept peaks in the test's folder `kept`.
    Run lab(const QStringList& args, const QString& from = "tiled",
            const QString& kept = "variants") const {
        return test::runCli(
            QStringList{"lab", "rbf", "--from", from, "--device", "ocl:0", "--repeat", "1"} + args,
            {{"CLSCOPE_USER_VARIANTS", path(kept)}});
    }
    // The printed program with `from` replaced by `to` (bytes), written to NAME.cl.
    QString fork(const QString& name, const QByteArray& from, const QByteArray& to) const {
        QByteArray text = printed_;
        text.replace(from, to);
        writeFile(path(name + ".cl"), text);
        return path(name + ".cl");
    }

  private slots:
    void initTestCase();
    void depthLimitBeforeTheStack();
    void deepJsonRefused();
    void compressedChunkVerdict_data();
    void compressedChunkVerdict();
    void hdf5StackNotPrinted();
    void latin1Source();
    void keptStateValidated();
    void labSaysWhyFirst();
    void labOptionValues();
};

void TstAttack::initTestCase() {
    const Run made = test::runCli({"generate", "diffraction", "-o", path("d.h5"), "--frames", "2",
                                   "--height", "32", "--width", "40", "--spots", "3"});
    QVERIFY2(made.code == 0, qPrintable(made.err));
    if (!test::runCli({"devices"}).out.contains("ocl:0")) return; // no OpenCL: lab cases skip
    devices_ << "ocl:0";
    const Run printed = lab({"--print-source"});
    QVERIFY2(printed.code == 0, qPrintable(printed.err));
    printed_ = printed.out.toUtf8();
}

// The limit is reached before the stack: a value 512 deep is copied, compared and dumped in
// a thread of 1 MiB of stack (the main thread has 8); 513 deep is refused naming its origin;
// brackets inside strings do not count.
void TstAttack::depthLimitBeforeTheStack() {
    const QByteArray deepest = nested(int(jsonDepthLimit));
    bool done = false;
    QThread* thread = QThread::create([&] {
        const nlohmann::json value = parseJson(deepest.toStdString(), "test");
        const nlohmann::json copy = value;
        done = copy == value && copy.dump() == deepest.toStdString();
    });
    thread->setStackSize(1 << 20);
    thread->start();
    QVERIFY(thread->wait(60000));
    delete thread;
    QVERIFY(done);
    EXPECT_ERROR(InputError, parseJson(nested(jsonDepthLimit + 1).toStdString(), "FILE.json"),
                 "FILE.json", "512");
    const std::string brackets = std::string("{\"a\": \"").append(5000, '[').append("\\\"[\"}");
    QCOMPARE(parseJson(brackets, "test")["a"].get<std::string>().size(), std::size_t(5002));
    QVERIFY(parseJsonQuietly(nested(100000).toStdString()).is_discarded());
}

// JSON nested 65,000 deep inline and 200,000 deep in a file (--params, lab-diff): exit 3
// naming the argument and the limit (issue 52: SIGSEGV).
void TstAttack::deepJsonRefused() {
    const QString out = path("s.h5");
    EXPECT_EXIT(test::runCli({"spots", path("d.h5"), "-o", out, "--device", "cpu", "--params",
                              "{\"sigma_strong\":" + nested(65000) + "}"}),
                3, "--params (inline JSON): JSON nested deeper than 512");
    writeFile(path("deep.json"), "{\"sigma_strong\":" + nested(200000) + "}");
    EXPECT_EXIT(test::runCli({"spots", path("d.h5"), "-o", out, "--device", "cpu", "--params",
                              path("deep.json")}),
                3, path("deep.json") + ": JSON nested deeper than 512");
    QVERIFY(!QFile::exists(out));
    writeFile(path("rows.json"), "{\"rows\":" + nested(200000) + "}");
    EXPECT_EXIT(test::runCli({"lab-diff", path("rows.json") + ":0", path("rows.json") + ":1"}), 3,
                path("rows.json") + ": JSON nested deeper than 512");
}

void TstAttack::compressedChunkVerdict_data() {
    QTest::addColumn<bool>("widened"); // else: the header's block size 0
    QTest::newRow("header of a uint32 frame") << true;
    QTest::newRow("block size 0") << false;
}

// A bitshuffle-LZ4 chunk whose header is not the frame's: the same verdict on `cpu` and on an
// OpenCL device (PoCL here), exit 3 naming frame 2 with the device decoder's reason (issue 52:
// `cpu` read the widened chunk truncated and exited 0 where the device refused it; with main
// here, a header block size of 0 too).
void TstAttack::compressedChunkVerdict() {
    QFETCH(bool, widened);
    const QString in = path(widened ? "wide.h5" : "zero.h5");
    const Run made =
        test::runCli({"generate", "diffraction", "-o", in, "--frames", "4", "--height", "64",
                      "--width", "80", "--spots", "5", "--compression", "bslz4"});
    QVERIFY2(made.code == 0, qPrintable(made.err));
    writeChunk(in, 2, widened ? widenedChunk(in, 2) : zeroBlockChunk(in, 2));
    for (const QString& device : devices_)
        EXPECT_EXIT(test::runCli({"spots", in, "-o", path("s.h5"), "--device", device}), 3,
                    "2: bslz4 data");
    QVERIFY(!QFile::exists(path("s.h5")));
}

// A gzip chunk of garbage read by spots on cpu and on PoCL (there by the pipeline's threads):
// clscope's message alone, without libhdf5's error stack (issue 52: 11-20 lines of it came
// first; the library is thread-safe, so its printing was off only in the thread that first
// opened a file).
void TstAttack::hdf5StackNotPrinted() {
    const QString in = path("garbage.h5");
    const Run made = test::runCli({"generate", "diffraction", "-o", in, "--frames", "4", "--height",
                                   "64", "--width", "80", "--spots", "5"});
    QVERIFY2(made.code == 0, qPrintable(made.err));
    writeChunk(in, 2, std::vector<std::byte>(3000, std::byte{0x5a}));
    for (const QString& device : devices_) {
        const Run run = test::runCli({"spots", in, "-o", path("g.h5"), "--device", device});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.err.startsWith("clscope-cli: ") && !run.err.contains("HDF5-DIAG"),
                 qPrintable(device + ": " + run.err));
    }
}

// One Latin-1 byte in a comment of a kernel source: the lab runs it, keeps it as a user
// variant with the byte as it was, and forks that variant (issue 52: exit 3 and nlohmann's
// "[json.exception.type_error.316]" for both).
void TstAttack::latin1Source() {
    if (printed_.isEmpty()) QSKIP("no OpenCL device");
    writeFile(path("latin1.cl"), "// caf\xe9\n" + printed_);
    const Run run = lab({"--source", path("latin1.cl"), "--save", "latin1"});
    QVERIFY2(run.code == 0, qPrintable(run.out + run.err));
    QVERIFY(test::readAll(path("variants/rbf/latin1.cl")).startsWith("// caf\xe9\n"));
    const Run forked = lab({}, "user:latin1");
    QVERIFY2(forked.code == 0, qPrintable(forked.out + forked.err));
}

// A sweep cache row with a negative time and a kept peaks file nested 200,000 deep: each
// discarded with a warning naming its file, the row measured again (issue 52: shown as a
// measured pass and eligible for --save; every lab run died with exit 4).
void TstAttack::keptStateValidated() {
    if (printed_.isEmpty()) QSKIP("no OpenCL device");
    const QStringList sweep{"--sweep", "RBF_WG=16", "--json", path("sweep.json")};
    QCOMPARE(lab(sweep, "tiled", "kept").code, 0);
    QDirIterator rows(path("kept/lab_cache"), {"row.json"}, QDir::Files,
                      QDirIterator::Subdirectories);
    QVERIFY(rows.hasNext());
    const QString rowFile = rows.next();
    nlohmann::json row = nlohmann::json::parse(test::readAll(rowFile).toStdString());
    row["median_ms"] = -1.0;
    writeFile(rowFile, QByteArray::fromStdString(row.dump()));
    const QString peaks = path("kept/lab_peaks.json");
    writeFile(peaks, "{\"x\":" + nested(200000) + "}");
    const Run again = lab(sweep, "tiled", "kept");
    QVERIFY2(again.code == 0, qPrintable(again.out + again.err));
    for (const QString& file : {rowFile, peaks})
        QVERIFY2(again.err.contains("clscope: warning: " + file), qPrintable(again.err));
    QVERIFY2(!again.out.contains("from the sweep cache"), qPrintable(again.out));
    QVERIFY(parseJson(test::readAll(peaks).toStdString(), "peaks").is_object());
}

// A fork that fails its check (exit 1) and one that does not build (exit 4): clscope's reason
// is the first line on stderr (issue 52: nothing for exit 1, the compiler's "4 errors
// generated." first for a build failure).
void TstAttack::labSaysWhyFirst() {
    if (printed_.isEmpty()) QSKIP("no OpenCL device");
    const QByteArray store = "rbf_store(out, first + u * RBF_WG, sum[u]);";
    const Run wrong =
        lab({"--source", fork("wrong", store, "rbf_store(out, first + u * RBF_WG, sum[u] + 1);")});
    QCOMPARE(wrong.code, 1);
    QVERIFY2(wrong.err.startsWith("clscope-cli: lab: fork: check failed: "), qPrintable(wrong.err));
    const Run broken = lab({"--source", fork("broken", store, "this is not C; x y z; q r s;")});
    QCOMPARE(broken.code, 4);
    QVERIFY2(broken.err.startsWith("clscope-cli: lab: fork: build: "), qPrintable(broken.err));
}

// Empty --sweep and --save values are usage errors; a sweep value given several times is one
// row (issue 52: accepted as no sweep and no save; 1,000 copies of one value ran 1,001 rows).
void TstAttack::labOptionValues() {
    if (printed_.isEmpty()) QSKIP("no OpenCL device");
    for (const char* option : {"--sweep", "--save", "--source", "--json"})
        EXPECT_EXIT(lab({option, ""}), 2, option);
    const Run once = lab({"--sweep", "RBF_WG=8,8,8", "--no-cache", "--json", path("once.json")});
    QVERIFY2(once.code == 0, qPrintable(once.err));
    const auto rows = nlohmann::json::parse(test::readAll(path("once.json")).toStdString());
    QCOMPARE(rows["rows"].size(), std::size_t(2)); // the base and RBF_WG=8
}

QTEST_GUILESS_MAIN(TstAttack)
#include "tst_attack.moc"
