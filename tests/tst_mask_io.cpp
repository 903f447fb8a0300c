// Mask files: NPY and HDF5 round trips, numpy fixtures, errors, atomic writes.
#include "tst_mask.hpp"

#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "core/mask/npy.hpp"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace clscope;
using namespace clscope::mask;

namespace {

// An array of the dtype whose element i is (i * 37) % 251 - 100 (clipped to >= 0 if unsigned).
Array patterned(DType dtype, Shape shape) {
    Array a(dtype, std::move(shape));
    visitArray(a, [&](auto values) {
        using T = std::remove_const_t<typename decltype(values)::element_type>;
        auto out = a.as<T>();
        for (std::size_t i = 0; i < out.size(); ++i) {
            const long v = static_cast<long>((i * 37) % 251) - (dtypeIsUnsigned(dtype) ? 0 : 100);
            out[i] = static_cast<T>(dtypeIsInteger(dtype) ? v : v * 0.25);
        }
    });
    return a;
}

bool sameArray(const Array& a, const Array& b) {
    return a.dtype() == b.dtype() && a.shape() == b.shape() &&
           (a.byteSize() == 0 || std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0);
}

std::string writeText(const QTemporaryDir& dir, const char* name, const std::string& bytes) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// Python with numpy: $CLSCOPE_PYTHON or python3, empty when numpy cannot be imported.
QString pythonWithNumpy() {
    for (const QString& candidate : {qEnvironmentVariable("CLSCOPE_PYTHON"), QString("python3"),
                                     QString("/usr/bin/python3")}) {
        if (candidate.isEmpty()) continue;
        QProcess p;
        p.start(candidate, {"-c", "import numpy"});
        if (p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0)
            return candidate;
    }
    return {};
}

} // namespace

void TstMask::npyRoundTrip_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<std::vector<std::size_t>>("shape");
    const std::pair<const char*, DType> dtypes[] = {
        {"u1", DType::UInt8}, {"u2", DType::UInt16},  {"u4", DType::UInt32}, {"i4", DType::Int32},
        {"i8", DType::Int64}, {"f4", DType::Float32}, {"f8", DType::Float64}};
    for (const auto& [name, dtype] : dtypes) {
        QTest::newRow((std::string(name) + " 2-D").c_str()) << int(dtype) << Shape{7, 93};
        QTest::newRow((std::string(name) + " 1-D").c_str()) << int(dtype) << Shape{5};
    }
    QTest::newRow("f8 3-D") << int(DType::Float64) << Shape{2, 3, 4};
    QTest::newRow("i4 empty") << int(DType::Int32) << Shape{0, 4};
    QTest::newRow("f8 scalar") << int(DType::Float64) << Shape{};
}

void TstMask::npyRoundTrip() {
    QFETCH(int, dtype);
    QFETCH(std::vector<std::size_t>, shape);
    const Array a = patterned(static_cast<DType>(dtype), shape);
    const QTemporaryDir dir;
    const std::string file = dir.filePath("a.npy").toStdString();
    writeNpy(file, a);
    QVERIFY(sameArray(readNpy(file), a));
    const std::string bytes = formatNpy(a);
    QCOMPARE((bytes.size() - a.byteSize()) % 64, std::size_t(0)); // data 64-byte aligned
}

void TstMask::npyFromNumpy() {
    // Fixtures written by numpy.save (tests/data/make_mask_npy.py); values from its formulas.
    const PixelMask fromBool = loadPixelMask(testDataFile("npy_mask_bool.npy"));
    const PixelMask fromU1 = loadPixelMask(testDataFile("npy_mask_u1.npy"));
    QCOMPARE(fromBool.height, std::size_t(3));
    QCOMPARE(fromBool.width, std::size_t(4));
    for (std::size_t i = 0; i < 12; ++i) {
        QCOMPARE(fromBool.bad[i], std::uint8_t(i % 3 == 1));
        QCOMPARE(fromU1.bad[i], std::uint8_t(i % 3 == 1));
    }
    const LabelMap little = loadLabelMap(testDataFile("npy_labels_i4.npy"));
    const LabelMap big = loadLabelMap(testDataFile("npy_labels_i8_be.npy"));
    for (std::size_t i = 0; i < 12; ++i) {
        QCOMPARE(little.labels.labels[i], std::int32_t(7 * i) - 5);
        QCOMPARE(big.labels.labels[i], std::int32_t(7 * i) - 5);
    }
    const Array image = readNpy(testDataFile("npy_image_f4_fortran.npy"));
    QCOMPARE(image.shape(), (Shape{3, 4}));
    for (std::size_t i = 0; i < 12; ++i) {
        if (i == 5)
            QVERIFY(std::isnan(image.as<float>()[i]));
        else
            QCOMPARE(image.as<float>()[i], 0.25f * static_cast<float>(i));
    }
    const Array vector = readNpy(testDataFile("npy_vector_f8.npy"));
    QCOMPARE(vector.shape(), (Shape{5}));
    for (std::size_t i = 0; i < 5; ++i)
        QCOMPARE(vector.as<double>()[i], -1.0 + 0.5 * static_cast<double>(i));
    const Array counts = readNpy(testDataFile("npy_vector_u2.npy"));
    QVERIFY((std::vector<std::uint16_t>(counts.as<std::uint16_t>().begin(),
                                        counts.as<std::uint16_t>().end()) ==
             std::vector<std::uint16_t>{0, 1, 65535}));
}

void TstMask::npyReadByNumpy() {
    const QString python = pythonWithNumpy();
    if (python.isEmpty()) QSKIP("no Python with numpy");
    const QTemporaryDir dir;
    const std::string file = dir.filePath("labels.npy").toStdString();
    const Array labels = patterned(DType::Int32, {3, 5});
    writeNpy(file, labels);
    long sum = 0;
    for (const std::int32_t v : labels.as<std::int32_t>())
        sum += v;
    QProcess p;
    p.start(python, {"-c",
                     "import numpy,sys; a=numpy.load(sys.argv[1]); "
                     "print(a.dtype.str, a.shape, int(a.sum()), int(a[2,4]))",
                     QString::fromStdString(file)});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(QString(p.readAllStandardOutput()).trimmed(),
             QString("<i4 (3, 5) %1 %2").arg(sum).arg(labels.as<std::int32_t>()[2 * 5 + 4]));
}

void TstMask::badNpyHeaders_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    const auto npy = [](const std::string& header, std::size_t dataBytes) {
        std::string h = header + "\n";
        std::string out = std::string("\x93NUMPY\x01\x00", 8);
        out += static_cast<char>(h.size() & 0xff);
        out += static_cast<char>(h.size() >> 8);
        return QByteArray::fromStdString(out + h + std::string(dataBytes, '\0'));
    };
    QTest::newRow("not npy") << QByteArray("PK\x03\x04 zip file") << "not a NPY file";
    QTest::newRow("version") << QByteArray("\x93NUMPY\x09\x00\x00\x00", 10) << "version 9";
    QTest::newRow("complex") << npy("{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }",
                                    32)
                             << "dtype '<c16' is not supported, expected |b1, |u1";
    QTest::newRow("structured")
        << npy("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,), }", 8)
        << "expected a simple dtype";
    QTest::newRow("no shape") << npy("{'descr': '<i4', 'fortran_order': False, }", 8) << "'shape'";
    QTest::newRow("bad shape") << npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2, x), }",
                                      8)
                               << "bad shape";
    QTest::newRow("truncated data")
        << npy("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", 95)
        << "truncated NPY data";
    QTest::newRow("huge shape")
        << npy("{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000, 100000000000), }",
               8)
        << "truncated NPY data";
    QTest::newRow("fortran 3-D")
        << npy("{'descr': '<f8', 'fortran_order': True, 'shape': (1, 1, 1), }", 8)
        << "Fortran order is supported up to rank 2";
    QTest::newRow("truncated header")
        << QByteArray("\x93NUMPY\x01\x00\x50\x00{'descr'", 17) << "truncated NPY header";
}

void TstMask::badNpyHeaders() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const QTemporaryDir dir;
    const std::string file = writeText(dir, "bad.npy", bytes.toStdString());
    try {
        readNpy(file);
        QFAIL("no error");
    } catch (const InputError& e) {
        const QString message = e.what();
        QVERIFY2(message.startsWith(QString::fromStdString(file) + ": ") &&
                     message.contains(expected),
                 qPrintable(message));
    }
}

void TstMask::hdf5LabelMapRoundTrip() {
    Geometry g;
    g.beamCenterX = 12.5;
    g.beamCenterY = 7.25;
    g.distance = 2.0;
    g.wavelength = 1.5e-10;
    const Partition part = makePartition(
        g, PartitionSpec{BinAxis::Q, BinSpacing::Linear, 0.0, 0.5, 3, 2, 30.0}, 15, 25);
    const QTemporaryDir dir;
    const std::string file = dir.filePath("qmask.h5").toStdString();
    saveLabelMap(file, {part.labels, part.centers, g});
    const LabelMap back = loadLabelMap(file);
    QVERIFY(back.labels.labels == part.labels.labels);
    QVERIFY(back.centers && back.centers->labelIds == part.centers.labelIds);
    QVERIFY(back.centers->q == part.centers.q && back.centers->phi == part.centers.phi);
    QVERIFY(back.geometry && back.geometry->beamCenterY == 7.25 &&
            back.geometry->wavelength == 1.5e-10);
    // The layout of DESIGN.md §3: qmask int32 (H,W), table columns (B).
    const H5Reader reader(file);
    QCOMPARE(reader.info(clscope::paths::qmask).typeName, std::string("int32"));
    QCOMPARE(reader.info(mask::paths::qmaskQ).shape, (Shape{6}));
    QCOMPARE(reader.info(mask::paths::qmaskLabelIds).typeName, std::string("int32"));
    // Labels from NPY, written as <i4.
    const std::string npyFile = dir.filePath("qmask.npy").toStdString();
    saveLabelMap(npyFile, {part.labels, {}, {}});
    QCOMPARE(readNpy(npyFile).dtype(), DType::Int32);
    QVERIFY(loadLabelMap(npyFile).labels.labels == part.labels.labels);
    QVERIFY_THROWS_EXCEPTION(InputError, loadLabelMap(testDataFile("npy_image_f4_fortran.npy")));
}

void TstMask::pixelMaskRoundTrips() {
    PixelMask m{4, 6, std::vector<std::uint8_t>(24, 0)};
    for (std::size_t i = 0; i < 24; i += 5)
        m.bad[i] = 1;
    const QTemporaryDir dir;
    for (const char* name : {"mask.h5", "mask.npy", "mask.nxs"}) {
        const std::string file = dir.filePath(name).toStdString();
        savePixelMask(file, m);
        const PixelMask back = loadPixelMask(file);
        QVERIFY2(back.bad == m.bad && back.height == 4 && back.width == 6, name);
    }
    // FILE:PATH picks another dataset; non-zero values of any size read as masked.
    const std::string file = dir.filePath("other.h5").toStdString();
    {
        H5Writer out(file);
        out.write("/custom/mask", makeArray<std::int32_t>({2, 2}, {0, -3, 7, 0}));
        out.commit();
    }
    const PixelMask custom = loadPixelMask(file + ":/custom/mask");
    QVERIFY((custom.bad == std::vector<std::uint8_t>{0, 1, 1, 0}));
    QVERIFY_THROWS_EXCEPTION(InputError, loadPixelMask(file));
    const MaskFile content = readMaskFile(dir.filePath("mask.h5").toStdString());
    QVERIFY(content.pixelMask && !content.labels && !content.geometry && !content.centers);
}

void TstMask::geometryInHdf5() {
    const QTemporaryDir dir;
    const std::string file = dir.filePath("geometry.h5").toStdString();
    const Geometry g{101.5, 99.25, 5.0, 75e-6, 75e-6, 0.9e-10, 0.0, 0.001, 0.0};
    writeMaskFile(file, {{}, {}, {}, g});
    const std::optional<Geometry> back = readGeometry(H5Reader(file));
    QVERIFY(back && back->beamCenterX == 101.5 && back->distance == 5.0 && back->rot2 == 0.001);
    // Attributes of the group work too (other writers); a missing value is named.
    const std::string attrs = dir.filePath("attrs.h5").toStdString();
    {
        H5Writer out(attrs);
        out.createGroup(mask::paths::geometry);
        const std::pair<const char*, double> values[] = {{"beam_center_x", 10.5},
                                                         {"beam_center_y", 20.5},
                                                         {"distance", 1.25},
                                                         {"pixel_size_x", 1e-4},
                                                         {"pixel_size_y", 2e-4}};
        for (const auto& [name, value] : values)
            out.setAttribute(mask::paths::geometry, name, value);
        out.commit();
    }
    try {
        readGeometry(H5Reader(attrs));
        QFAIL("no error");
    } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains("no wavelength"), e.what());
    }
    QVERIFY(!readGeometry(H5Reader(dir.filePath("geometry.h5").toStdString()), "/nowhere"));
}

void TstMask::unsupportedFormats() {
    for (const char* name : {"mask.tif", "mask.edf", "mask"}) {
        try {
            maskFileFormat(name);
            QFAIL("no error");
        } catch (const UsageError& e) {
            QVERIFY2(QString(e.what()).contains(name) && QString(e.what()).contains(".npy"),
                     e.what());
        }
    }
    QVERIFY(maskFileFormat("A.NPY") == MaskFileFormat::Npy);
    QVERIFY_THROWS_EXCEPTION(InputError, loadPixelMask("/no/such/file.npy"));
}

void TstMask::outputsAreAtomic() {
    const QTemporaryDir dir;
    const PixelMask m{2, 2, {0, 1, 1, 0}};
    QVERIFY_THROWS_EXCEPTION(InputError,
                             savePixelMask(dir.filePath("missing/m.npy").toStdString(), m));
    savePixelMask(dir.filePath("m.npy").toStdString(), m);
    writePoni(dir.filePath("g.poni").toStdString(), PoniFile{});
    // Only the outputs remain: no temporary files beside them.
    const QStringList files = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden);
    QCOMPARE(files, (QStringList{"g.poni", "m.npy"}));
    // Labels and pixel mask of different shapes are refused before anything is written.
    const std::string file = dir.filePath("both.h5").toStdString();
    QVERIFY_THROWS_EXCEPTION(InputError, writeMaskFile(file, {LabelMask{1, 1, {1}}, {}, m, {}}));
    QVERIFY(!std::filesystem::exists(file));
}
