// HDF5 I/O: round trips for every dtype and compression, h5py fixtures, bad input.
#include "core/cluster/digis.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/hdf5_util.hpp"
#include "core/input/chunked_frames.hpp"
#include "core/input/frame_range.hpp"
#include "core/input/metadata.hpp"
#include "core/input/provenance.hpp"
#include "core/io.hpp"
#include "core/rbf/particles.hpp"
#include "test_util.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace clscope;
using clscope::test::dataFile;

namespace {

constexpr std::size_t T = 4, H = 5, W = 6;
// The fixtures' formula (tests/data/make_fixtures.py).
double pattern(std::size_t t, std::size_t y, std::size_t x) {
    return (t * 31 + y * 7 + x * 3) % 251;
}

void checkPattern(const Array& a, double scale, double offset) {
    QCOMPARE(a.shape(), (Shape{T, H, W}));
    for (std::size_t t = 0; t < T; ++t)
        for (std::size_t y = 0; y < H; ++y)
            for (std::size_t x = 0; x < W; ++x)
                QCOMPARE(a.valueAt((t * H + y) * W + x), pattern(t, y, x) * scale + offset);
}

template <class V> Array ramp(DType d, V step) {
    Array a(d, {3, 4, 7});
    visitArray(a, [&](auto v) {
        using E = std::remove_const_t<typename decltype(v)::element_type>;
        auto* out = const_cast<E*>(v.data());
        for (std::size_t i = 0; i < v.size(); ++i)
            out[i] = static_cast<E>(static_cast<V>(i) * step);
    });
    return a;
}

} // namespace

class TestIo : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    std::string path(const char* name) { return tmp.filePath(name).toStdString(); }

  private slots:
    void roundTripEveryDtype_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("compression");
        for (DType d : {DType::UInt8, DType::UInt16, DType::UInt32, DType::Int32, DType::Int64,
                        DType::Float32, DType::Float64})
            for (Compression c : {Compression::None, Compression::Gzip, Compression::Bitshuffle})
                QTest::newRow((dtypeName(d) + "/" + std::to_string(int(c))).c_str())
                    << int(d) << int(c);
    }
    void roundTripEveryDtype() {
        QFETCH(int, dtype);
        QFETCH(int, compression);
        const DType d = static_cast<DType>(dtype);
        // Large values near each type's top, negative ones for signed types.
        const Array a =
            dtypeIsInteger(d)
                ? ramp(d, d == DType::UInt8 ? 3LL : 1000003LL % (1LL << (8 * dtypeSize(d) - 2)))
                : ramp(d, -0.37);
        const std::string file = path("rt.h5");
        {
            H5Writer out(file);
            out.write("/g/a", a, static_cast<Compression>(compression));
            out.commit();
        }
        H5Reader in(file);
        QCOMPARE(in.info("/g/a").typeName, dtypeName(d));
        const Array b = in.read("/g/a");
        QCOMPARE(b.dtype(), d);
        QCOMPARE(b.shape(), a.shape());
        QVERIFY(std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0);
        const Array slab = in.readSlab("/g/a", 1, 2);
        QCOMPARE(slab.shape(), (Shape{2, 4, 7}));
        QVERIFY(std::memcmp(slab.bytes(), a.bytes() + 28 * dtypeSize(d), slab.byteSize()) == 0);
    }

    // Frames written one at a time with gzip (filled and compressed on several threads, the
    // chunks written as stored) read back through libhdf5's own shuffle and deflate filters as
    // the frames given: 37 frames, more than one round of threads.
    void gzipFramesReadBackThroughTheFilters_data() {
        QTest::addColumn<int>("dtype");
        for (DType d : {DType::UInt8, DType::UInt16, DType::Int32, DType::Float64})
            QTest::newRow(dtypeName(d).c_str()) << int(d);
    }
    void gzipFramesReadBackThroughTheFilters() {
        QFETCH(int, dtype);
        const DType d = static_cast<DType>(dtype);
        const Shape shape{37, 9, 11};
        Array a(d, shape); // values that need every byte of the type
        visitArray(a, [&](auto v) {
            using E = std::remove_const_t<typename decltype(v)::element_type>;
            auto* out = const_cast<E*>(v.data());
            for (std::size_t i = 0; i < v.size(); ++i)
                out[i] = dtypeIsInteger(d) ? static_cast<E>((i * 2654435761u) % 65521)
                                           : static_cast<E>(-0.37 * double(i));
        });
        const std::string file = path("frames_gzip.h5");
        {
            H5Writer out(file);
            out.writeFrames("/g/f", d, shape, Compression::Gzip, [&](std::size_t t, Array& frame) {
                std::memcpy(frame.bytes(), a.bytes() + t * frame.byteSize(), frame.byteSize());
            });
            out.commit();
        }
        const Array b = H5Reader(file).read("/g/f");
        QCOMPARE(b.shape(), shape);
        QVERIFY(std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0);
    }

    // The chunk reader reads the next batch while it decodes one: batches of one chunk here
    // (37 of them), every frame and a range as libhdf5 reads them; a corrupt chunk past a batch
    // boundary ends the read with false (libhdf5 then says what is wrong), a range before it
    // still reads.
    void chunkBatchesReadAheadWhileDecoding() {
        const Shape shape{37, 9, 11};
        const std::string file = path("frames_batches.h5");
        {
            H5Writer out(file);
            out.writeFrames("/g/f", DType::UInt16, shape, Compression::Gzip,
                            [](std::size_t t, Array& frame) {
                                auto* v = reinterpret_cast<std::uint16_t*>(frame.bytes());
                                for (std::size_t i = 0; i < frame.size(); ++i)
                                    v[i] = std::uint16_t(t * 977 + i * 31);
                            });
            out.commit();
        }
        const Array whole = H5Reader(file).read("/g/f");
        const std::size_t frameBytes = 9 * 11 * 2;
        const auto chunks = ChunkedFrames::open(file, "/g/f");
        QVERIFY(chunks);
        chunks->setBatchBytes(1);
        std::vector<std::byte> got(whole.byteSize());
        QVERIFY(chunks->read(0, 37, got.data(), 2));
        QVERIFY(std::memcmp(got.data(), whole.bytes(), whole.byteSize()) == 0);
        QVERIFY(chunks->read(5, 15, got.data(), 2));
        QVERIFY(std::memcmp(got.data(), whole.bytes() + 5 * frameBytes, 15 * frameBytes) == 0);
        // Frame 30's chunk overwritten where the chunk index puts it.
        std::uint64_t at = 0;
        {
            std::lock_guard lock(h5::mutex());
            const auto opened = h5::openDataset(file, "/g/f");
            QVERIFY(opened);
            const auto holder = h5::holderOf(opened->dataset.get());
            QVERIFY(holder);
            const hsize_t offset[3] = {30, 0, 0};
            const auto chunk = h5::chunkPlace(opened->dataset.get(), offset, *holder);
            QVERIFY(chunk);
            at = chunk->at;
        }
        {
            std::fstream raw(file, std::ios::in | std::ios::out | std::ios::binary);
            raw.seekp(std::streamoff(at));
            raw.write("garbage!", 8);
        }
        QVERIFY(!chunks->read(0, 37, got.data(), 2));
        QVERIFY(chunks->read(0, 20, got.data(), 2));
        QVERIFY(std::memcmp(got.data(), whole.bytes(), 20 * frameBytes) == 0);
    }

    void h5pyFrames_data() {
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<double>("scale");
        QTest::addColumn<double>("offset");
        QTest::newRow("uint16 gzip") << "/entry/data/data" << int(DType::UInt16) << 257.0 << 0.0;
        QTest::newRow("uint8 >127") << "/u8" << int(DType::UInt8) << 1.0 << 0.0;
        QTest::newRow("uint32") << "/u32" << int(DType::UInt32) << 17e6 << 0.0;
        QTest::newRow("int32") << "/i32" << int(DType::Int32) << 1.0 << -100.0;
        QTest::newRow("float32") << "/f32" << int(DType::Float32) << 0.5 << 0.0;
    }
    void h5pyFrames() {
        QFETCH(QString, dataset);
        QFETCH(int, dtype);
        QFETCH(double, scale);
        QFETCH(double, offset);
        H5Reader in(dataFile("h5py_frames.h5"));
        const Array a = readFrames(in, dataset.toStdString());
        QCOMPARE(int(a.dtype()), dtype);
        checkPattern(a, scale, offset);
    }

    void h5pyBitshuffleAndEiger() {
        checkPattern(readFrames(H5Reader(dataFile("h5py_bslz4.h5"))), 257, 0);
        H5Reader master(dataFile("eiger_master.h5"));
        QCOMPARE(frameDatasets(master, paths::frames).size(), std::size_t{2});
        checkPattern(readFrames(master), 257, 0);
    }

    void h5pyMasksAndScalars() {
        H5Reader in(dataFile("h5py_frames.h5"));
        const LabelMask labels = readLabels(in, paths::qmask, H, W);
        for (std::size_t y = 0; y < H; ++y)
            for (std::size_t x = 0; x < W; ++x)
                QCOMPARE(labels.labels[y * W + x], std::int32_t((x + y) / 3));
        QCOMPARE(labels.bins(), (std::vector<std::int32_t>{1, 2, 3}));
        // Any stored integer type loads, e.g. int16 with negative (excluded) labels.
        const LabelMask narrow = readLabels(in, "/qmask_int16", H, W);
        for (std::size_t i = 0; i < H * W; ++i)
            QCOMPARE(narrow.labels[i], labels.labels[i] - 1);
        QCOMPARE(narrow.bins(), (std::vector<std::int32_t>{1, 2}));
        const PixelMask mask = readPixelMask(in, paths::pixelMask, H, W);
        for (std::size_t i = 0; i < H * W; ++i)
            QCOMPARE(mask.bad[i], std::uint8_t(i % W == 0));
        QCOMPARE(*readFrameTime(in), 0.002);
        QCOMPARE(in.stringAttribute("/entry/data", "NX_class").value_or(""), std::string("NXdata"));
    }

    void h5pyDigisAndParticles() {
        const Digis d = readDigis(H5Reader(dataFile("h5py_digis.h5")));
        QCOMPARE(d.size(), std::size_t{12});
        for (std::size_t i = 0; i < 12; ++i) {
            QCOMPARE(d.module[i], std::uint16_t(i / 4));
            QCOMPARE(d.x[i], std::uint16_t(i * 13 % 160));
            QCOMPARE(d.y[i], std::uint16_t(i * 37 % 416));
            QCOMPARE(d.adc[i], std::uint16_t(i * 1000 + 500));
        }
        const Particles p = readParticles(H5Reader(dataFile("h5py_particles.h5")));
        QCOMPARE(p.sourceCount(), std::size_t{7});
        QCOMPARE(p.targetCount(), std::size_t{5});
        QVERIFY(p.complexWeights);
        QCOMPARE(p.sources[20], double(20.0f / 21.0f));
        QCOMPARE(p.weights[2 * 3 + 1], -0.75);
    }

    void treeListing() {
        H5Reader in(dataFile("h5py_frames.h5"));
        const auto top = in.children("/");
        QVERIFY(std::any_of(top.begin(), top.end(), [](const H5Node& n) {
            return n.name == "entry" && n.kind == H5Node::Group;
        }));
        const auto data = in.children("/entry/data");
        QCOMPARE(data.size(), std::size_t{1});
        QCOMPARE(data[0].info.shape, (Shape{T, H, W}));
        QCOMPARE(data[0].info.typeName, std::string("uint16"));
        const auto eiger = H5Reader(dataFile("eiger_master.h5")).children("/entry/data");
        QCOMPARE(eiger.size(), std::size_t{3});
        QVERIFY(eiger[0].note.find("eiger_data_000001.h5") != std::string::npos);
        QCOMPARE(eiger[2].kind, H5Node::Broken);
    }

    void badInputGivesOneClearError() {
        const std::string frames = dataFile("h5py_frames.h5");
        EXPECT_ERROR(InputError, H5Reader("/no/such/file.h5"), "/no/such/file.h5", "not found");
        EXPECT_ERROR(InputError, H5Reader(dataFile("make_fixtures.py")), "make_fixtures.py",
                     "not an HDF5 file");
        EXPECT_ERROR(InputError, H5Reader(dataFile("")), "directory");
        H5Reader in(frames);
        EXPECT_ERROR(InputError, readFrames(in, "/entry/nothing"), frames, "/entry/nothing",
                     "not found");
        EXPECT_ERROR(InputError, readFrames(in, "/entry"), "/entry", "not a dataset");
        EXPECT_ERROR(InputError, readFrames(in, "/vector"), "/vector", "rank 3", "(10,)");
        EXPECT_ERROR(InputError, readLabels(in, "/text"), "/text", "integer", "string");
        EXPECT_ERROR(InputError, readFrames(in, "/f64"), "/f64", "float64", "uint8, uint16");
        EXPECT_ERROR(InputError, readFrames(in, "/i16"), "/i16", "int16");
        EXPECT_ERROR(InputError, readFrames(in, "/text"), "/text", "string");
        EXPECT_ERROR(InputError, readLabels(in, "/bad_qmask_shape", H, W), "/bad_qmask_shape",
                     "(6, 6)", "(5, 6)");
        EXPECT_ERROR(InputError, readLabels(in, "/float_qmask"), "/float_qmask", "integer",
                     "float32");
        EXPECT_ERROR(InputError, readLabels(in, "/u8"), "/u8", "rank 2");
        EXPECT_ERROR(InputError, readDigis(H5Reader(dataFile("h5py_digis.h5")), "/bad"), "/bad",
                     "digi 1", "160x416");
        EXPECT_ERROR(InputError, readParticles(H5Reader(frames)), "/particles/sources",
                     "not found");
        H5Reader master(dataFile("eiger_master.h5"));
        EXPECT_ERROR(InputError, readFrames(master, "/entry/data/data_000003_missing"),
                     "data_000003_missing");
    }

    void truncatedFile() {
        const std::string cut = path("truncated.h5");
        std::filesystem::copy_file(dataFile("h5py_frames.h5"), cut,
                                   std::filesystem::copy_options::overwrite_existing);
        std::filesystem::resize_file(cut, std::filesystem::file_size(cut) / 2);
        EXPECT_ERROR(InputError, readFrames(H5Reader(cut)), cut);
    }

    void writerLeavesNothingHalfWritten() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("out.h5").toStdString();
        { std::ofstream(file) << "previous contents"; }
        try {
            H5Writer out(file);
            out.write("/a", makeArray(Shape{3}, std::vector<float>{1, 2, 3}));
            throw InputError("simulated failure mid-way");
        } catch (const InputError&) {
        }
        std::ifstream in(file);
        std::string text;
        std::getline(in, text);
        QCOMPARE(text, std::string("previous contents"));
        QCOMPARE(std::distance(std::filesystem::directory_iterator(dir.path().toStdString()), {}),
                 1L);
        EXPECT_ERROR(InputError, H5Writer("/no/such/dir/out.h5"), "/no/such/dir", "does not exist");
    }

    void provenanceAttributes() {
        const std::string file = path("prov.h5");
        H5Writer out(file);
        out.write("/xpcs/g2", makeArray(Shape{2}, std::vector<double>{1.5, 2.5}));
        writeProvenance(out, "/xpcs", {"ocl:0 (PoCL)", "gemm", R"({"a":1})", 1.25});
        out.commit();
        H5Reader in(file);
        QCOMPARE(*in.stringAttribute("/xpcs", "variant"), std::string("gemm"));
        QCOMPARE(*in.stringAttribute("/xpcs", "parameters"), std::string(R"({"a":1})"));
        QCOMPARE(*in.stringAttribute("/xpcs", "kernel_ms"), std::string("1.25"));
        QCOMPARE(*in.stringAttribute("/xpcs", "clscope_version"), clscopeVersion());
    }

    void locationSpec() {
        const DataLocation a = parseLocation("m.h5", paths::qmask);
        QCOMPARE(a.file, std::string("m.h5"));
        QCOMPARE(a.path, paths::qmask);
        const DataLocation b = parseLocation("dir/m.h5:/x/y", paths::qmask);
        QCOMPARE(b.file, std::string("dir/m.h5"));
        QCOMPARE(b.path, std::string("/x/y"));
    }

    // The frame range is parsed and checked in core/input only: --frames, every reader's window
    // (within) and the GUI's check of its fields (framesIn, a COUNT past the end cut there).
    void frameRange() {
        QCOMPARE(FrameRange::parse("3:4"), (FrameRange{3, 4}));
        QCOMPARE(FrameRange::parse("3:"), (FrameRange{3, 0}));
        for (const char* bad : {"3", ":4", "3:0", "a:1", "-1:2"})
            QVERIFY_THROWS_EXCEPTION(UsageError, FrameRange::parse(bad));
        QCOMPARE(FrameRange::parse("3:4").text(), std::string("3:4"));
        QCOMPARE(FrameRange::parse("3:").text(), std::string("3:"));
        QCOMPARE((FrameRange{3, 4}.within(10, "f")),
                 (std::pair<std::uint64_t, std::uint64_t>{3, 7}));
        QCOMPARE((FrameRange{3, 0}.within(10, "f")),
                 (std::pair<std::uint64_t, std::uint64_t>{3, 10}));
        EXPECT_ERROR(InputError, (FrameRange{3, 8}.within(10, "f.h5:/d")), "f.h5:/d", "3:8");
        QVERIFY_THROWS_EXCEPTION(InputError, (FrameRange{10, 0}.within(10, "f")));
        QCOMPARE((FrameRange{3, 4}.framesIn(10)), std::uint64_t(4));
        QCOMPARE((FrameRange{3, 0}.framesIn(10)), std::uint64_t(7));
        QCOMPARE((FrameRange{8, 5}.framesIn(10)), std::uint64_t(2));
        EXPECT_ERROR(InputError, (FrameRange{10, 0}.framesIn(10)), "first frame 10",
                     "past the last frame 9");
    }

    // One function builds an input's provenance: the first role's file, each role read (held
    // in memory or FILE:PATH), the frame range only beside a frame stack.
    void inputProvenanceOfRoles() {
        InputRole frames = makeRole("frames", "--data", paths::frames, "");
        frames.stack = true;
        InputRole labels = makeRole("labels", "--mask", paths::qmask, "");
        labels.otherFile = true;
        InputSources s;
        s.file = "in.h5";
        s.overrides["labels"] = "m.h5:/q";
        nlohmann::json p = inputProvenance(s, {frames, labels});
        QCOMPARE(p.dump(), std::string(R"({"datasets":{"frames":"in.h5:/entry/data/data",)"
                                       R"("labels":"m.h5:/q"},"file":"in.h5"})"));
        s.frames = {2, 5};
        s.arrays["labels"] = std::make_shared<const Array>(DType::Int32, Shape{2, 2});
        p = inputProvenance(s, {frames, labels});
        QCOMPARE(p["frames"].get<std::string>(), std::string("2:5"));
        QCOMPARE(p["datasets"]["labels"].get<std::string>(), std::string("in memory"));
        QVERIFY(!(inputProvenance(s, {labels}).contains("frames")));
        ParamSet none;
        QCOMPARE(parametersJson(none, p, {{"TILE", 8}}),
                 "{\"input\":" + p.dump() + ",\"tuning\":{\"TILE\":8}}");
    }
};

QTEST_APPLESS_MAIN(TestIo)
#include "tst_io.moc"
