// tst_spots_per_image: DIALS' per-image analysis of the spots (core/spots/per_image.hpp) — the
// ice rings, the resolution estimate's edge cases, and every number of stats_per_image against
// DIALS itself on the same spots and the same experiment list
// (tests/spots_per_image_reference.py; skipped without python3-dials).
#include "core/atomic_file.hpp"
#include "core/azint/expt.hpp"
#include "core/errors.hpp"
#include "core/spots/ice_rings.hpp"
#include "core/spots/per_image.hpp"
#include "expt_text.hpp"
#include "test_util.hpp"

#include <nlohmann/json.hpp>

#include <QtTest>
#include <cmath>
#include <numbers>
#include <random>

using namespace clscope;
using namespace clscope::spots;

namespace {

// DIALS' usual detector, slightly tilted: 2000 x 2000 pixels of 75 µm at 150 mm, 0.9 Å.
const std::string exptText = test::exptText({{0.99980000666657778, 0.0, 0.019998666693333080},
                                             {-80.0, 85.0, -150.0},
                                             0.075,
                                             2000,
                                             2000,
                                             0.9});

azint::Geometry geometry() {
    return azint::parseExpt(exptText, "test.expt");
}

// A spot at resolution d (Å) and azimuth phi on the untilted detector's plane, about: the
// tilt moves it a little, which the comparison with DIALS does not mind.
Spot spotAt(double d, double phi, double intensity, int frame) {
    const double twoTheta = 2 * std::asin(0.9 / (2 * d));
    const double r = 150.0 * std::tan(twoTheta) / 0.075; // pixels
    Spot s;
    s.x = 80.0 / 0.075 + r * std::cos(phi), s.y = 85.0 / 0.075 + r * std::sin(phi);
    s.z = frame + 0.5, s.frame = frame, s.frameEnd = frame + 1, s.intensity = intensity;
    return s;
}

// An image of n spots: Wilson-like intensities falling with resolution (whole counts, ties
// among the weak), a few on ice rings and a few very strong (Wilson outliers).
void addImage(std::vector<Spot>& spots, int frame, int n, std::mt19937& rng) {
    std::uniform_real_distribution<double> dStar(1.0 / 40, 1.0 / 1.6), phi(0, 2 * std::numbers::pi);
    const double rings[] = {3.8954, 3.669, 3.4406, 2.6708, 2.249, 2.0715, 1.9477};
    for (int i = 0; i < n; ++i) {
        const double s = dStar(rng);
        std::exponential_distribution<double> wilson(std::exp(8 * s * s));
        double intensity = std::floor(3 + 2000 * wilson(rng));
        if (i % 23 == 7) intensity *= 40;        // an outlier
        if (i % 5 == 2) intensity = 3.0 + i % 4; // weak, tied
        const double d = i % 9 == 4 ? rings[i % 7] : 1.0 / s;
        spots.push_back(spotAt(d, phi(rng), intensity, frame));
    }
}

std::vector<Spot> referenceSpots() {
    std::mt19937 rng(53);
    std::vector<Spot> spots;
    const int perImage[] = {0, 5, 12, 40, 150, 400, 30, 11, 15, 25, 60, 120, 300, 700, 9, 3};
    for (int frame = 0; frame < 16; ++frame)
        addImage(spots, frame, perImage[frame], rng);
    return spots;
}

} // namespace

class TestSpotsPerImage : public QObject {
    Q_OBJECT
  private slots:
    void iceRingsAreDialsHexagonalIce();
    void ringWidthIsHalfEachSide();
    void fewSpotsGiveNoEstimate();
    void spotsOutsideTheRunAreLeftOut();
    void agreesWithDials();
    void gridFromTheExperimentList();
};

// DIALS' first rings of ice Ih (d = 3.895, 3.669, 3.441, 2.671, 2.249 Å); (001) is absent.
void TestSpotsPerImage::iceRingsAreDialsHexagonalIce() {
    const IceRings rings(1.0 / (2.2 * 2.2));
    const auto& s = rings.dStarSq();
    QCOMPARE(s.size(), std::size_t(5));
    const double want[] = {3.8953822662, 3.669, 3.4406423895, 2.6708218706, 2.249};
    for (std::size_t i = 0; i < 5; ++i)
        QVERIFY2(std::abs(1 / std::sqrt(s[i]) - want[i]) < 1e-9, qPrintable(QString::number(i)));
    QVERIFY(!rings.contains(7.338)); // (001): l odd on hh-2hl, absent
}

void TestSpotsPerImage::ringWidthIsHalfEachSide() {
    const IceRings rings(0.1);
    const double ring = 1 / (3.669 * 3.669);
    QVERIFY(rings.contains(1 / std::sqrt(ring + 0.00199)));
    QVERIFY(rings.contains(1 / std::sqrt(ring - 0.00199)));
    QVERIFY(!rings.contains(1 / std::sqrt(ring + 0.00201)));
    QVERIFY(!rings.contains(1 / std::sqrt(ring - 0.00201)));
}

// 10 spots off the rings or fewer: DIALS estimates nothing (-1).
void TestSpotsPerImage::fewSpotsGiveNoEstimate() {
    std::vector<SpotReflection> spots;
    for (int i = 0; i < 10; ++i)
        spots.push_back({0.05 + 0.02 * i, 100.0 + i});
    ImageStats s = imageStats(spots);
    QCOMPARE(s.nSpotsTotal, 10);
    QCOMPARE(s.estimatedDMin, -1.0);
    spots.push_back({0.0, 5.0}); // at the beam centre: no d, left out as DIALS does
    s = imageStats(spots);
    QCOMPARE(s.nSpotsTotal, 10);
    spots.push_back({0.3, 50.0});
    QVERIFY(imageStats(spots).estimatedDMin > 0);
}

void TestSpotsPerImage::spotsOutsideTheRunAreLeftOut() {
    std::vector<Spot> spots{spotAt(3.0, 0.1, 10, 0), spotAt(3.0, 0.2, 20, 2)};
    const PerImageStats s = perImageStats(spots, 2, geometry());
    QCOMPARE(s.images(), std::size_t(2));
    QCOMPARE(s.nSpotsTotal[0], 1);
    QCOMPARE(s.nSpotsTotal[1], 0);
    QCOMPARE(s.totalIntensity[0], 10.0);
}

void TestSpotsPerImage::agreesWithDials() {
    QTemporaryDir dir;
    const std::vector<Spot> spots = referenceSpots();
    const std::size_t images = 16;
    nlohmann::json j;
    for (const Spot& s : spots) {
        j["x"].push_back(s.x), j["y"].push_back(s.y), j["z"].push_back(s.z);
        j["intensity"].push_back(s.intensity);
    }
    const std::string spotsFile = dir.filePath("spots.json").toStdString();
    const std::string exptFile = dir.filePath("geometry.expt").toStdString();
    const std::string outFile = dir.filePath("dials.json").toStdString();
    writeFileAtomically(spotsFile, j.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict));
    writeFileAtomically(exptFile, exptText);
    QString skip;
    QVERIFY(test::runPython({CLSCOPE_SPOTS_PER_IMAGE_REFERENCE, QString::fromStdString(spotsFile),
                             QString::fromStdString(exptFile), QString::number(images),
                             QString::fromStdString(outFile)},
                            skip));
    if (!skip.isEmpty()) QSKIP(qPrintable(skip));
    const auto want =
        nlohmann::json::parse(test::readAll(QString::fromStdString(outFile)).toStdString());
    const PerImageStats got = perImageStats(spots, images, azint::readExpt(exptFile));
    QCOMPARE(got.images(), images);
    int estimates = 0;
    for (std::size_t i = 0; i < images; ++i) {
        const QByteArray at = "image " + QByteArray::number(int(i));
        QVERIFY2(got.nSpotsTotal[i] == want["n_spots_total"][i].get<std::int64_t>(), at);
        QVERIFY2(got.nSpotsNoIce[i] == want["n_spots_no_ice"][i].get<std::int64_t>(), at);
        QVERIFY2(got.nSpots4A[i] == want["n_spots_4A"][i].get<std::int64_t>(), at);
        QVERIFY2(got.totalIntensity[i] == want["total_intensity"][i].get<double>(), at);
        const double d = want["estimated_d_min"][i].get<double>();
        QVERIFY2(std::abs(got.estimatedDMin[i] - d) <= 1e-9 * std::abs(d), at);
        estimates += d > 0;
        qInfo("image %zu: %lld spots, %lld off ice, %lld to 4 A, I %.0f, d_min %.6f (DIALS %.6f)",
              i, (long long)got.nSpotsTotal[i], (long long)got.nSpotsNoIce[i],
              (long long)got.nSpots4A[i], got.totalIntensity[i], got.estimatedDMin[i], d);
    }
    QVERIFY(estimates >= 8); // the estimate itself was compared, not only its absence
}

// Issue 53: a grid scan's shape from its experiment list (dials.import grid_size=4,3: an
// ImageGrid imageset), as dxtbx reads the same file; none without one; a bad size refused.
void TestSpotsPerImage::gridFromTheExperimentList() {
    QTemporaryDir dir;
    test::ExptPanel panel{{1.0, 0.0, 0.0}, {-80.0, 85.0, -150.0}, 0.075, 2000, 2000, 0.9, 4, 3};
    const QString file = dir.filePath("grid.expt");
    writeFileAtomically(file.toStdString(), test::exptText(panel));
    const auto grid = azint::readExptGrid(file.toStdString());
    QVERIFY(grid);
    QCOMPARE(grid->columns, std::size_t(4));
    QCOMPARE(grid->rows, std::size_t(3));
    const char* script = "import sys\n"
                         "try:\n"
                         "    from dxtbx.model.experiment_list import ExperimentListFactory as F\n"
                         "except ImportError:\n"
                         "    sys.exit(77)\n"
                         "s = F.from_json_file(sys.argv[1], check_format=False)[0].imageset\n"
                         "print(type(s).__name__, *s.get_grid_size())\n";
    const auto dxtbx = test::runProgram(qEnvironmentVariable("CLSCOPE_PYTHON", "/usr/bin/python3"),
                                        {"-c", script, file}, {}, 60000);
    if (dxtbx.code == 77) QSKIP("no dxtbx");
    QCOMPARE(dxtbx.out.trimmed(), QString("ImageGrid 4 3"));
    QVERIFY(!azint::parseExptGrid(exptText, "plain.expt")); // no imageset
    std::string bad = test::exptText(panel);
    bad.replace(bad.find("\"grid_size\": [4, 3]"), 20, "\"grid_size\": [0, 3]");
    QVERIFY_THROWS_EXCEPTION(InputError, azint::parseExptGrid(bad, "bad.expt"));
}

QTEST_GUILESS_MAIN(TestSpotsPerImage)
#include "tst_spots_per_image.moc"
