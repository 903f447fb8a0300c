// The algorithm interface: parameters, comparisons, and the toy algorithm of the tests
// (tests/toy/) registered with one line, run through the CLI plumbing and the bench loop with no
// other edit.
#include "app/cli/commands.hpp"
#include "core/errors.hpp"
#include "core/xpcs/multitau.hpp"
#include "core/xpcs/synthetic.hpp"
#include "gpu/bench.hpp"
#include "gpu/facets/split_facet.hpp"
#include "gpu/facets/typed_run.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/spots/run_types.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "test_util.hpp"
#include "toy/algorithm.hpp"

#include <fstream>
#include <random>

using namespace clscope;

namespace {

int cliRun(std::vector<std::string> args) {
    args.insert(args.begin(), "clscope-cli");
    std::vector<const char*> argv;
    for (const std::string& a : args)
        argv.push_back(a.c_str());
    return cli::run(static_cast<int>(argv.size()), argv.data());
}

// A (5,4,3) uint16 stack with known frame sums.
void writeFrames(const std::string& file) {
    Array a(DType::UInt16, {5, 4, 3});
    auto v = a.as<std::uint16_t>();
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<std::uint16_t>(i * 1000 % 65521);
    H5Writer out(file);
    out.write("/entry/data/data", a);
    out.commit();
}

double frameSum(std::size_t t) {
    double total = 0;
    for (std::size_t i = t * 12; i < t * 12 + 12; ++i)
        total += static_cast<double>(i * 1000 % 65521);
    return total;
}

} // namespace

class TestAlgorithm : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    std::string path(const char* name) { return tmp.filePath(name).toStdString(); }

  private slots:
    void initTestCase() {
        // The toy's one registration line puts it beside the real ones.
        toy::registerForTests();
        QCOMPARE(AlgorithmRegistry::instance().find("toy").label(), toy::FrameSums().label());
    }

    void paramsDefaultsRangesAndJson() {
        ParamSet p = toy::FrameSums().defaultParams();
        QCOMPARE(p.number("scale"), 1.0);
        EXPECT_ERROR(UsageError, p.set("scale", -1), "scale", ">= 0");
        EXPECT_ERROR(UsageError, p.set("fault", "boom"), "fault", "none, nan, off");
        EXPECT_ERROR(UsageError, p.set("nope", 1), "unknown parameter 'nope'", "scale");
        p.set("scale", 2.5);
        ParamSet back = toy::FrameSums().defaultParams();
        back.merge(nlohmann::json::parse(p.dump()), "test");
        QCOMPARE(back.values(), p.values());
        // An output's parameters attribute (with its provenance) loads as --params.
        back.merge({{"scale", 3}, {"input", {{"file", "x.h5"}}}}, "attr");
        QCOMPARE(back.number("scale"), 3.0);
    }

    void paramText() {
        const ParamSpec list = makeParam("twotime", ParamSpec::Type::IntList, nullptr, "");
        QCOMPARE(parseParamText(list, "1,5,7"), nlohmann::json({1, 5, 7}));
        EXPECT_ERROR(UsageError, parseParamText(list, "1,x"), "twotime");
        ParamSpec d = makeParam("sigma", ParamSpec::Type::Double, nullptr, "");
        d.flag = "--sigma";
        EXPECT_ERROR(UsageError, parseParamText(d, "2s"), "--sigma 2s");
    }

    void compareNanRules() {
        const double nan = std::nan("");
        const std::vector<double> ref{1, nan, 3, 4}, same{1, nan, 3, 4}, allNan{nan, nan, nan, nan},
            off{1, nan, 3.5, 4};
        QVERIFY(compareValues("m", same.data(), ref.data(), 4, 0, true).pass);
        const Deviation n = compareValues("m", allNan.data(), ref.data(), 4, 1e-9, true);
        QVERIFY(!n.pass);
        QCOMPARE(n.beyond, std::size_t{3});
        QCOMPARE(n.firstIndex, 0LL);
        QVERIFY(std::isinf(n.maxDeviation));
        const Deviation o = compareValues("m", off.data(), ref.data(), 4, 1e-9, true);
        QCOMPARE(o.firstIndex, 2LL);
        QCOMPARE(o.maxDeviation, 0.5 / 3);
        const std::vector<double> numberVsNan{1, 2, 3, 4};
        QVERIFY(!compareValues("m", numberVsNan.data(), ref.data(), 4, 1e-9, true).pass);
    }

    void toyThroughTheCli() {
        writeFrames(path("in.h5"));
        for (const char* device : {"cpu", "ocl:0"}) {
            QCOMPARE(cliRun({"toy", path("in.h5"), "--device", device, "--scale", "2", "-o",
                             path("out.h5")}),
                     0);
            const H5Reader out(path("out.h5"));
            const Array sums = out.read("/toy/sums", DType::Float64);
            QCOMPARE(sums.size(), std::size_t{5});
            for (std::size_t t = 0; t < 5; ++t)
                QCOMPARE(sums.as<double>()[t], 2 * frameSum(t));
            const auto params = nlohmann::json::parse(*out.stringAttribute("/toy", "parameters"));
            QCOMPARE(params["scale"].get<double>(), 2.0);
            QCOMPARE(params["input"]["datasets"]["frames"].get<std::string>(),
                     path("in.h5") + ":/entry/data/data");
            QCOMPARE(*out.stringAttribute("/toy", "device"), std::string(device));
        }
    }

    void toyCliParamsFileAndCommandLineWins() {
        writeFrames(path("in.h5"));
        std::ofstream(path("p.json")) << R"({"scale": 3})";
        QCOMPARE(cliRun({"toy", path("in.h5"), "--device", "cpu", "--params", path("p.json"), "-o",
                         path("a.h5")}),
                 0);
        QCOMPARE(H5Reader(path("a.h5")).read("/toy/sums", DType::Float64).as<double>()[1],
                 3 * frameSum(1));
        QCOMPARE(cliRun({"toy", path("in.h5"), "--device", "cpu", "--params", path("p.json"),
                         "--scale", "4", "-o", path("b.h5")}),
                 0);
        QCOMPARE(H5Reader(path("b.h5")).read("/toy/sums", DType::Float64).as<double>()[1],
                 4 * frameSum(1));
    }

    void toyCliErrors() {
        writeFrames(path("in.h5"));
        const std::string out = path("never.h5");
        QCOMPARE(cliRun({"toy", path("in.h5"), "--variant", "nope", "-o", out}), int(ExitUsage));
        QCOMPARE(cliRun({"toy", path("in.h5"), "--scale", "-1", "-o", out}), int(ExitUsage));
        QCOMPARE(cliRun({"toy", path("in.h5"), "--scale", "two", "-o", out}), int(ExitUsage));
        QCOMPARE(cliRun({"toy", path("missing.h5"), "--device", "cpu", "-o", out}), int(ExitInput));
        QCOMPARE(cliRun({"toy", path("in.h5"), "--data", "/nope", "--device", "cpu", "-o", out}),
                 int(ExitInput));
        QCOMPARE(cliRun({"toy", path("in.h5"), "--device", "ocl:99", "-o", out}), int(ExitDevice));
        QCOMPARE(cliRun({"toy", path("in.h5"), "--device", "cpu", "--variant", "ocl", "-o", out}),
                 int(ExitUsage));
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
        // The output may not replace the input.
        QCOMPARE(cliRun({"toy", path("in.h5"), "--device", "cpu", "-o", path("in.h5")}),
                 int(ExitUsage));
        QVERIFY(H5Reader(path("in.h5")).hasDataset("/entry/data/data"));
    }

    void toyThroughTheBenchLoop() {
        const Algorithm& toy = AlgorithmRegistry::instance().find("toy");
        BenchOptions o;
        o.repeat = 2;
        const auto rows = benchAlgorithm(toy, {hostDevice(), resolveDevice("ocl:0")}, o);
        QCOMPARE(rows.size(), std::size_t{4}); // 2 variants x 2 devices, two of them not runnable
        int ran = 0;
        for (const BenchRow& r : rows) {
            if (!r.ran) {
                QVERIFY(!r.note.empty());
                continue;
            }
            ++ran;
            QVERIFY(r.checked);
            QVERIFY2(r.deviation.pass, r.deviation.metric.c_str());
            QVERIFY(r.throughput > 0 || r.variant == "cpu");
        }
        QCOMPARE(ran, 2);
        o.variants = {"nope"};
        EXPECT_ERROR(UsageError, benchAlgorithm(toy, {hostDevice()}, o), "nope", "ocl, cpu");
    }

    void toyFaultsFailTheComparison() {
        const Algorithm& toy = AlgorithmRegistry::instance().find("toy");
        BenchCase c = toy.benchCase("seed");
        const auto reference = runAlgorithm(toy, {hostDevice(), "cpu", c.input, c.params, {}});
        for (const char* fault : {"nan", "off"}) {
            ParamSet p = c.params;
            p.set("fault", fault);
            const auto got = runAlgorithm(toy, {resolveDevice("ocl:0"), "ocl", c.input, p, {}});
            const Deviation d = toy.compare(*got, *reference);
            QVERIFY(!d.pass);
            QCOMPARE(d.firstIndex, std::string(fault) == "nan" ? 0LL : 3LL);
            QVERIFY(!d.firstWhere.empty());
        }
    }

    void kernelTimeIsAField() {
        const Algorithm& toy = AlgorithmRegistry::instance().find("toy");
        BenchCase c = toy.benchCase("seed");
        const auto r = runAlgorithm(toy, {resolveDevice("ocl:0"), "", c.input, c.params, {}});
        QCOMPARE(r->info.variant, std::string("ocl")); // the device's preferred
        bool kernel = false, copy = false;
        for (const TimingRecord& t : r->info.timings) {
            if (t.label == "toy kernel") kernel = t.kernel;
            if (t.label == "copy H->D frames") copy = !t.kernel;
        }
        QVERIFY(kernel && copy);
        QVERIFY(r->info.wallMs >= r->info.kernelMs);
    }

    void xpcsSplitOverDevicesEqualsOneDevice() {
        synthetic::XpcsParams sp;
        sp.frames = 40, sp.height = 40, sp.width = 44, sp.ringWidth = 4;
        const synthetic::XpcsDataset d = synthetic::generateXpcs(sp);
        const Algorithm& xpcs = AlgorithmRegistry::instance().find("xpcs");
        ParamSet p = xpcs.defaultParams();
        p.set("twotime", {2, 5});
        RunRequest r{hostDevice(),     "", xpcs::makeInput(d.frames, d.labels), p, {}, {},
                     SplitRule::Always};
        const auto one = runAlgorithm(xpcs, r);
        for (const char* spec : {"cpu,cpu,cpu", "ocl:0,ocl:0"}) {
            const auto devices = resolveDevices(spec);
            r.variant = devices.front().isHost() ? "cpu" : "gemm";
            const auto several = runOnDevices(xpcs, r, devices);
            const auto& a = dynamic_cast<const xpcs::XpcsResult&>(*several).result;
            const auto& b = dynamic_cast<const xpcs::XpcsResult&>(*one).result;
            QCOMPARE(a.labels, b.labels);
            QCOMPARE(a.pixels, b.pixels);
            QVERIFY(xpcs.compare(*several, *one).pass);
            QCOMPARE(a.twotime.size(), std::size_t{2});
            QCOMPARE(a.twotime.at(5), b.twotime.at(5));
            QCOMPARE(several->info.device, std::string(spec));
        }
        // multitau splits by pixels where the upload it shares out pays (tst_xpcs_multitau:
        // splitByPixels); this small run goes whole on the first device, and says why.
        const auto pocl = resolveDevices("ocl:0,ocl:0");
        p.set("twotime", nlohmann::json::array()), p.set("multitau", true);
        const RunRequest mt{pocl.front(), "multitau", xpcs::makeInput(d.frames, d.labels), p, {}};
        const auto notSplit = runOnDevices(xpcs, mt, pocl);
        QCOMPARE(notSplit->info.device, std::string("ocl:0"));
        QVERIFY2(notSplit->info.deviceName.find("whole on ocl:0: a split would save") !=
                     std::string::npos,
                 notSplit->info.deviceName.c_str());
        QVERIFY(xpcs.compare(*notSplit, *runAlgorithm(xpcs, mt)).pass);
        // The toy splits its frames too (its own facet): two parts give the whole run's sums.
        const Algorithm& toy = AlgorithmRegistry::instance().find("toy");
        BenchCase c = toy.benchCase("seed");
        const auto whole = runAlgorithm(toy, {hostDevice(), "cpu", c.input, c.params, {}});
        const auto parts =
            runOnDevices(toy, {hostDevice(), "cpu", c.input, c.params, {}, {}, SplitRule::Always},
                         resolveDevices("cpu,cpu"));
        QCOMPARE(dynamic_cast<const toy::FrameSumsResult&>(*parts).sums,
                 dynamic_cast<const toy::FrameSumsResult&>(*whole).sums);
    }

    // Over several devices a run splits only where its declared work saves a second device's
    // cost (DESIGN.md "Several devices"); the small bench cases run whole on the first device
    // and say why, a split by bins shares out no frames, `--split always` splits anyway.
    void splitOnlyWhereItPays() {
        QCOMPARE(splitSavingMs({50e9, 10}, 2), 505.0);
        QCOMPARE(splitSavingMs({0, 30}, 3), 20.0);
        QCOMPARE(splitSavingMs({50e9, 10}, 1), 0.0);
        const AlgorithmRegistry& registry = AlgorithmRegistry::instance();
        const auto saving = [&](const char* id, const char* size) {
            const BenchCase c = registry.find(id).benchCase(size);
            return splitSavingMs(registry.find(id).splitWork(*c.input, c.params), 2);
        };
        // 10^11 Gaussian pairs: ~24 ms of an H100's kernels each device takes off the other.
        QVERIFY2(saving("rbf", "large") >= kSplitPaysMs,
                 qPrintable(QString::number(saving("rbf", "large"))));
        for (auto [id, size] : {std::pair{"rbf", "seed"},
                                {"cluster", "large"},
                                {"cluster", "events"},
                                {"spots", "seed"},
                                {"azint", "seed"},
                                {"xpcs", "seed"}})
            QVERIFY2(saving(id, size) < kSplitPaysMs, id);
        // azint's frame ranges share out every frame's upload (so the stream case, 3.4 GB of
        // frames, splits) and its kernels.
        const Algorithm& azint = registry.find("azint");
        const BenchCase seed = azint.benchCase("seed");
        const SplitWork azintWork = azint.splitWork(*seed.input, seed.params);
        QCOMPARE(azintWork.sharedOutBytes, 8.0 * 512 * 512 * 2);
        QVERIFY(azintWork.kernelMs > 0);
        // Groups of bins: every part reads every frame, so only the kernels are shared out.
        synthetic::XpcsParams sp;
        sp.frames = 40, sp.height = 40, sp.width = 44, sp.ringWidth = 4;
        const synthetic::XpcsDataset d = synthetic::generateXpcs(sp);
        const Algorithm& xpcs = registry.find("xpcs");
        const auto input = xpcs::makeInput(d.frames, d.labels);
        QCOMPARE(xpcs.splitWork(*input, xpcs.defaultParams()).sharedOutBytes, 0.0);
        QVERIFY(xpcs.splitWork(*input, xpcs.defaultParams()).kernelMs > 0);
        // Multi-tau splits by pixels: each device uploads its band, so the frames' bytes are
        // shared out; a long series pays (a million of these 40x44 frames, each device saving
        // half the upload's time at 50 GB/s).
        ParamSet mt = xpcs.defaultParams();
        mt.set("multitau", true);
        QVERIFY(splitSavingMs(xpcs.splitWork(*input, mt, "multitau"), 2) < kSplitPaysMs);
        auto series = std::make_shared<xpcs::XpcsInput>(*input);
        series->blocks = xpcs::blocksRepeating(series->frames, 1000000);
        QVERIFY(splitSavingMs(xpcs.splitWork(*series, mt, "multitau"), 2) >= kSplitPaysMs);
        // Auto: the small run goes whole on the first device, its device name says why.
        RunRequest r{hostDevice(), "cpu", input, xpcs.defaultParams(), {}};
        const auto devices = resolveDevices("cpu,cpu");
        const auto whole = runOnDevices(xpcs, r, devices);
        QCOMPARE(whole->info.device, std::string("cpu"));
        QVERIFY2(whole->info.deviceName.find("(whole on cpu: a split would save ~") !=
                     std::string::npos,
                 whole->info.deviceName.c_str());
        r.split = SplitRule::Always;
        const auto split = runOnDevices(xpcs, r, devices);
        QCOMPARE(split->info.device, std::string("cpu,cpu"));
        QVERIFY(xpcs.compare(*split, *whole).pass);
    }

    // prepare() gives the typed input, the parsed parameters and the resolved variant with its
    // verdict once; roles are looked up by id; facets are found by their interface.
    void preparedRunAndFacets() {
        const auto& xpcs =
            dynamic_cast<const xpcs::Algorithm&>(AlgorithmRegistry::instance().find("xpcs"));
        QCOMPARE(xpcs.role("labels").id, std::string("labels"));
        QVERIFY_THROWS_EXCEPTION(UsageError, xpcs.role("no_such_role"));
        ParamSet p = xpcs.defaultParams();
        p.set("channels", 4);
        const RunRequest r{
            hostDevice(),
            "",
            xpcs::makeInput(Array(DType::UInt16, {8, 3, 2}), LabelMask{3, 2, {1, 1, 0, 2, 0, 3}}),
            p,
            {}};
        const auto prepared = xpcs.prepare(r);
        QVERIFY(prepared->chosen());
        QVERIFY(prepared->verdict().ok);
        QCOMPARE(prepared->request().variant, std::string("cpu")); // the host's one variant
        QCOMPARE(prepared->variant().info.id, std::string("cpu"));
        const auto& typed = runOf<xpcs::Algorithm::Run>(*prepared);
        QCOMPARE(typed.params().channels, 4);
        const AlgorithmInput* held = &typed.input();
        QVERIFY(held == r.input.get()); // the request's input, not a copy
        RunRequest unknown = r;
        unknown.variant = "no_such";
        QVERIFY_THROWS_EXCEPTION(UsageError, xpcs.prepare(unknown));
        QVERIFY(xpcs.facet<SplitFacet>() != nullptr);
        // multi-tau splits by pixels (bands of rows): the split shares out every frame's bytes
        QVERIFY(xpcs.unsplittable("multitau").empty());
        ParamSet mt = r.params;
        mt.set("multitau", true);
        QCOMPARE(xpcs.splitWork(*r.input, mt, "multitau").sharedOutBytes, 8.0 * 6 * 2);
        QCOMPARE(xpcs.splitWork(*r.input, mt, "cpu").sharedOutBytes, 0.0);
        QVERIFY(!AlgorithmRegistry::instance().find("toy").benchSizes().empty());
    }

    // The kernel lab's roofline work (DESIGN.md "Roofline"), counted by hand.
    void declaredWorkOfMultitauAndSpots() {
        const Algorithm& xpcs = AlgorithmRegistry::instance().find("xpcs");
        ParamSet p = xpcs.defaultParams();
        p.set("multitau", true);
        p.set("channels", 4);
        // 8 frames of 3x2 uint16, 4 labelled pixels. Per pixel: level 0 (8 rows, lags 0..3)
        // 8+7+6+5 multiply-adds and 4 adds into level 1; level 1 (4 rows, lags 2, 3) 2+1 and 2
        // adds; level 2 (2 rows) no lag and 1 add; level 3 (1 row) nothing: 2*26+4 + 2*3+2 + 1.
        const auto in =
            xpcs::makeInput(Array(DType::UInt16, {8, 3, 2}), LabelMask{3, 2, {1, 1, 0, 2, 0, 3}});
        const RunWork mt = xpcs.work(*in, p);
        QCOMPARE(mt.operations, 4.0 * (2 * 26 + 4 + 2 * 3 + 2 + 1));
        QCOMPARE(mt.bytes, 8.0 * 6 * 2 + 6 * 4); // frames once, int32 labels once
        // Read block by block (as the bench's series of 16 cycling through these 8 frames): the
        // blocks count. Levels 0..2: 2*(16+15+14+13)+8, 2*(6+5)+4, 2*(2+1)+2; level 3: 1 add.
        auto series =
            xpcs::makeInput(Array(DType::UInt16, {8, 3, 2}), LabelMask{3, 2, {1, 1, 0, 2, 0, 3}});
        series->blocks = xpcs::blocksRepeating(series->frames, 16);
        const RunWork blocks = xpcs.work(*series, p);
        QCOMPARE(blocks.operations, 4.0 * (2 * 58 + 8 + 2 * 11 + 4 + 2 * 3 + 2 + 1));
        QCOMPARE(blocks.bytes, 16.0 * 6 * 2 + 6 * 4);

        const Algorithm& spots = AlgorithmRegistry::instance().find("spots");
        spots::SpotsInput si;
        si.data.frames = Array(DType::UInt16, {2, 4, 5});
        RunWork w = spots.work(si, spots.defaultParams());
        QCOMPARE(w.operations, 28.0 * 40);
        QCOMPARE(w.bytes, 2.0 * 40 + 40); // frames once, a signal byte a pixel and frame
        si.data.mask = PixelMask{4, 5, std::vector<std::uint8_t>(20)};
        QCOMPARE(spots.work(si, spots.defaultParams()).bytes, 2.0 * 40 + 20 + 40);
    }
};

QTEST_GUILESS_MAIN(TestAlgorithm)
#include "tst_algorithm.moc"
