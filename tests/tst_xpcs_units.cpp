// Units of physical inputs (DESIGN.md §3): every listed spelling of qmask_q, frame_time and the
// geometry lengths, the refusal of a unit clscope does not know, the documented defaults, and
// the Brownian demo with q written in 1/Å (labelled) recovering the true D, dense and multi-tau.
#include "core/errors.hpp"
#include "core/input/units.hpp"
#include "core/mask/mask_io.hpp"
#include "core/xpcs/synthetic.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "test_util.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace clscope;

namespace {

// A 20-frame 4x4 stack with labels 1, 2 and their q (values in `qUnit`) and frame time.
std::string writeInput(const QTemporaryDir& dir, const std::string& qUnit, double q1,
                       const std::string& timeUnit, double frameTime) {
    const std::string name = dir.filePath("in.h5").toStdString();
    H5Writer out(name);
    out.write(paths::frames,
              makeArray<std::uint8_t>({20, 4, 4}, std::vector<std::uint8_t>(320, 3)));
    std::vector<std::int32_t> labels(16, 1);
    for (std::size_t i = 8; i < 16; ++i)
        labels[i] = 2;
    out.write(paths::qmask, makeArray<std::int32_t>({4, 4}, labels));
    out.write(mask::paths::qmaskLabelIds, makeArray<std::int32_t>({2}, {1, 2}));
    out.write(mask::paths::qmaskQ, makeArray<double>({2}, {q1, 2 * q1}));
    if (!qUnit.empty()) out.setAttribute(mask::paths::qmaskQ, "units", qUnit);
    out.writeScalar(paths::frameTime, frameTime);
    if (!timeUnit.empty()) out.setAttribute(paths::frameTime, "units", timeUnit);
    out.commit();
    return name;
}

std::shared_ptr<const xpcs::XpcsInput> readInput(const std::string& file) {
    const xpcs::Algorithm a;
    InputSources s;
    s.file = file;
    return std::dynamic_pointer_cast<const xpcs::XpcsInput>(a.read(s, a.defaultParams()));
}

} // namespace

class TstXpcsUnits : public QObject {
    Q_OBJECT
  private slots:
    void qSpellings_data();
    void qSpellings();
    void timeSpellings_data();
    void timeSpellings();
    void lengthSpellings_data();
    void lengthSpellings();
    void unknownUnitRefused();
    void unitsNotOneStringRefused();
    void unknownLengthRefused();
    void origins();
    void brownianInAngstrom();
};

void TstXpcsUnits::qSpellings_data() {
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("stored"); // q of label 1 as written; 0.05 1/Å in every row
    for (const char* u : {"1/angstrom", "angstrom^-1", "1/A", "A^-1", "Å^-1", "Å⁻¹"})
        QTest::newRow(u) << QString::fromUtf8(u) << 0.05;
    for (const char* u : {"1/nm", "nm^-1", "nm⁻¹"})
        QTest::newRow(u) << QString::fromUtf8(u) << 0.5;
    QTest::newRow("no attribute: nm^-1") << QString() << 0.5;
}

void TstXpcsUnits::qSpellings() {
    QFETCH(QString, unit);
    QFETCH(double, stored);
    QTemporaryDir dir;
    const auto in = readInput(writeInput(dir, unit.toStdString(), stored, "s", 0.01));
    QCOMPARE(in->qByLabel.at(1), 0.05);
    QCOMPARE(in->qByLabel.at(2), 0.1);
}

void TstXpcsUnits::timeSpellings_data() {
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("stored"); // 2 ms in every row
    QTest::newRow("s") << "s" << 0.002;
    QTest::newRow("ms") << "ms" << 2.0;
    QTest::newRow("us") << "us" << 2000.0;
    QTest::newRow("µs") << QString::fromUtf8("µs") << 2000.0;
    QTest::newRow("ns") << "ns" << 2e6;
    QTest::newRow("no attribute: s") << QString() << 0.002;
}

void TstXpcsUnits::timeSpellings() {
    QFETCH(QString, unit);
    QFETCH(double, stored);
    QTemporaryDir dir;
    const auto in = readInput(writeInput(dir, "1/A", 0.05, unit.toStdString(), stored));
    QVERIFY(std::abs(*in->frameTime - 0.002) < 1e-15);
}

void TstXpcsUnits::lengthSpellings_data() {
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("factor"); // stored = metres / factor
    QTest::newRow("m") << "m" << 1.0;
    QTest::newRow("mm") << "mm" << 1e-3;
    QTest::newRow("um") << "um" << 1e-6;
    QTest::newRow("µm") << QString::fromUtf8("µm") << 1e-6;
}

// Geometry lengths (distance, pixel sizes, wavelength) in any listed unit read as metres.
void TstXpcsUnits::lengthSpellings() {
    QFETCH(QString, unit);
    QFETCH(double, factor);
    QTemporaryDir dir;
    const std::string scaled = dir.filePath("s.h5").toStdString();
    {
        H5Writer out(scaled);
        out.createGroup(mask::paths::geometry);
        const std::pair<const char*, double> values[] = {
            {"beam_center_x", 10},   {"beam_center_y", 20},   {"distance", 5.0},
            {"pixel_size_x", 75e-6}, {"pixel_size_y", 75e-6}, {"wavelength", 1e-10}};
        for (const auto& [field, metres] : values) {
            const std::string path = mask::paths::geometry + "/" + field;
            const bool length = std::string(field).find("beam") == std::string::npos;
            out.writeScalar(path, length ? metres / factor : metres);
            out.setAttribute(path, "units", length ? unit.toStdString() : std::string("pixel"));
        }
        out.commit();
    }
    const auto g = mask::readGeometry(H5Reader(scaled));
    QVERIFY(g.has_value());
    QVERIFY(std::abs(g->distance / 5.0 - 1) < 1e-12);
    QVERIFY(std::abs(g->pixelSizeX / 75e-6 - 1) < 1e-12);
    QVERIFY(std::abs(g->wavelength / 1e-10 - 1) < 1e-12);
}

void TstXpcsUnits::unknownUnitRefused() {
    QTemporaryDir dir;
    const std::string q = writeInput(dir, "1/parsec", 0.05, "s", 0.01);
    EXPECT_ERROR(InputError, readInput(q), mask::paths::qmaskQ, "1/parsec");
    const auto run = test::runCli(
        {"correlate", QString::fromStdString(q), "--device", "cpu", "-o", dir.filePath("o.h5")});
    QCOMPARE(run.code, 3);
    QVERIFY(run.err.contains("qmask_q") && run.err.contains("1/parsec"));
    QVERIFY(!QFile::exists(dir.filePath("o.h5")));
    QTemporaryDir other;
    EXPECT_ERROR(InputError, readInput(writeInput(other, "1/A", 0.05, "fortnight", 1.0)),
                 paths::frameTime, "fortnight");
}

// A `units` attribute that is an array of strings (h5py: attrs["units"] = ["ms", "s"]) or a
// number is bad input where the value is used: read() and clscope-cli correlate (exit 3).
void TstXpcsUnits::unitsNotOneStringRefused() {
    const QString python = qEnvironmentVariable("CLSCOPE_PYTHON");
    if (python.isEmpty() || QProcess::execute(python, {"-c", "import h5py"}) != 0)
        QSKIP("python3-h5py not available");
    QTemporaryDir dir;
    const std::string file = writeInput(dir, "1/A", 0.05, "ms", 1.0);
    QCOMPARE(QProcess::execute(python, {"-c",
                                        "import h5py,sys; f=h5py.File(sys.argv[1],'r+'); "
                                        "f['/entry/instrument/detector/frame_time'].attrs['units']"
                                        "=['ms','s']",
                                        QString::fromStdString(file)}),
             0);
    EXPECT_ERROR(InputError, readInput(file), paths::frameTime, "must be one unit name",
                 "array ms, s");
    const auto run = test::runCli(
        {"correlate", QString::fromStdString(file), "--device", "cpu", "-o", dir.filePath("o.h5")});
    QCOMPARE(run.code, 3);
    QVERIFY2(run.err.contains("frame_time") && run.err.contains("one unit name"),
             qPrintable(run.err));
    QTemporaryDir other;
    const std::string number = writeInput(other, "", 0.5, "", 0.001);
    QCOMPARE(QProcess::execute(python, {"-c",
                                        "import h5py,sys; f=h5py.File(sys.argv[1],'r+'); "
                                        "f['/entry/processing/qmask_q'].attrs['units']=10",
                                        QString::fromStdString(number)}),
             0);
    EXPECT_ERROR(InputError, readInput(number), mask::paths::qmaskQ, "must be one unit name",
                 "number 10");
}

// A geometry length in a unit clscope does not know (distance in parsec) is refused.
void TstXpcsUnits::unknownLengthRefused() {
    QTemporaryDir dir;
    const std::string name = dir.filePath("g.h5").toStdString();
    {
        H5Writer out(name);
        out.createGroup(mask::paths::geometry);
        const std::pair<const char*, double> values[] = {
            {"beam_center_x", 10},   {"beam_center_y", 20},   {"distance", 5.0},
            {"pixel_size_x", 75e-6}, {"pixel_size_y", 75e-6}, {"wavelength", 1e-10}};
        for (const auto& [field, v] : values)
            out.writeScalar(mask::paths::geometry + "/" + field, v);
        out.setAttribute(mask::paths::geometry + "/distance", "units", "parsec");
        out.commit();
    }
    EXPECT_ERROR(InputError, mask::readGeometry(H5Reader(name)), "distance", "parsec");
}

// Where each value came from, as the GUI shows it: the stored value with the file's unit, or
// the default named.
void TstXpcsUnits::origins() {
    QTemporaryDir dir;
    const auto in = readInput(writeInput(dir, "1/angstrom", 0.05, "ms", 1.0));
    QCOMPARE(*in->frameTime, 1e-3);
    QCOMPARE(in->frameTimeOrigin, std::string("1 ms (file)"));
    QCOMPARE(in->qOrigin, std::string("1/angstrom (file)"));
    QTemporaryDir bare;
    const auto none = readInput(writeInput(bare, "", 0.5, "", 0.002));
    QVERIFY(none->frameTimeOrigin.find("no units attribute") != std::string::npos);
    QVERIFY(none->qOrigin.find("no units attribute") != std::string::npos);
}

// The Brownian demo with qmask_q rewritten in 1/Å and labelled so: the fitted D is the same
// as from nm^-1 and within 4 sigma of the true D, for dense and multi-tau g2.
void TstXpcsUnits::brownianInAngstrom() {
    QTemporaryDir dir;
    synthetic::XpcsParams p;
    p.frames = 400, p.height = 64, p.width = 64, p.frameTime = 0.001;
    synthetic::XpcsDataset d = synthetic::generateXpcs(p);
    const mask::LabelCenters centers = *d.centers;
    d.centers.reset();
    const QString in = dir.filePath("b.h5");
    {
        H5Writer out(in.toStdString());
        synthetic::writeXpcs(out, d, Compression::None);
        std::vector<double> q = centers.q;
        for (double& v : q)
            v /= 10.0; // nm^-1 -> 1/Å
        out.write(mask::paths::qmaskLabelIds,
                  makeArray<std::int32_t>({centers.labelIds.size()}, centers.labelIds));
        out.write(mask::paths::qmaskQ, makeArray<double>({q.size()}, q));
        out.setAttribute(mask::paths::qmaskQ, "units", "1/angstrom");
        out.commit();
    }
    for (const QStringList& mode : {QStringList{}, QStringList{"--multitau", "--channels", "8"}}) {
        const QString out = dir.filePath("o.h5");
        QFile::remove(out);
        const auto run = test::runCli(QStringList{"correlate", in, "--fit", "single", "--diffusion",
                                                  "--device", "cpu", "-o", out} +
                                      mode);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const H5Reader r(out.toStdString());
        const double D = r.readScalar("/xpcs/fit/diffusion"),
                     err = r.readScalar("/xpcs/fit/diffusion_err");
        qInfo("%s: D = %g +- %g (true %g)", mode.isEmpty() ? "dense" : "multi-tau", D, err,
              p.diffusion);
        QVERIFY2(std::abs(D - p.diffusion) < 4 * err, "D far from the true D");
        QVERIFY(err < 0.2 * p.diffusion);
        QCOMPARE(r.stringAttribute("/xpcs/fit/diffusion", "units").value_or(""),
                 std::string("angstrom^2/s"));
        QCOMPARE(r.stringAttribute("/xpcs/q", "units").value_or(""), std::string("1/angstrom"));
    }
}

QTEST_GUILESS_MAIN(TstXpcsUnits)
#include "tst_xpcs_units.moc"
