// Geometry (q, phi, PONI) and partitions.
#include "tst_mask.hpp"

#include "core/errors.hpp"
#include "core/mask/geometry.hpp"
#include "core/mask/partition.hpp"
#include "core/xpcs/synthetic.hpp"

#include <cmath>
#include <limits>
#include <numbers>

using namespace clscope;
using namespace clscope::mask;

namespace {

constexpr double pi = std::numbers::pi;

Geometry saxsGeometry() {
    Geometry g;
    g.beamCenterX = 50.0;
    g.beamCenterY = 40.0;
    g.distance = 0.5;
    g.pixelSizeX = 75e-6;
    g.pixelSizeY = 75e-6;
    g.wavelength = 1.0e-10;
    return g;
}

// q (nm^-1) of a point at distance d (m) from the beam on a detector at distance L, by hand.
double handQ(double d, double L, double wavelength) {
    return 4 * pi / (wavelength * 1e9) * std::sin(std::atan(d / L) / 2);
}

bool close(double a, double b, double rel = 1e-12) {
    return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}

// Pixels per label, counted directly.
std::vector<std::int64_t> countLabels(const LabelMask& m, int labelCount) {
    std::vector<std::int64_t> counts(labelCount + 1, 0);
    for (const std::int32_t l : m.labels)
        ++counts[l];
    return counts;
}

} // namespace

void TstMask::qMatchesHandFormula_data() {
    QTest::addColumn<double>("pixelX");
    QTest::addColumn<double>("pixelY");
    QTest::addColumn<double>("pixelSizeY");
    QTest::newRow("on axis +x") << 60.0 << 39.0 << 75e-6;
    QTest::newRow("3-4-5 diagonal") << 53.0 << 44.0 << 75e-6; // centre (53.5, 44.5)
    QTest::newRow("far corner") << 0.0 << 0.0 << 75e-6;
    QTest::newRow("non-square pixels") << 71.0 << 12.0 << 172e-6;
}

void TstMask::qMatchesHandFormula() {
    QFETCH(double, pixelX);
    QFETCH(double, pixelY);
    QFETCH(double, pixelSizeY);
    Geometry g = saxsGeometry();
    g.pixelSizeY = pixelSizeY;
    const std::size_t width = 100;
    const PixelQMap map = computeQMap(g, 80, width);
    // Pixel centres sit at index + 0.5.
    const double dx = (pixelX + 0.5 - g.beamCenterX) * g.pixelSizeX;
    const double dy = (pixelY + 0.5 - g.beamCenterY) * g.pixelSizeY;
    const double expected = handQ(std::hypot(dx, dy), g.distance, g.wavelength);
    const std::size_t index =
        static_cast<std::size_t>(pixelY) * width + static_cast<std::size_t>(pixelX);
    QVERIFY2(
        close(map.q[index], expected),
        qPrintable(
            QString("q %1, expected %2").arg(map.q[index], 0, 'g', 17).arg(expected, 0, 'g', 17)));
    QVERIFY(close(anglesAt(g, pixelX + 0.5, pixelY + 0.5).q, expected));
    QVERIFY(close(map.phi[index], std::atan2(dy, dx) * 180 / pi));
    QCOMPARE(anglesAt(g, g.beamCenterX, g.beamCenterY).q, 0.0);
}

void TstMask::phiQuadrants() {
    const Geometry g = saxsGeometry();
    const double x = g.beamCenterX, y = g.beamCenterY;
    QVERIFY(close(anglesAt(g, x + 3, y).phi, 0.0));
    QVERIFY(close(anglesAt(g, x, y + 3).phi, 90.0));  // +y (rows) is counter-clockwise
    QVERIFY(close(anglesAt(g, x - 3, y).phi, 180.0)); // (-180, 180]: never -180
    QVERIFY(close(anglesAt(g, x, y - 3).phi, -90.0));
    QVERIFY(close(anglesAt(g, x - 2, y - 2).phi, -135.0));
}

void TstMask::energyWavelength() {
    // 12.398419843320026 keV <-> 1 Angstrom (pyFAI's h*c).
    QVERIFY(close(wavelengthFromEnergy(12.398419843320026), 1e-10));
    QVERIFY(close(energyFromWavelength(wavelengthFromEnergy(8.0)), 8.0));
    QVERIFY_THROWS_EXCEPTION(UsageError, wavelengthFromEnergy(0.0));
}

void TstMask::rotationsFollowPyfai() {
    const Geometry flat = saxsGeometry();
    // rot3 turns the detector about the beam: 2theta unchanged, chi shifted by -rot3.
    Geometry turned = flat;
    turned.rot3 = 0.3;
    const PixelAngles a = anglesAt(flat, 70.5, 52.5), b = anglesAt(turned, 70.5, 52.5);
    QVERIFY(close(a.twoTheta, b.twoTheta));
    QVERIFY(close(b.phi, a.phi - 0.3 * 180 / pi));
    // rot1 alone: pyFAI's t2 = p2 cos(rot1) + L sin(rot1), so the direct beam (2theta = 0)
    // hits p1 = 0, p2 = -L tan(rot1).
    Geometry tilted = flat;
    tilted.rot1 = 0.01;
    const double beamX = flat.beamCenterX - flat.distance * std::tan(0.01) / flat.pixelSizeX;
    QVERIFY(anglesAt(tilted, beamX, flat.beamCenterY).twoTheta < 1e-12);
    QVERIFY(anglesAt(tilted, flat.beamCenterX, flat.beamCenterY).twoTheta > 0.009);
    // rot2 alone: t1 = p1 cos(rot2) - L sin(rot2): the beam hits p1 = L tan(rot2).
    Geometry tipped = flat;
    tipped.rot2 = -0.02;
    const double beamY = flat.beamCenterY + flat.distance * std::tan(-0.02) / flat.pixelSizeY;
    QVERIFY(anglesAt(tipped, flat.beamCenterX, beamY).twoTheta < 1e-12);
}

void TstMask::poniRoundTrip() {
    PoniFile poni;
    poni.geometry = {1234.25, 987.5, 0.3456, 75e-6, 55e-6, 0.8e-10, 0.012, -0.034, 0.5};
    poni.detector = "Detector";
    poni.height = 2167;
    poni.width = 2070;
    const QTemporaryDir dir;
    const std::string file = dir.filePath("geometry.poni").toStdString();
    writePoni(file, poni);
    const PoniFile back = readPoni(file);
    const Geometry &a = poni.geometry, &b = back.geometry;
    QVERIFY(close(b.beamCenterX, a.beamCenterX) && close(b.beamCenterY, a.beamCenterY));
    QCOMPARE(b.distance, a.distance);
    QCOMPARE(b.pixelSizeX, a.pixelSizeX);
    QCOMPARE(b.pixelSizeY, a.pixelSizeY);
    QCOMPARE(b.wavelength, a.wavelength);
    QCOMPARE(b.rot1, a.rot1);
    QCOMPARE(b.rot2, a.rot2);
    QCOMPARE(b.rot3, a.rot3);
    QCOMPARE(back.height, poni.height);
    QCOMPARE(back.width, poni.width);
    QVERIFY(formatPoni(poni).find("poni_version: 2\n") != std::string::npos);
}

void TstMask::poniFromPyfai() {
    // As pyFAI writes it (poni_version 2), no rotation: beam centre = poni / pixel size.
    const PoniFile v2 = readPoni(testDataFile("pyfai_v2.poni"));
    QVERIFY(close(v2.geometry.beamCenterY, 0.081 / 7.5e-05));
    QVERIFY(close(v2.geometry.beamCenterX, 0.0765 / 7.5e-05));
    QCOMPARE(v2.geometry.distance, 0.2);
    QCOMPARE(v2.geometry.wavelength, 1.0332e-10);
    QCOMPARE(v2.height, std::size_t(2167));
    QCOMPARE(v2.width, std::size_t(2070));
    QVERIFY(!v2.geometry.rotated());
    // Version 1 (PixelSize1/2) and 2.1 (orientation 3) read the same.
    const std::string v1 = "PixelSize1: 0.000172\nPixelSize2: 0.000172\nDistance: 1.5\n"
                           "Poni1: 0.0344\nPoni2: 0.0172\nRot1: 0\nRot2: 0\nRot3: 0\n"
                           "Wavelength: 1e-10\n";
    const PoniFile old = parsePoni(v1, "v1");
    QVERIFY(close(old.geometry.beamCenterY, 200.0) && close(old.geometry.beamCenterX, 100.0));
    const std::string v21 = "poni_version: 2.1\nDetector: Detector\nDetector_config: "
                            "{\"pixel1\": 0.0001, \"pixel2\": 0.0002, \"max_shape\": [10, 20], "
                            "\"orientation\": 3}\nDistance: 1\nPoni1: 0.001\nPoni2: 0.002\n"
                            "Rot1: 0\nRot2: 0\nRot3: 0\nWavelength: 2e-10\n";
    const PoniFile newer = parsePoni(v21, "v21");
    QVERIFY(close(newer.geometry.beamCenterX, 10.0) && close(newer.geometry.beamCenterY, 10.0));
    QCOMPARE(newer.geometry.pixelSizeX, 0.0002);
}

void TstMask::poniErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const QString good = "Detector_config: {\"pixel1\": 1e-4, \"pixel2\": 1e-4}\nDistance: 1\n"
                         "Poni1: 0\nPoni2: 0\nRot1: 0\nRot2: 0\nRot3: 0\n";
    QTest::newRow("no wavelength") << good << "missing entry 'wavelength'";
    QTest::newRow("bad number") << good + "Wavelength: one\n"
                                << "not a number";
    QTest::newRow("detector database")
        << "Detector: Eiger2_4M\nDetector_config: {\"orientation\": 3}\nDistance: 1\n"
           "Poni1: 0\nPoni2: 0\nRot1: 0\nRot2: 0\nRot3: 0\nWavelength: 1e-10\n"
        << "must give pixel1 and pixel2";
    QTest::newRow("orientation") << QString(good).replace("1e-4}", "1e-4, \"orientation\": 2}") +
                                        "Wavelength: 1e-10\n"
                                 << "orientation 2";
    QTest::newRow("negative distance")
        << QString(good).replace("Distance: 1", "Distance: -1") + "Wavelength: 1e-10\n"
        << "distance must be finite and > 0";
    QTest::newRow("version 3") << "poni_version: 3\n" + good << "poni_version 3";
}

void TstMask::poniErrors() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    try {
        parsePoni(text.toStdString(), "bad.poni");
        QFAIL("no error");
    } catch (const InputError& e) {
        const QString message = e.what();
        QVERIFY2(message.startsWith("bad.poni: ") && message.contains(expected),
                 qPrintable(message));
    }
}

void TstMask::seedRingsMatchSynthetic() {
    // The seed's labels floor(r / 10) about the centre of a 201 x 241 image.
    synthetic::XpcsParams p;
    p.model = "seed";
    p.frames = 1;
    const synthetic::XpcsDataset seed = synthetic::generateXpcs(p);
    Geometry g;
    g.beamCenterX = 241 / 2.0;
    g.beamCenterY = 201 / 2.0;
    const std::int32_t maxLabel = seed.labels.bins().back();
    const Partition part = makePartition(g, seedRings(10.0, maxLabel), 201, 241);
    QCOMPARE(part.labels.height, seed.labels.height);
    QVERIFY(part.labels.labels == seed.labels.labels);
    QCOMPARE(part.centers.labelIds.size(), std::size_t(maxLabel));
}

void TstMask::linearQBins() {
    const Geometry g = saxsGeometry();
    const PixelQMap map = computeQMap(g, 80, 100);
    PartitionSpec spec;
    spec.min = 0.02;
    spec.max = 0.25;
    spec.bins = 7;
    const Partition part = makePartition(g, map, spec);
    const double width = (spec.max - spec.min) / spec.bins;
    std::vector<std::int64_t> expectedCounts(spec.bins + 1, 0);
    for (std::size_t i = 0; i < map.q.size(); ++i) {
        const double q = map.q[i];
        const std::int32_t label = part.labels.labels[i];
        if (q < spec.min || q >= spec.max) {
            QCOMPARE(label, 0);
            continue;
        }
        // q lies in [min + (L-1) w, min + L w), up to rounding at the edges.
        QVERIFY(q >= spec.min + (label - 1) * width - 1e-12 &&
                q < spec.min + label * width + 1e-12);
        ++expectedCounts[label];
    }
    const auto counts = countLabels(part.labels, spec.bins);
    for (int l = 1; l <= spec.bins; ++l)
        QCOMPARE(counts[l], expectedCounts[l]);
    for (int k = 0; k < spec.bins; ++k) {
        QCOMPARE(part.centers.labelIds[k], k + 1);
        QVERIFY(close(part.centers.q[k], spec.min + (k + 0.5) * width));
        QVERIFY(std::isnan(part.centers.phi[k])); // full rings
    }
}

void TstMask::logarithmicBins() {
    const Geometry g = saxsGeometry();
    const PixelQMap map = computeQMap(g, 80, 100);
    PartitionSpec spec;
    spec.spacing = BinSpacing::Logarithmic;
    spec.min = 0.01;
    spec.max = 0.3;
    spec.bins = 5;
    const std::vector<double> edges = binEdges(spec);
    const double ratio = std::pow(spec.max / spec.min, 1.0 / spec.bins);
    for (int k = 0; k < spec.bins; ++k)
        QVERIFY(close(edges[k + 1] / edges[k], ratio));
    const Partition part = makePartition(g, map, spec);
    for (std::size_t i = 0; i < map.q.size(); ++i) {
        const std::int32_t label = part.labels.labels[i];
        if (label == 0)
            QVERIFY(map.q[i] < spec.min || map.q[i] >= spec.max);
        else
            QVERIFY(map.q[i] >= edges[label - 1] && map.q[i] < edges[label]);
    }
    for (int k = 0; k < spec.bins; ++k)
        QVERIFY(close(part.centers.q[k], spec.min * std::pow(ratio, k + 0.5)));
    const auto counts = countLabels(part.labels, spec.bins);
    for (int l = 1; l <= spec.bins; ++l)
        QVERIFY(counts[l] > 0);
}

void TstMask::sectors() {
    // A square image with the beam in its middle: sectors of a ring are mirror images.
    Geometry g = saxsGeometry();
    g.beamCenterX = g.beamCenterY = 10.0;
    PartitionSpec spec;
    spec.axis = BinAxis::Radius;
    spec.min = 2.0;
    spec.max = 10.0;
    spec.bins = 2;
    spec.sectors = 4;
    spec.phi0 = 0.0;
    const Partition part = makePartition(g, spec, 20, 20);
    const auto counts = countLabels(part.labels, 8);
    for (int ring = 0; ring < 2; ++ring)
        for (int s = 1; s < 4; ++s)
            QCOMPARE(counts[ring * 4 + s + 1], counts[ring * 4 + 1]);
    // Pixel (row 12, col 13): centre (13.5, 12.5) is at r = 4.3, phi = 35.5 deg: ring 0, sector 0.
    QCOMPARE(part.labels.labels[12 * 20 + 13], 1);
    // Pixel (row 4, col 3): r = 8.5, phi = -140 deg: ring 1, sector 2 ([180, 270)).
    QCOMPARE(part.labels.labels[4 * 20 + 3], 1 * 4 + 2 + 1);
    const std::vector<double> phiCenters = {45.0, 135.0, -135.0, -45.0};
    for (int s = 0; s < 4; ++s)
        QVERIFY(close(part.centers.phi[s], phiCenters[s]));
    // phi0 = -45: sector 0 is [-45, 45), holding the +x axis.
    spec.phi0 = -45.0;
    const Partition turned = makePartition(g, spec, 20, 20);
    QCOMPARE(turned.labels.labels[10 * 20 + 14], 1); // centre (14.5, 10.5): phi 6.3 deg
    QVERIFY(close(turned.centers.phi[0], 0.0));
}

void TstMask::radiusBinCenters() {
    const Geometry g = saxsGeometry();
    PartitionSpec spec;
    spec.axis = BinAxis::Radius;
    spec.min = 0.0;
    spec.max = 30.0;
    spec.bins = 3;
    const Partition part = makePartition(g, spec, 80, 100);
    for (int k = 0; k < 3; ++k) {
        const double r = (k + 0.5) * 10.0; // pixels
        QVERIFY(close(part.centers.q[k], handQ(r * g.pixelSizeX, g.distance, g.wavelength)));
    }
}

void TstMask::pixelMaskRemovesLabels() {
    const Geometry g = saxsGeometry();
    const Partition part = makePartition(g, seedRings(5.0, 6), 80, 100);
    PixelMask bad{80, 100, std::vector<std::uint8_t>(8000, 0)};
    for (std::size_t i = 0; i < bad.bad.size(); i += 7)
        bad.bad[i] = (i % 2) ? 1 : 255;
    const LabelMask combined = applyPixelMask(part.labels, bad);
    for (std::size_t i = 0; i < bad.bad.size(); ++i)
        QCOMPARE(combined.labels[i], bad.bad[i] ? 0 : part.labels.labels[i]);
    PixelMask wrong{80, 99, std::vector<std::uint8_t>(80 * 99, 0)};
    QVERIFY_THROWS_EXCEPTION(InputError, applyPixelMask(part.labels, wrong));
}

void TstMask::labelStatsCounts() {
    const Geometry g = saxsGeometry();
    const PixelQMap map = computeQMap(g, 80, 100);
    PartitionSpec spec;
    spec.min = 0.0;
    spec.max = 0.2;
    spec.bins = 4;
    const Partition part = makePartition(g, map, spec);
    const auto counts = countLabels(part.labels, 4);
    const std::vector<LabelStats> stats = labelStats(part.labels, &map);
    QCOMPARE(stats.size(), std::size_t(4));
    for (const LabelStats& s : stats) {
        QCOMPARE(s.pixels, counts[s.label]);
        QVERIFY(s.qMin <= s.qMean && s.qMean <= s.qMax);
        QVERIFY(s.qMin >= (s.label - 1) * 0.05 && s.qMax < s.label * 0.05);
    }
    QVERIFY(std::isnan(labelStats(part.labels, nullptr)[0].qMean));
}

void TstMask::badPartitionSpecs() {
    const Geometry g = saxsGeometry();
    PartitionSpec spec;
    spec.min = 0.1;
    spec.max = 0.1;
    QVERIFY_THROWS_EXCEPTION(UsageError, makePartition(g, spec, 4, 4));
    spec.max = 0.2;
    spec.bins = 0;
    QVERIFY_THROWS_EXCEPTION(UsageError, makePartition(g, spec, 4, 4));
    spec.bins = 3;
    spec.spacing = BinSpacing::Logarithmic;
    spec.min = 0.0;
    QVERIFY_THROWS_EXCEPTION(UsageError, makePartition(g, spec, 4, 4));
    Geometry noWavelength = g;
    noWavelength.wavelength = 0.0;
    QVERIFY_THROWS_EXCEPTION(UsageError, computeQMap(noWavelength, 4, 4));
}
