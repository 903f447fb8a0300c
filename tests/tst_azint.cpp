// tst_azint: azint's core (core/azint/) — pyFAI's bin layout, the CSR product against the
// histogram, masks and sentinels, the PONI and DIALS .expt readers, and every unit, 1D and 2D,
// with and without corrections against Debian's pyFAI (tests/azint_reference.py; skipped
// without pyFAI or h5py, the .expt part without dxtbx).
#include "core/atomic_file.hpp"
#include "core/azint/azint.hpp"
#include "core/azint/bin_axis.hpp"
#include "core/azint/binning.hpp"
#include "core/azint/csr_matrix.hpp"
#include "core/azint/expt.hpp"
#include "core/azint/pixel_geometry.hpp"
#include "core/azint/pixel_map.hpp"
#include "core/azint/tiles.hpp"
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/mask/geometry.hpp"
#include "test_util.hpp"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <numbers>
#include <random>

using namespace clscope;
using namespace clscope::azint;

namespace {

// The reference script's geometry (tests/azint_reference.py).
Geometry referenceGeometry() {
    Geometry g;
    g.dist = 0.1, g.poni1 = 0.0061, g.poni2 = 0.0093;
    g.rot1 = 0.05, g.rot2 = -0.03, g.rot3 = 0.1;
    g.pixel1 = 75e-6, g.pixel2 = 80e-6, g.wavelength = 1e-10;
    g.height = 200, g.width = 240;
    return g;
}

bool close(double a, double b, double rel) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

double relDev(double a, double b) {
    const double scale = std::max(std::abs(a), std::abs(b));
    return scale == 0 ? 0 : std::abs(a - b) / scale;
}

std::vector<double> readDoubles(const H5Reader& in, const std::string& path) {
    const Array a = in.read(path, DType::Float64);
    const auto v = a.as<double>();
    return {v.begin(), v.end()};
}

PixelMask readMask(const H5Reader& in, const std::string& path) {
    const Array a = in.read(path, DType::Int64);
    PixelMask m{a.height(), a.width(), std::vector<std::uint8_t>(a.size())};
    for (std::size_t k = 0; k < a.size(); ++k)
        m.bad[k] = a.as<std::int64_t>()[k] != 0;
    return m;
}

// A case's parameters as the script wrote them (attribute `params`, JSON).
struct ReferenceCase {
    Params params;
    bool defaultRange = false;
};

std::optional<Range> jsonRange(const nlohmann::json& j) {
    if (j.is_null()) return std::nullopt;
    return Range{j[0].get<double>(), j[1].get<double>()};
}

ReferenceCase caseParams(const std::string& text) {
    const auto j = nlohmann::json::parse(text);
    ReferenceCase c;
    c.params.unit = unitFromName(j["unit"].get<std::string>());
    c.params.bins = j["bins"].get<int>();
    c.params.azimuthBins = j["azimuth_bins"].get<int>();
    c.params.radialRange = jsonRange(j["radial_range"]);
    c.params.azimuthRange = jsonRange(j["azimuth_range"]);
    c.params.solidAngle = j["solid_angle"].get<bool>();
    if (!j["polarization"].is_null()) c.params.polarization = j["polarization"].get<double>();
    c.defaultRange = j["default_range"].get<bool>();
    return c;
}

// How a run agrees with pyFAI's bins: bins non-empty on either side, those whose intensity,
// error, sums and count all agree to 1e-6 relative, the largest deviation of the intensity, and
// the largest difference in pixels of the others.
struct Agreement {
    std::size_t nonEmpty = 0, agreeing = 0;
    double maxIntensityDev = 0;
    long maxCountDiff = 0;
    double fraction() const { return nonEmpty ? double(agreeing) / double(nonEmpty) : 1.0; }
};

Agreement compare(const Result& r, const H5Reader& ref, const std::string& group) {
    const auto count = readDoubles(ref, group + "/count");
    const auto intensity = readDoubles(ref, group + "/intensity");
    const auto sigma = readDoubles(ref, group + "/sigma");
    const auto signal = readDoubles(ref, group + "/sum_signal");
    const auto norm = readDoubles(ref, group + "/sum_normalization");
    Agreement a;
    for (std::size_t b = 0; b < count.size(); ++b) {
        if (count[b] == 0 && r.count[b] == 0) continue;
        ++a.nonEmpty;
        const bool same =
            double(r.count[b]) == count[b] && close(r.sumSignal[b], signal[b], 1e-6) &&
            close(r.sumNormalization[b], norm[b], 1e-6) &&
            close(r.intensity[b], intensity[b], 1e-6) && close(r.error[b], sigma[b], 1e-6);
        a.agreeing += same;
        if (count[b] > 0 && r.count[b] > 0)
            a.maxIntensityDev = std::max(a.maxIntensityDev, relDev(r.intensity[b], intensity[b]));
        a.maxCountDiff = std::max(a.maxCountDiff, std::abs(long(r.count[b]) - long(count[b])));
    }
    return a;
}

template <class T> Array vectorArray(const std::vector<T>& v) {
    Array a(dtypeOf<T>(), {v.size()});
    std::copy(v.begin(), v.end(), a.as<T>().begin());
    return a;
}

// The bin centres as pyFAI gives them (radial in the unit, azimuthal in degrees).
void centresAgree(const Result& r, const H5Reader& ref, const std::string& group) {
    const auto radial = readDoubles(ref, group + "/radial");
    QCOMPARE(r.radial.size(), radial.size());
    for (std::size_t b = 0; b < radial.size(); ++b)
        QVERIFY2(close(r.radial[b], radial[b], 1e-12), group.c_str());
    if (!r.cake) return;
    const auto azimuthal = readDoubles(ref, group + "/azimuthal");
    QCOMPARE(r.azimuthal.size(), azimuthal.size());
    for (std::size_t b = 0; b < azimuthal.size(); ++b)
        QVERIFY2(std::abs(r.azimuthal[b] - azimuthal[b]) < 1e-9, group.c_str());
}

Array uint16Frames(std::size_t frames, std::size_t h, std::size_t w, unsigned seed) {
    Array a(DType::UInt16, {frames, h, w});
    std::mt19937 rng(seed);
    std::poisson_distribution<int> counts(50);
    for (auto& v : a.as<std::uint16_t>())
        v = static_cast<std::uint16_t>(rng() % 97 == 0 ? 65535 : counts(rng));
    return a;
}

// The command line of a case of the script (its `params` attribute).
QStringList cliArguments(const nlohmann::json& j) {
    QStringList a{"--unit",         QString::fromStdString(j["unit"].get<std::string>()),
                  "--bins",         QString::number(j["bins"].get<int>()),
                  "--azimuth-bins", QString::number(j["azimuth_bins"].get<int>())};
    const auto range = [](const nlohmann::json& r) {
        return QString::number(r[0].get<double>(), 'g', 17) + "," +
               QString::number(r[1].get<double>(), 'g', 17);
    };
    if (!j["default_range"].get<bool>() && !j["radial_range"].is_null())
        a << "--radial-range" << range(j["radial_range"]);
    if (!j["azimuth_range"].is_null()) a << "--azimuth-range" << range(j["azimuth_range"]);
    if (j["solid_angle"].get<bool>()) a << "--solid-angle";
    if (!j["polarization"].is_null())
        a << "--polarization" << QString::number(j["polarization"].get<double>(), 'g', 17);
    return a;
}

// The sums and count of a clscope-cli azint output (one frame).
Result resultFromFile(const H5Reader& in) {
    Result r;
    r.sumSignal = readDoubles(in, "/azint/sum_signal");
    r.sumNormalization = readDoubles(in, "/azint/sum_normalization");
    r.intensity = readDoubles(in, "/azint/intensity");
    r.error = readDoubles(in, "/azint/error");
    for (const double c : readDoubles(in, "/azint/count"))
        r.count.push_back(static_cast<std::int64_t>(c));
    return r;
}

} // namespace

class TestAzint : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString skipReason_; // non-empty: the pyFAI reference could not be made

    std::string path(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }
    bool haveReference() const { return skipReason_.isEmpty(); }

  private slots:
    void initTestCase();
    void unitsAndScales();
    void binAxisFollowsPyfai();
    void pyfaiDegToRad();
    void csrEqualsHistogram();
    void tiledBins();
    void masksAndSentinels();
    void badParamsAndInput();
    void poniVersion1();
    void exptErrors();
    void poniWrittenByPyfai();
    void exptWrittenByDxtbx();
    void pixelsAgainstPyfai();
    void integrationAgainstPyfai();
    void cliAgainstPyfai();
    void cliWithExpt();
    void cliBadInput();
    void cliGeometryFromFile();
};

void TestAzint::initTestCase() {
    QVERIFY(dir_.isValid());
    QVERIFY(test::runPython({CLSCOPE_AZINT_REFERENCE, dir_.path()}, skipReason_));
}

void TestAzint::unitsAndScales() {
    for (Unit u : {Unit::QNm, Unit::QAngstrom, Unit::TwoThetaDeg, Unit::RMm})
        QCOMPARE(int(unitFromName(unitName(u))), int(u));
    QCOMPARE(unitScale(Unit::QAngstrom), 0.1);
    QCOMPARE(unitScale(Unit::RMm), 1000.0);
    QCOMPARE(unitScale(Unit::TwoThetaDeg), 180.0 / std::numbers::pi);
    QVERIFY_THROWS_EXCEPTION(UsageError, unitFromName("q_pm^-1"));
    // A pixel at 45 degrees in the horizontal plane: 2theta, chi, r, q by hand.
    const LabPoint p{0.0, 0.1, 0.1};
    QCOMPARE(twoTheta(p), std::numbers::pi / 4);
    QCOMPARE(chi(p), 0.0);
    QCOMPARE(internalRadial(Unit::RMm, p, 1e-10), 0.1);
    QVERIFY(close(internalRadial(Unit::QNm, p, 1e-10),
                  4e-9 * std::numbers::pi / 1e-10 * std::sin(std::numbers::pi / 8), 1e-15));
}

// pyFAI's layout (checked against pyFAI.ext.histogram.histogram_preproc): the upper end moved up
// by one float32 epsilon, 1D truncation towards zero (a value below the range lands in bin 0),
// floor on a cake's axes.
void TestAzint::binAxisFollowsPyfai() {
    const BinAxis line(0.0, 1.0, 2, Rounding::TowardZero);
    QCOMPARE(line.binOf(0.0), 0);
    QCOMPARE(line.binOf(-0.2), 0);
    QCOMPARE(line.binOf(-0.6), -1);
    QCOMPARE(line.binOf(0.999999), 1);
    QCOMPARE(line.binOf(1.0), 1);
    QCOMPARE(line.binOf(1.0001), -1);
    QCOMPARE(line.binOf(std::nan("")), -1);
    const BinAxis cake(0.0, 1.0, 2, Rounding::Floor);
    QCOMPARE(cake.binOf(-0.2), -1);
    QCOMPARE(cake.binOf(1.0), 1);
    const auto centres = line.centres(1.0);
    QCOMPARE(centres.size(), std::size_t(2));
    QVERIFY(close(centres[0], 0.25000003, 1e-8)); // what pyFAI gave
    QVERIFY(close(centres[1], 0.75000009, 1e-8));
}

void TestAzint::pyfaiDegToRad() {
    QCOMPARE(azint::pyfaiDegToRad(180.0), -std::numbers::pi);
    QCOMPARE(azint::pyfaiDegToRad(-180.0), -std::numbers::pi);
    QCOMPARE(azint::pyfaiDegToRad(-90.0), -0.5 * std::numbers::pi);
    QCOMPARE(azint::pyfaiDegToRad(270.0), -0.5 * std::numbers::pi);
    Params p;
    const Range full = internalAzimuthRange(p);
    QCOMPARE(full.first, -std::numbers::pi);
    QCOMPARE(full.second, std::numbers::pi);
}

// The tiled variant's tables: 3 x 5 pixels in tiles of 2 x 2, cut at the bottom and the right
// (their pixels outside the image have no bin); each tile's lowest bin and span, each pixel's
// offset from it; a tile of no bins has span 0; one spanning more than 16 bits keeps offset 0
// for its binned pixels. The sorted form of the same tiles.
void TestAzint::tiledBins() {
    const std::vector<std::int32_t> bins{4, 5, -1, -1,    9,  //
                                         6, 4, -1, -1,    -1, //
                                         7, 7, 3,  70000, 0};
    const TiledBins tiled(bins, 3, 5, 2, 2);
    const std::uint16_t no = TiledBins::noBin;
    QCOMPARE(tiled.tiles(), std::size_t(6));
    QCOMPARE(tiled.spans(), (std::vector<std::int32_t>{4, 3, 0, 0, 9, 1, 7, 1, 3, 69998, 0, 1}));
    QCOMPARE(tiled.offsets(),
             (std::vector<std::uint16_t>{0, 1, 2,  0,  no, no, no, no, 0, no, no, no,
                                         0, 0, no, no, 0,  0,  no, no, 0, no, no, no}));
    QCOMPARE(tiled.widest(), std::int64_t(69998));
    QVERIFY(!tiled.fitsBytes());
    QVERIFY_THROWS_EXCEPTION(std::logic_error, tiled.byteOffsets());
    // Without the wide tile: offsets as bytes, 0xFF for none.
    std::vector<std::int32_t> narrow = bins;
    narrow[13] = 257; // the tile's span 255, the widest of bytes
    const TiledBins bytes(narrow, 3, 5, 2, 2);
    QVERIFY(bytes.fitsBytes());
    QCOMPARE(bytes.offsets()[17], std::uint16_t(254));
    const std::vector<std::uint8_t> b = bytes.byteOffsets();
    QCOMPARE(b.size(), bytes.offsets().size());
    QCOMPARE(int(b[17]), 254);
    QCOMPARE(int(b[4]), 0xFF);
    QCOMPARE(int(b[1]), 1);
    narrow[13] = 258; // span 256
    QVERIFY(!TiledBins(narrow, 3, 5, 2, 2).fitsBytes());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TiledBins(bins, 3, 4, 2, 2));
    // The sorted form: each tile's binned pixels by bin (in-tile indices, ascending within a
    // bin), its segments (bin, first, end) from its first in tileSegments; the wide tile's bins
    // whole.
    const SortedTiles sorted(bins, 3, 5, 2, 2);
    QCOMPARE(sorted.tiles(), std::size_t(6));
    QCOMPARE(sorted.tileSegments(), (std::vector<std::int32_t>{0, 3, 3, 4, 5, 7, 8}));
    QCOMPARE(sorted.segments(),
             (std::vector<std::int32_t>{4, 0, 2, 5, 2, 3, 6,     3, 4, 9, 0, 1,
                                        7, 0, 2, 3, 0, 1, 70000, 1, 2, 0, 0, 1}));
    QCOMPARE(sorted.order(), (std::vector<std::uint16_t>{0, 3, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0,
                                                         0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SortedTiles(bins, 3, 5, 512, 129));
}

// The CSR product gives the histogram's sums bit for bit, 1D and 2D, over several frames.
void TestAzint::csrEqualsHistogram() {
    const Input in{uint16Frames(3, 40, 50, 7), {}, {}};
    Geometry g;
    g.dist = 0.05, g.poni1 = 0.001, g.poni2 = 0.002, g.rot1 = 0.1, g.rot3 = -0.2;
    for (int azimuthBins : {0, 12}) {
        Params p;
        p.bins = 23, p.azimuthBins = azimuthBins, p.solidAngle = true, p.polarization = 0.9;
        const Result a = runCpu(in, g, p), b = runCsr(in, g, p);
        QCOMPARE(a.frames, std::size_t(3));
        QCOMPARE(a.count, b.count);
        QCOMPARE(a.sumSignal, b.sumSignal);
        QCOMPARE(a.sumNormalization, b.sumNormalization);
        std::int64_t total = 0;
        for (auto c : a.count)
            total += c;
        QVERIFY(total > 0);
    }
    // The matrix itself: each bin's pixels ascending, every binned pixel once.
    const std::vector<std::int32_t> bins{2, -1, 0, 2, 1, -1, 0};
    const CsrMatrix csr(bins, 3);
    QCOMPARE(csr.rows(), std::size_t(3));
    QCOMPARE(csr.nonZeros(), std::size_t(5));
    QCOMPARE(csr.rowStart(), (std::vector<std::int64_t>{0, 2, 3, 5}));
    QCOMPARE(csr.pixels(), (std::vector<std::int32_t>{2, 6, 4, 0, 3}));
    // Enough pixels for the counting sort in pieces over the cores: the same as one pass.
    std::vector<std::int32_t> many(std::size_t(1) << 22);
    std::uint32_t state = 12345;
    for (auto& b : many)
        state = state * 1664525u + 1013904223u, b = std::int32_t(state >> 22) % 101 - 1;
    const CsrMatrix pieced(many, 100);
    std::vector<std::int64_t> rows(101, 0);
    std::vector<std::int32_t> pixels;
    for (std::int32_t bin = 0; bin < 100; ++bin) {
        for (std::size_t k = 0; k < many.size(); ++k)
            if (many[k] == bin) pixels.push_back(std::int32_t(k));
        rows[std::size_t(bin) + 1] = std::int64_t(pixels.size());
    }
    QCOMPARE(pieced.rowStart(), rows);
    QVERIFY(pieced.pixels() == pixels);
}

// One bin over the whole image: the mask, the pixel mask, sentinels (uint16) and non-finite
// values (float32) are left out; a bin with nothing is NaN.
void TestAzint::masksAndSentinels() {
    Geometry g;
    Params p;
    p.bins = 1;
    Input in{Array(DType::UInt16, {1, 4, 4}),
             {4, 4, std::vector<std::uint8_t>(16)},
             {4, 4, std::vector<std::uint8_t>(16)}};
    auto v = in.frames.as<std::uint16_t>();
    for (std::size_t k = 0; k < 16; ++k)
        v[k] = static_cast<std::uint16_t>(k + 1);
    in.mask.bad[0] = 1, in.pixelMask.bad[1] = 1, v[2] = 65534, v[3] = 65535, v[4] = 65533;
    const Result r = runCpu(in, g, p);
    QCOMPARE(r.count[0], std::int64_t(12));
    const double sum = 136.0 - (1 + 2 + 3 + 4 + 5) + 65533; // 1..16 less the 4 left out, 5 -> 65533
    QCOMPARE(r.sumSignal[0], sum);
    QCOMPARE(r.sumNormalization[0], 12.0);
    QCOMPARE(r.intensity[0], sum / 12.0);
    QCOMPARE(r.error[0], std::sqrt(sum) / 12.0);

    Input f{Array(DType::Float32, {1, 4, 4}), {}, {}};
    auto fv = f.frames.as<float>();
    std::fill(fv.begin(), fv.end(), 2.0f);
    fv[5] = std::nanf(""), fv[6] = INFINITY;
    const Result rf = runCpu(f, g, p);
    QCOMPARE(rf.count[0], std::int64_t(14));
    QCOMPARE(rf.intensity[0], 2.0);

    // A range that no pixel reaches: empty bins, NaN intensity and error, count 0. (With 1e6..2e6
    // every pixel would fall in bin 0: pyFAI's 1D truncation, binAxisFollowsPyfai.)
    p.radialRange = Range{1e6, 1e6 + 1};
    const Result empty = runCpu(f, g, p);
    QCOMPARE(empty.count[0], std::int64_t(0));
    QVERIFY(std::isnan(empty.intensity[0]) && std::isnan(empty.error[0]));
}

void TestAzint::badParamsAndInput() {
    Params p;
    p.bins = 0;
    QVERIFY_THROWS_EXCEPTION(UsageError, checkParams(p));
    p.bins = 10, p.radialRange = Range{1.0, 1.0};
    QVERIFY_THROWS_EXCEPTION(UsageError, checkParams(p));
    p.radialRange.reset(), p.bins = 100000, p.azimuthBins = 100000; // bin ids past int32
    QVERIFY_THROWS_EXCEPTION(UsageError, checkParams(p));
    p.azimuthBins = 20000;
    checkParams(p);
    Input in{Array(DType::UInt16, {4, 4}), {3, 4, std::vector<std::uint8_t>(12)}, {}};
    QVERIFY_THROWS_EXCEPTION(InputError, checkInput(in));
    in.mask = {4, 4, std::vector<std::uint8_t>(16, 1)};
    QVERIFY_THROWS_EXCEPTION(InputError, runCpu(in, Geometry{}, Params{})); // all masked
    Geometry g;
    g.wavelength = 0;
    QVERIFY_THROWS_EXCEPTION(UsageError, PixelGeometry(g, Positions::Float64));
}

void TestAzint::poniVersion1() {
    const std::string file = path("v1.poni");
    writeFileAtomically(file, "# version 1, as pyFAI 0.1x wrote it\n"
                              "PixelSize1: 0.000172\nPixelSize2: 0.000150\nDistance: 0.25\n"
                              "Poni1: 0.03\nPoni2: 0.04\nRot1: 0.01\nRot2: 0.02\nRot3: -0.03\n"
                              "Wavelength: 7.3e-11\n");
    const Geometry g = readPoni(file);
    QCOMPARE(g.pixel1, 0.000172);
    QCOMPARE(g.pixel2, 0.000150);
    QCOMPARE(g.dist, 0.25);
    QVERIFY(close(g.poni1, 0.03, 1e-15) && close(g.poni2, 0.04, 1e-15));
    QCOMPARE(g.rot3, -0.03);
    QCOMPARE(g.wavelength, 7.3e-11);
    writeFileAtomically(file, "Distance: 0.25\n");
    QVERIFY_THROWS_EXCEPTION(InputError, readPoni(file));
}

void TestAzint::exptErrors() {
    QVERIFY_THROWS_EXCEPTION(InputError, parseExpt("{", "x.expt"));
    QVERIFY_THROWS_EXCEPTION(InputError, parseExpt(R"({"experiment": []})", "x.expt"));
    const std::string twoPanels =
        R"({"experiment": [{"beam": 0, "detector": 0}],
            "beam": [{"direction": [0, 0, 1], "wavelength": 1.0}],
            "detector": [{"panels": [{}, {}]}]})";
    QVERIFY_THROWS_EXCEPTION(InputError, parseExpt(twoPanels, "x.expt"));
    const std::string badSize =
        R"({"experiment": [{"beam": 0, "detector": 0}],
            "beam": [{"direction": [0, 0, 1], "wavelength": 1.0}],
            "detector": [{"panels": [{"fast_axis": [1, 0, 0], "slow_axis": [0, -1, 0],
              "origin": [0, 0, -100], "pixel_size": ["a", 0.1], "image_size": [3, 2]}]}]})";
    QVERIFY_THROWS_EXCEPTION(InputError, parseExpt(badSize, "x.expt"));
    // DIALS' usual detector (fast +x, slow -y, beam along -z) has no rotation.
    const std::string plain =
        R"({"experiment": [{"beam": 0, "detector": 0}],
            "beam": [{"direction": [0, 0, 1], "wavelength": 0.9}],
            "detector": [{"panels": [{"fast_axis": [1, 0, 0], "slow_axis": [0, -1, 0],
              "origin": [-10.0, 12.0, -150.0], "pixel_size": [0.075, 0.1],
              "image_size": [300, 200]}]}]})";
    const Geometry g = parseExpt(plain, "x.expt");
    QVERIFY(close(g.dist, 0.15, 1e-15));
    QVERIFY(close(g.poni1, 0.012, 1e-15) && close(g.poni2, 0.010, 1e-15));
    QCOMPARE(g.rot1 + g.rot2 + g.rot3, 0.0);
    QCOMPARE(g.pixel1, 1e-4);
    QCOMPARE(g.pixel2, 7.5e-5);
    QVERIFY(close(g.wavelength, 0.9e-10, 1e-15));
    QCOMPARE(g.width, std::size_t(300));
    QCOMPARE(g.height, std::size_t(200));
}

void TestAzint::poniWrittenByPyfai() {
    if (!haveReference()) QSKIP(qPrintable(skipReason_));
    const Geometry g = readPoni(path("geometry.poni")), want = referenceGeometry();
    QCOMPARE(g.dist, want.dist);
    QVERIFY(close(g.poni1, want.poni1, 1e-15) && close(g.poni2, want.poni2, 1e-15));
    QCOMPARE(g.rot1, want.rot1);
    QCOMPARE(g.rot2, want.rot2);
    QCOMPARE(g.rot3, want.rot3);
    QCOMPARE(g.pixel1, want.pixel1);
    QCOMPARE(g.pixel2, want.pixel2);
    QCOMPARE(g.wavelength, want.wavelength);
    QCOMPARE(g.height, want.height);
    QCOMPARE(g.width, want.width);
}

// dxtbx's experiment list of the same geometry (written from pyFAI's pixel positions) gives the
// PONI's parameters and DIALS' own two-theta at every pixel centre.
void TestAzint::exptWrittenByDxtbx() {
    if (!haveReference()) QSKIP(qPrintable(skipReason_));
    if (!QFile::exists(dir_.path() + "/geometry.expt")) QSKIP("dxtbx missing (python3-dials)");
    const Geometry g = readExpt(path("geometry.expt")), want = referenceGeometry();
    QVERIFY2(close(g.dist, want.dist, 1e-12), qPrintable(QString::number(g.dist, 'g', 17)));
    QVERIFY(close(g.poni1, want.poni1, 1e-10) && close(g.poni2, want.poni2, 1e-10));
    QVERIFY(std::abs(g.rot1 - want.rot1) < 1e-12 && std::abs(g.rot2 - want.rot2) < 1e-12 &&
            std::abs(g.rot3 - want.rot3) < 1e-12);
    QVERIFY(close(g.pixel1, want.pixel1, 1e-15) && close(g.pixel2, want.pixel2, 1e-15));
    QVERIFY(close(g.wavelength, want.wavelength, 1e-15));
    QCOMPARE(g.height, want.height);
    QCOMPARE(g.width, want.width);
    const H5Reader ref(path("reference.h5"));
    const auto dials = readDoubles(ref, "/dxtbx/two_theta");
    const PixelGeometry fromExpt(g, Positions::Float64), fromPoni(want, Positions::Float64);
    double maxDials = 0, maxPoni = 0;
    for (std::size_t j = 0; j < g.height; ++j)
        for (std::size_t i = 0; i < g.width; ++i) {
            const LabPoint a = fromExpt.at(j, i), b = fromPoni.at(j, i);
            maxDials = std::max(maxDials, std::abs(twoTheta(a) - dials[j * g.width + i]));
            maxPoni =
                std::max({maxPoni, relDev(twoTheta(a), twoTheta(b)), std::abs(chi(a) - chi(b))});
        }
    qInfo("expt vs dxtbx two-theta: %.3g rad; expt vs PONI 2theta (relative), chi: %.3g", maxDials,
          maxPoni);
    QVERIFY(maxDials < 1e-9);
    QVERIFY(maxPoni < 1e-9);
}

// Per pixel: with pyFAI's float32 positions, pyFAI's own arrays to rounding; in float64, within
// what float32 positions shift them.
void TestAzint::pixelsAgainstPyfai() {
    if (!haveReference()) QSKIP(qPrintable(skipReason_));
    const H5Reader ref(path("reference.h5"));
    const Geometry g = referenceGeometry();
    const auto q = readDoubles(ref, "/pixels/q_nm^-1"), tth = readDoubles(ref, "/pixels/2th_rad");
    const auto r = readDoubles(ref, "/pixels/r_m"), chiRef = readDoubles(ref, "/pixels/chi_rad");
    const auto sa = readDoubles(ref, "/pixels/solid_angle");
    const auto pol = readDoubles(ref, "/pixels/polarization");
    for (Positions positions : {Positions::PyFaiFloat32, Positions::Float64}) {
        const PixelGeometry pg(g, positions);
        double dq = 0, dt = 0, dr = 0, dc = 0, ds = 0, dp = 0;
        for (std::size_t j = 0; j < g.height; ++j)
            for (std::size_t i = 0; i < g.width; ++i) {
                const std::size_t k = j * g.width + i;
                const LabPoint p = pg.at(j, i);
                dq = std::max(dq, relDev(internalRadial(Unit::QNm, p, g.wavelength), q[k]));
                dt = std::max(dt, relDev(twoTheta(p), tth[k]));
                dr = std::max(dr, relDev(internalRadial(Unit::RMm, p, g.wavelength), r[k]));
                dc = std::max(dc, std::abs(chi(p) - chiRef[k]));
                ds = std::max(ds, relDev(pg.solidAngle(j, i), sa[k]));
                dp = std::max(dp, relDev(pg.polarization(j, i, 0.95), pol[k]));
            }
        const bool f32 = positions == Positions::PyFaiFloat32;
        qInfo("%s positions vs pyFAI: q %.3g, 2th %.3g, r %.3g, chi %.3g rad, solid angle %.3g, "
              "polarisation %.3g",
              f32 ? "float32" : "float64", dq, dt, dr, dc, ds, dp);
        const double posTol = f32 ? 1e-14 : 1e-5;
        QVERIFY(dq < posTol && dt < posTol && dr < posTol && dc < posTol && ds < posTol);
        QVERIFY(dp < 1e-7); // pyFAI keeps the polarisation in float32
    }
}

// Every case of the script: clscope in float64 (its contract: >= 90 % of the non-empty bins
// within 1e-6, the others off by the pixels at an edge); with pyFAI's float32 positions, every
// bin (so a change of any formula, rounding or range rule shows).
void TestAzint::integrationAgainstPyfai() {
    if (!haveReference()) QSKIP(qPrintable(skipReason_));
    const H5Reader ref(path("reference.h5"));
    const Input in{ref.read("/input/data"), readMask(ref, "/input/mask"),
                   readMask(ref, "/input/pixel_mask")};
    const Geometry g = readPoni(path("geometry.poni"));
    const auto cases = ref.children("/cases");
    QCOMPARE(cases.size(), std::size_t(26));
    for (const H5Node& node : cases) {
        const std::string group = "/cases/" + node.name;
        const auto text = ref.stringAttribute(group, "params");
        QVERIFY(text);
        ReferenceCase c = caseParams(*text);
        Params exact = c.params;
        exact.positions = Positions::PyFaiFloat32;
        const Result exactRun = runCpu(in, g, exact);
        const Agreement e = compare(exactRun, ref, group);
        if (c.defaultRange) c.params.radialRange.reset(); // clscope's own default
        const Result r = runCpu(in, g, c.params);
        const Agreement a = compare(r, ref, group);
        qInfo("%-22s float64: %6.2f %% of %5zu bins within 1e-6 (max intensity deviation %.2g, "
              "max %ld pixels off); pyFAI's float32 positions: %6.2f %%",
              node.name.c_str(), 100 * a.fraction(), a.nonEmpty, a.maxIntensityDev, a.maxCountDiff,
              100 * e.fraction());
        QVERIFY2(e.agreeing == e.nonEmpty, node.name.c_str());
        QVERIFY2(a.fraction() >= 0.9, node.name.c_str());
        QVERIFY2(a.maxCountDiff <= 2, node.name.c_str()); // an edge pixel moved in or out
        centresAgree(exactRun, ref, group);
        if (!c.defaultRange) centresAgree(r, ref, group); // else from other positions' range
        if (QTest::currentTestFailed()) return;
    }
}

// `clscope-cli azint` on the script's image (its mask and pixel mask as --mask and --pixel-mask,
// its PONI): /azint/* agrees with pyFAI's bins as runCpu does (integrationAgainstPyfai), for
// every case with clscope's own (float64) positions.
void TestAzint::cliAgainstPyfai() {
    if (!haveReference()) QSKIP(qPrintable(skipReason_));
    const QString ref = QString::fromStdString(path("reference.h5"));
    const H5Reader reference(path("reference.h5"));
    for (const H5Node& node : reference.children("/cases")) {
        const std::string group = "/cases/" + node.name;
        const QString out = QString::fromStdString(path(("cli_" + node.name + ".h5").c_str()));
        const auto args =
            cliArguments(nlohmann::json::parse(*reference.stringAttribute(group, "params")));
        const test::CliRun run = test::runCli(
            QStringList{"azint", ref, "--data", "/input/data", "--mask", ref + ":/input/mask",
                        "--pixel-mask", ref + ":/input/pixel_mask", "--poni",
                        QString::fromStdString(path("geometry.poni")), "--device", "cpu", "-o",
                        out} +
            args);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const H5Reader got(out.toStdString());
        const Result r = resultFromFile(got);
        const Agreement a = compare(r, reference, group);
        QVERIFY2(a.fraction() >= 0.9, node.name.c_str());
        QVERIFY2(a.maxCountDiff <= 2, node.name.c_str());
        QVERIFY(got.stringAttribute("/azint/radial", "units"));
        QCOMPARE(*got.stringAttribute("/azint", "variant"), std::string("cpu"));
        QVERIFY(got.stringAttribute("/azint", "parameters")->find("geometry.poni") !=
                std::string::npos);
    }
}

// --expt instead of --poni (the same geometry, written by dxtbx): the same counts, intensities
// within 1e-9 (the .expt's PONI parameters agree to 1e-12), a cake with corrections, on ocl:0.
void TestAzint::cliWithExpt() {
    if (!haveReference()) QSKIP(qPrintable(skipReason_));
    if (!QFile::exists(dir_.path() + "/geometry.expt")) QSKIP("dxtbx missing (python3-dials)");
    const QString ref = QString::fromStdString(path("reference.h5"));
    const QStringList common{
        "azint",          ref, "--data",        "/input/data",    "--bins", "60",
        "--azimuth-bins", "8", "--solid-angle", "--polarization", "0.95"};
    std::vector<Result> results;
    for (const char* geometry : {"--poni", "--expt"}) {
        const std::string file = std::string("geometry.") + (geometry[2] == 'p' ? "poni" : "expt");
        const QString out = QString::fromStdString(path(("cli_" + file + ".h5").c_str()));
        const test::CliRun run = test::runCli(
            common + QStringList{geometry, QString::fromStdString(path(file.c_str())), "-o", out});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        results.push_back(resultFromFile(H5Reader(out.toStdString())));
    }
    QCOMPARE(results[1].count, results[0].count);
    for (std::size_t b = 0; b < results[0].intensity.size(); ++b)
        QVERIFY(close(results[1].intensity[b], results[0].intensity[b], 1e-9));
}

// Bad input: one message, usage errors exit 2 and bad files 3, nothing written.
void TestAzint::cliBadInput() {
    if (!haveReference()) QSKIP(qPrintable(skipReason_));
    const QString ref = QString::fromStdString(path("reference.h5"));
    const QString poni = QString::fromStdString(path("geometry.poni"));
    const QString out = QString::fromStdString(path("bad.h5"));
    const QStringList base{"azint", ref, "--data", "/input/data", "-o", out};
    const struct {
        QStringList args;
        int code;
        const char* says;
    } cases[] = {
        {{}, 2, "geometry"}, // no geometry in the file and none given
        {{"--poni", poni, "--unit", "q_pm^-1"}, 2, "unit"},
        {{"--poni", poni, "--radial-range", "1,x"}, 2, "radial_range"},
        {{"--poni", poni, "--radial-range", "5,5"}, 2, "range"},
        {{"--poni", poni, "--bins", "0"}, 2, "bins"},
        {{"--poni", poni, "--expt", poni}, 2, "--expt"},
        {{"--poni", ref}, 3, ""},                                              // not a PONI file
        {{"--poni", QString::fromStdString(path("small.poni"))}, 3, "pixels"}, // its shape
    };
    mask::PoniFile small{mask::Geometry{}, "Detector", 10, 10};
    mask::writePoni(path("small.poni"), small);
    for (const auto& c : cases) {
        const test::CliRun run = test::runCli(base + c.args);
        QVERIFY2(run.code == c.code, qPrintable(c.args.join(' ') + ": " + run.err));
        QVERIFY2(run.err.contains(c.says), qPrintable(run.err));
        QVERIFY2(run.err.trimmed().count('\n') == 0, qPrintable(run.err));
        QVERIFY(!QFile::exists(out));
    }
}

// `generate powder` writes the geometry where `clscope-cli azint` finds it without --poni.
void TestAzint::cliGeometryFromFile() {
    const QString in = QString::fromStdString(path("powder.h5"));
    const QString out = QString::fromStdString(path("powder_azint.h5"));
    test::CliRun run = test::runCli(
        {"generate", "powder", "-o", in, "--frames", "2", "--height", "40", "--width", "50"});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    run = test::runCli({"azint", in, "--bins", "30", "--azimuth-bins", "4", "--unit", "2th_deg",
                        "--solid-angle", "--device", "cpu", "-o", out});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const H5Reader got(out.toStdString());
    QCOMPARE(got.info("/azint/intensity").shape, (Shape{2, 4, 30}));
    QCOMPARE(got.info("/azint/count").shape, (Shape{4, 30})); // DESIGN.md: (M, N)
    QCOMPARE(got.info("/azint/count_per_frame").shape, (Shape{2, 4, 30}));
    QCOMPARE(got.info("/azint/azimuthal").shape, (Shape{4}));
    QCOMPARE(*got.stringAttribute("/azint/radial", "units"), std::string("deg"));
    for (const char* name : {"device", "variant", "parameters", "kernel_ms", "clscope_version"})
        QVERIFY2(got.stringAttribute("/azint", name), name);
}

QTEST_GUILESS_MAIN(TestAzint)
#include "tst_azint.moc"
