// Results read back from their files (the result reader facets, gpu/facets/result_reader.hpp):
// each algorithm run on a small generated dataset, its result written as clscope-cli writes it,
// read back through Algorithm::readResult and compared with the run's, field by field; a damaged
// result refused naming the dataset.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/azint/run_types.hpp"
#include "gpu/cluster/run_types.hpp"
#include "gpu/command_line.hpp"
#include "gpu/rbf/run_types.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/spots/run_types.hpp"
#include "gpu/xpcs/run_types.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cstring>

using namespace clscope;

namespace {

struct RoundTrip {
    std::shared_ptr<AlgorithmResult> ran, read;
};

// `algorithm`'s first synthetic kind with `options` written, run on the host reference with
// `params`, its result written to OUT.h5 and read back.
RoundTrip roundTrip(const QTemporaryDir& dir, const std::string& id, const nlohmann::json& options,
                    const nlohmann::json& params = nlohmann::json::object()) {
    const Algorithm& a = AlgorithmRegistry::instance().find(id);
    const SyntheticKind kind = a.syntheticKinds().front();
    ParamSet set(kind.specs);
    set.merge(options, "test");
    const std::string in = dir.filePath(QString::fromStdString(id + "_in.h5")).toStdString();
    kind.write(set, 7, Compression::None, in);
    ParamSet p = a.defaultParams();
    p.merge(params, "test");
    InputSources sources;
    sources.file = in;
    RunRequest request{hostDevice(), a.referenceVariant(), a.read(sources, p), p, {}};
    RoundTrip t;
    t.ran = runAlgorithm(a, request);
    const std::string out = dir.filePath(QString::fromStdString(id + "_out.h5")).toStdString();
    H5Writer writer(out);
    t.ran->write(writer, a.outputGroup());
    writer.commit();
    const H5Reader reader(out);
    if (AlgorithmRegistry::instance().resultIn(reader) != &a)
        throw std::runtime_error(id + ": its result file is not recognised as its");
    t.read = a.readResult(reader);
    return t;
}

void compareInfo(const RunInfo& read, const RunInfo& ran) {
    QCOMPARE(read.algorithm, ran.algorithm);
    QCOMPARE(read.variant, ran.variant);
    QCOMPARE(read.device, ran.device);
    QCOMPARE(read.parametersJson, ran.parametersJson);
    QVERIFY(std::abs(read.kernelMs - ran.kernelMs) <= 1e-9 * std::max(ran.kernelMs, 1.0));
}

} // namespace

class TestResultReader : public QObject {
    Q_OBJECT
  private slots:
    void xpcsRoundTrip();
    void spotsRoundTrip();
    void clusterRoundTrip();
    void rbfRoundTrip();
    void azintRoundTrip();
    void storedCommandLine();
    void damagedResultNamesTheDataset();

  private:
    QTemporaryDir dir_;
};

void TestResultReader::xpcsRoundTrip() {
    const auto t = roundTrip(dir_, "xpcs", {{"frames", 40}, {"height", 24}, {"width", 28}},
                             {{"fit", "single"}, {"twotime", {1}}});
    const auto& ran = dynamic_cast<const xpcs::XpcsResult&>(*t.ran);
    const auto& read = dynamic_cast<const xpcs::XpcsResult&>(*t.read);
    compareInfo(read.info, ran.info);
    const xpcs::Result &a = read.result, &b = ran.result;
    QCOMPARE(a.labels, b.labels);
    QCOMPARE(a.pixels, b.pixels);
    QCOMPARE(a.tau, b.tau);
    QCOMPARE(a.tauInSeconds, b.tauInSeconds);
    QCOMPARE(a.frames, b.frames);
    QCOMPARE(a.g2, b.g2);
    QCOMPARE(a.g2Err, b.g2Err);
    QCOMPARE(a.twotime, b.twotime);
    QCOMPARE(a.multitau, b.multitau);
    QCOMPARE(a.normalisation, b.normalisation);
    QCOMPARE(read.excludedPixels, ran.excludedPixels);
    QVERIFY(ran.fits && read.fits);
    QCOMPARE(read.fits->gamma, ran.fits->gamma);
    QCOMPARE(read.fits->beta, ran.fits->beta);
    QCOMPARE(read.fits->chiSquaredReduced, ran.fits->chiSquaredReduced);
    QCOMPARE(read.fitOptions->shape, ran.fitOptions->shape);
}

void TestResultReader::spotsRoundTrip() {
    const auto t = roundTrip(dir_, "spots", {{"frames", 3}, {"height", 64}, {"width", 72}});
    const auto& ran = dynamic_cast<const spots::SpotsResult&>(*t.ran);
    const auto& read = dynamic_cast<const spots::SpotsResult&>(*t.read);
    compareInfo(read.info, ran.info);
    QCOMPARE(read.result.shape, ran.result.shape);
    QCOMPARE(read.result.signal, spots::denseSignal(ran.result));
    QCOMPARE(read.result.strongPerFrame, ran.result.strongPerFrame);
    QCOMPARE(read.result.pixels, ran.result.pixels);
    QCOMPARE(read.result.spots.size(), ran.result.spots.size());
    QVERIFY(!ran.result.spots.empty());
    for (std::size_t i = 0; i < ran.result.spots.size(); ++i) {
        const spots::Spot &a = read.result.spots[i], &b = ran.result.spots[i];
        QCOMPARE(a.frame, b.frame);
        QCOMPARE(a.x, b.x);
        QCOMPARE(a.y, b.y);
        QCOMPARE(a.npix, b.npix);
        QCOMPARE(a.intensity, b.intensity);
        QCOMPARE(std::vector<int>({a.x0, a.y0, a.x1, a.y1}),
                 std::vector<int>({b.x0, b.y0, b.x1, b.y1}));
    }
    QCOMPARE(read.summary(), ran.summary());
}

void TestResultReader::clusterRoundTrip() {
    const auto t = roundTrip(dir_, "cluster", {{"modules", 4}});
    const auto& ran = dynamic_cast<const cluster::ClusterResult&>(*t.ran);
    const auto& read = dynamic_cast<const cluster::ClusterResult&>(*t.read);
    compareInfo(read.info, ran.info);
    const cluster::Result &a = read.clusters, &b = ran.clusters;
    QVERIFY(b.count() > 0);
    QCOMPARE(a.id, b.id);
    QCOMPARE(a.module, b.module);
    QCOMPARE(a.size, b.size);
    QCOMPARE(a.sizeX, b.sizeX);
    QCOMPARE(a.sizeY, b.sizeY);
    QCOMPARE(a.charge, b.charge);
    QCOMPARE(a.x, b.x);
    QCOMPARE(a.y, b.y);
    QCOMPARE(read.summary(), ran.summary());
}

void TestResultReader::rbfRoundTrip() {
    const auto t = roundTrip(dir_, "rbf", {{"sources", 50}, {"grid_points", 6}});
    const auto& ran = dynamic_cast<const rbf::RbfResult&>(*t.ran);
    const auto& read = dynamic_cast<const rbf::RbfResult&>(*t.read);
    compareInfo(read.info, ran.info);
    QCOMPARE(read.result.potential, ran.result.potential);
    QCOMPARE(read.result.complex, ran.result.complex);
    QCOMPARE(read.result.kernel, ran.result.kernel);
    QCOMPARE(read.result.sampleCount, ran.result.sampleCount);
    QCOMPARE(read.summary(), ran.summary());
}

// A cake: every (F,M,N) dataset, the bin centres and the unit back; intensities bit for bit
// (NaN where a bin is empty).
void TestResultReader::azintRoundTrip() {
    const auto t = roundTrip(dir_, "azint", {{"frames", 2}, {"height", 30}, {"width", 40}},
                             {{"bins", 25}, {"azimuth_bins", 4}, {"unit", "2th_deg"}});
    const auto& ran = dynamic_cast<const azint::AzintResult&>(*t.ran);
    const auto& read = dynamic_cast<const azint::AzintResult&>(*t.read);
    compareInfo(read.info, ran.info);
    const azint::Result &a = read.result, &b = ran.result;
    QCOMPARE(a.frames, b.frames);
    QVERIFY(a.cake && a.unit == azint::Unit::TwoThetaDeg);
    QCOMPARE(a.radial, b.radial);
    QCOMPARE(a.azimuthal, b.azimuthal);
    QCOMPARE(a.count, b.count);
    QCOMPARE(a.sumSignal, b.sumSignal);
    QCOMPARE(a.sumNormalization, b.sumNormalization);
    QCOMPARE(a.intensity.size(), b.intensity.size());
    QVERIFY(std::memcmp(a.intensity.data(), b.intensity.data(), a.intensity.size() * 8) == 0);
    QVERIFY(std::memcmp(a.error.data(), b.error.data(), a.error.size() * 8) == 0);
    QCOMPARE(read.summary(), ran.summary());
}

// The command line of a stored run names its input file, variant and parameters.
void TestResultReader::storedCommandLine() {
    const auto t =
        roundTrip(dir_, "spots", {{"frames", 2}, {"height", 40}, {"width", 40}}, {{"gain", 2.5}});
    const Algorithm& a = AlgorithmRegistry::instance().find("spots");
    const std::string line = commandLine(storedCommand(a, t.read->info, "OUT.h5:/spots"));
    QVERIFY2(line.find("spots_in.h5") != std::string::npos, line.c_str());
    QVERIFY2(line.find("--variant " + t.ran->info.variant) != std::string::npos, line.c_str());
    QVERIFY2(line.find("--gain 2.5") != std::string::npos, line.c_str());
}

// A result missing a dataset, or with one of the wrong length, is refused naming it.
void TestResultReader::damagedResultNamesTheDataset() {
    const std::string path = dir_.filePath("damaged.h5").toStdString();
    {
        H5Writer out(path);
        out.write("/clusters/id", makeArray<std::int32_t>({3}, {0, 0, 1}));
        out.write("/clusters/module", makeArray<std::int32_t>({2}, {1, 1}));
        out.write("/clusters/size", makeArray<std::int32_t>({3}, {1, 1, 1}));
        out.commit();
    }
    const H5Reader file(path);
    const Algorithm& a = AlgorithmRegistry::instance().find("cluster");
    QCOMPARE(AlgorithmRegistry::instance().resultIn(file), &a);
    try {
        a.readResult(file);
        QFAIL("a damaged result was read");
    } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find("/clusters/size") != std::string::npos, e.what());
    }
}

QTEST_GUILESS_MAIN(TestResultReader)
#include "tst_result_reader.moc"
