// clscope-cli spots as scripts use it ($CLSCOPE_CLI through QProcess): exit codes 0/2/3/4, the
// DESIGN.md §3 layout read back with H5Reader and checked against the in-process reference,
// the default variant per threshold algorithm, --params from an output's `parameters`
// attribute, --phil, --debug, --expt (DIALS' per-image analysis), and bad input: one clear line and
// no output file.
#include "core/azint/expt.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "core/spots/per_image.hpp"
#include "core/spots/spots.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "test_util.hpp"

#include <QProcess>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

using namespace clscope;

namespace {

using Run = clscope::test::CliRun;
Run cli(const QStringList& args) {
    return clscope::test::runCli(args);
}

constexpr std::size_t T = 2, H = 45, W = 77; // not multiples of any work-group size

// Poisson background, bright blobs (one on an edge, one beside the masked block), a masked
// block and an EIGER sentinel.
spots::Input makeInput() {
    std::mt19937 rng(7);
    std::poisson_distribution<int> background(2.0);
    std::vector<std::uint16_t> v(T * H * W);
    for (auto& x : v)
        x = static_cast<std::uint16_t>(background(rng));
    const int blobs[][3] = {{0, 10, 0}, {0, 30, 20}, {0, 60, 12}, {1, 40, 30}, {1, 76, 44}};
    for (const auto& b : blobs)
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) {
                const int x = b[1] + dx, y = b[2] + dy;
                if (x < 0 || y < 0 || x >= int(W) || y >= int(H)) continue;
                v[(b[0] * H + y) * W + x] += static_cast<std::uint16_t>(200 >> (dx * dx + dy * dy));
            }
    v[5 * W + 5] = 65535;
    spots::Input in;
    in.frames = makeArray<std::uint16_t>({T, H, W}, v);
    in.mask = PixelMask{H, W, std::vector<std::uint8_t>(H * W, 0)};
    for (std::size_t y = 20; y < 24; ++y)
        for (std::size_t x = 24; x < 29; ++x)
            in.mask.bad[y * W + x] = 1;
    return in;
}

void writeInput(const std::string& file, const spots::Input& in) {
    H5Writer out(file);
    out.write(paths::frames, in.frames);
    out.write(paths::pixelMask, makeArray<std::uint8_t>({H, W}, in.mask.bad));
    out.commit();
}

// A DIALS experiment list of a width x height detector of 75 µm pixels at 20 mm, 1 Å.
std::string exptText(std::size_t width, std::size_t height) {
    return R"({"experiment": [{"beam": 0, "detector": 0}],
        "beam": [{"direction": [0, 0, 1], "wavelength": 1.0}],
        "detector": [{"panels": [{"fast_axis": [1, 0, 0], "slow_axis": [0, -1, 0],
          "origin": [-1.5, 1.7, -20.0], "pixel_size": [0.075, 0.075], "image_size": [)" +
           std::to_string(width) + ", " + std::to_string(height) + "]}]}]}";
}

std::map<std::string, std::string> groupAttributes(const std::string& file) {
    for (const H5Node& n : H5Reader(file).children("/"))
        if (n.name == "spots") return n.attributes;
    return {};
}

std::vector<std::uint8_t> readSignal(const std::string& file) {
    const Array a = H5Reader(file).read("/spots/signal");
    return {a.as<std::uint8_t>().begin(), a.as<std::uint8_t>().end()};
}

} // namespace

class TestSpotsCli : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    spots::Input input;
    QString in;
    QString path(const char* name) { return tmp.filePath(name); }
    std::string spath(const char* name) { return path(name).toStdString(); }

    // A failing run: its exit code, one line on stderr naming `what`, no output file.
    void expectFailure(const QStringList& args, int code, const QString& what) {
        QFile::remove(path("fail.h5"));
        const Run r = cli(QStringList{"spots"} + args + QStringList{"-o", path("fail.h5")});
        QVERIFY2(r.code == code,
                 qPrintable(QString("exit %1, want %2: %3").arg(r.code).arg(code).arg(r.err)));
        QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(what), qPrintable(r.err + " lacks " + what));
        QVERIFY(!QFile::exists(path("fail.h5")));
    }

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        input = makeInput();
        in = path("in.h5");
        writeInput(in.toStdString(), input);
    }

    // The §3 layout with provenance, equal to the in-process reference.
    void layoutMatchesReference() {
        const Run r = cli({"spots", in, "--device", "cpu", "-o", path("cpu.h5")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("spots, cpu on cpu"));
        const spots::Result want = spots::runCpu(input, spots::Params{});
        QVERIFY(!want.spots.empty());
        const H5Reader f(spath("cpu.h5"));
        QCOMPARE(f.info("/spots/signal").shape, (Shape{T, H, W}));
        QCOMPARE(f.info("/spots/signal").typeName, std::string("uint8"));
        QVERIFY(readSignal(spath("cpu.h5")) == want.signal);
        const std::size_t n = want.spots.size();
        for (const char* name : {"frame", "npix"}) {
            QCOMPARE(f.info(std::string("/spots/") + name).shape, (Shape{n}));
            QCOMPARE(f.info(std::string("/spots/") + name).typeName, std::string("int32"));
        }
        for (const char* name : {"x", "y", "intensity"})
            QCOMPARE(f.info(std::string("/spots/") + name).typeName, std::string("float64"));
        QCOMPARE(f.info("/spots/bbox").shape, (Shape{n, 4}));
        const Array x = f.read("/spots/x"), bbox = f.read("/spots/bbox");
        const Array intensity = f.read("/spots/intensity");
        for (std::size_t i = 0; i < n; ++i) {
            const spots::Spot& s = want.spots[i];
            QCOMPARE(x.as<double>()[i], s.x);
            QCOMPARE(intensity.as<double>()[i], s.intensity);
            QCOMPARE(bbox.as<std::int32_t>()[4 * i + 2], s.x1);
        }
        QVERIFY(!f.hasObject("/spots/debug"));
        const auto attrs = groupAttributes(spath("cpu.h5"));
        for (const char* a : {"device", "variant", "parameters", "kernel_ms", "clscope_version"})
            QVERIFY2(attrs.count(a), a);
        QCOMPARE(attrs.at("variant"), std::string("cpu"));
        const auto params = nlohmann::json::parse(attrs.at("parameters"));
        QCOMPARE(params.at("threshold_algorithm").get<std::string>(), std::string("dispersion"));
        QCOMPARE(params.at("input").at("datasets").at("pixel_mask").get<std::string>(),
                 in.toStdString() + ":" + paths::pixelMask);
    }

    // Without --variant: local for dispersion, extended for dispersion_extended; equal to cpu.
    void defaultVariantPerAlgorithm() {
        for (const QString algorithm : {"dispersion", "dispersion_extended"}) {
            const QString variant = algorithm == "dispersion" ? "local" : "extended";
            const Run dev = cli(
                {"spots", in, "--device", "ocl:0", "--algorithm", algorithm, "-o", path("d.h5")});
            QVERIFY2(dev.code == 0, qPrintable(dev.err));
            QCOMPARE(QString::fromStdString(groupAttributes(spath("d.h5")).at("variant")), variant);
            const Run host =
                cli({"spots", in, "--device", "cpu", "--algorithm", algorithm, "-o", path("h.h5")});
            QVERIFY2(host.code == 0, qPrintable(host.err));
            QVERIFY(readSignal(spath("d.h5")) == readSignal(spath("h.h5")));
        }
    }

    // An output's `parameters` attribute as --params reproduces the run.
    void paramsReproduceRun() {
        const Run first =
            cli({"spots", in, "--device", "ocl:0", "--algorithm", "dispersion_extended",
                 "--kernel-size", "2,3", "--sigma-b", "4.5", "--global-threshold", "3",
                 "--min-spot-size", "2", "--gain", "1.5", "-o", path("p1.h5")});
        QVERIFY2(first.code == 0, qPrintable(first.err));
        const std::string parameters = groupAttributes(spath("p1.h5")).at("parameters");
        std::ofstream(spath("p.json")) << parameters;
        const Run again = cli(
            {"spots", in, "--device", "ocl:0", "--params", path("p.json"), "-o", path("p2.h5")});
        QVERIFY2(again.code == 0, qPrintable(again.err));
        const auto attrs = groupAttributes(spath("p2.h5"));
        QCOMPARE(attrs.at("parameters"), parameters);
        QCOMPARE(attrs.at("variant"), std::string("extended"));
        QVERIFY(readSignal(spath("p1.h5")) == readSignal(spath("p2.h5")));
        QCOMPARE(H5Reader(spath("p2.h5")).info("/spots/x").shape,
                 H5Reader(spath("p1.h5")).info("/spots/x").shape);
        // Options on the command line win over --params.
        const Run over = cli({"spots", in, "--device", "cpu", "--params", path("p.json"),
                              "--algorithm", "dispersion", "-o", path("p3.h5")});
        QVERIFY2(over.code == 0, qPrintable(over.err));
        const auto p3 = nlohmann::json::parse(groupAttributes(spath("p3.h5")).at("parameters"));
        QCOMPARE(p3.at("threshold_algorithm").get<std::string>(), std::string("dispersion"));
        QCOMPARE(p3.at("sigma_background").get<double>(), 4.5);
    }

    // --phil writes the DIALS snippet (kernel_size rows first); --debug the debug images.
    void philAndDebug() {
        const Run r =
            cli({"spots", in, "--device", "cpu", "--kernel-size", "2,3", "--global-threshold",
                 "auto", "--phil", path("out.phil"), "--debug", "-o", path("dbg.h5")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile phil(path("out.phil"));
        QVERIFY(phil.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(phil.readAll());
        QVERIFY(text.contains("algorithm = dispersion\n"));
        QVERIFY(text.contains("kernel_size = 3 2\n"));
        QVERIFY(text.contains("global_threshold = Auto\n"));
        const H5Reader f(spath("dbg.h5"));
        for (const char* name :
             {"mean", "variance", "dispersion", "sigma_b", "sigma_s", "global", "final"})
            QCOMPARE(f.info(std::string("/spots/debug/") + name).shape, (Shape{T, H, W}));
        const Array final = f.read("/spots/debug/final");
        QVERIFY(std::equal(final.as<std::uint8_t>().begin(), final.as<std::uint8_t>().end(),
                           readSignal(spath("dbg.h5")).begin()));
    }

    // --expt: /spots/per_image/* (T each, float64) as core computes them from the same spots;
    // without it no per_image group; a detector of another size is bad input.
    void perImageWithExpt() {
        std::ofstream(spath("g.expt")) << exptText(W, H);
        std::ofstream(spath("wide.expt")) << exptText(W + 1, H);
        const Run r =
            cli({"spots", in, "--device", "cpu", "--expt", path("g.expt"), "-o", path("pia.h5")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const spots::PerImageStats want = spots::perImageStats(
            spots::runCpu(input, spots::Params{}), azint::readExpt(spath("g.expt")));
        const H5Reader f(spath("pia.h5"));
        const auto column = [&](const char* name) {
            const std::string at = std::string("/spots/per_image/") + name;
            [&] { QCOMPARE(f.info(at).typeName, std::string("float64")); }();
            const Array a = f.read(at, DType::Float64);
            return std::vector<double>(a.as<double>().begin(), a.as<double>().end());
        };
        const auto total = column("n_spots_total");
        QCOMPARE(total.size(), T);
        for (std::size_t t = 0; t < T; ++t) {
            QCOMPARE(total[t], double(want.nSpotsTotal[t]));
            QCOMPARE(column("n_spots_no_ice")[t], double(want.nSpotsNoIce[t]));
            QCOMPARE(column("n_spots_4A")[t], double(want.nSpots4A[t]));
            QCOMPARE(column("total_intensity")[t], want.totalIntensity[t]);
            QCOMPARE(column("estimated_d_min")[t], want.estimatedDMin[t]);
        }
        QVERIFY(total[0] > 0 && total[1] > 0);
        QVERIFY(!H5Reader(spath("cpu.h5")).hasObject("/spots/per_image"));
        expectFailure({in, "--device", "cpu", "--expt", path("wide.expt")}, 3, "wide.expt");
        expectFailure({in, "--device", "cpu", "--expt", path("none.expt")}, 3, "none.expt");
    }

    // --layout dials on a generated diffraction run: DIALS' reflection table, loaded by DIALS
    // (tests/check_dials_table.py: every column against clscope's own layout of the run);
    // that check skips without python3-dials.
    void dialsLayout() {
        const QString d = path("d.h5"), own = path("d_own.h5"), refl = path("strong.refl");
        QCOMPARE(cli({"generate", "diffraction", "-o", d, "--frames", "4", "--height", "64",
                      "--width", "80", "--spots", "5"})
                     .code,
                 0);
        QCOMPARE(cli({"spots", d, "--device", "cpu", "-o", own}).code, 0);
        const Run r = cli({"spots", d, "--device", "cpu", "--layout", "dials", "-o", refl});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile file(refl);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("dials::af::reflection_table"));
        const QString python = qEnvironmentVariable("CLSCOPE_PYTHON");
        if (python.isEmpty()) QSKIP("no python3");
        const auto check = test::runProgram(
            python, {QString(CLSCOPE_CHECK_DIALS_TABLE), refl, own, d}, {}, 120000);
        if (check.code == 77) QSKIP("python3-dials not available");
        QVERIFY2(check.code == 0 && check.out.contains("dials table ok"),
                 qPrintable(check.out + check.err));
    }

    // --layout dials on one (H,W) image (no frames) and another algorithm's layout: usage
    // errors naming what is missing, nothing written.
    void dialsLayoutUsageErrors() {
        const std::string image = spath("image.h5");
        {
            H5Writer out(image);
            const auto frames = input.frames.as<std::uint16_t>();
            out.write(paths::frames, makeArray<std::uint16_t>(
                                         {H, W}, std::vector<std::uint16_t>(
                                                     frames.begin(), frames.begin() + H * W)));
            out.commit();
        }
        expectFailure({QString::fromStdString(image), "--device", "cpu", "--layout", "dials"}, 2,
                      "lacks frames");
        expectFailure({in, "--device", "cpu", "--layout", "aps"}, 2, "aps");
    }

    void usageErrors() {
        expectFailure({in, "--variant", "nope"}, 2, "no variant 'nope'");
        expectFailure(
            {in, "--device", "ocl:0", "--algorithm", "dispersion_extended", "--variant", "local"},
            2, "use extended");
        expectFailure({in, "--device", "cpu", "--variant", "sat"}, 2, "ocl:N");
        expectFailure({in, "--algorithm", "dispersion_fancy"}, 2, "dispersion_fancy");
        expectFailure({in, "--global-threshold", "high"}, 2, "global_threshold");
        expectFailure({in, "--kernel-size", "3"}, 2, "kernel_size");
        expectFailure({in, "--sigma-b", "-1"}, 2, "sigma_background");
        expectFailure({in, "--params", path("missing.json")}, 2, "missing.json");
        QCOMPARE(cli({"spots", in}).code, 2); // -o is required
    }

    void badInput() {
        expectFailure({path("none.h5")}, 3, "none.h5");
        expectFailure({in, "--data", "/entry/nothing"}, 3, "/entry/nothing");
        // A mask of another shape, and a 1-D "frames" dataset.
        H5Writer other(spath("other.h5"));
        other.write("/mask",
                    makeArray<std::uint8_t>({H + 1, W}, std::vector<std::uint8_t>((H + 1) * W, 0)));
        other.write("/line", makeArray<std::uint16_t>({W}, std::vector<std::uint16_t>(W, 1)));
        other.commit();
        expectFailure({in, "--mask", path("other.h5") + ":/mask"}, 3, "/mask");
        expectFailure({path("other.h5"), "--data", "/line"}, 3, "/line");
    }

    // Through the interface: the default variant follows the threshold algorithm, and a
    // reference on the leading frames (bench stream) is compared as a prefix.
    void interfaceDefaultsAndPrefix() {
        const Algorithm& spots = AlgorithmRegistry::instance().find("spots");
        const auto& devices = openclDevices();
        if (devices.empty()) QSKIP("no OpenCL device");
        ParamSet params = spots.defaultParams();
        const auto whole = spots.read(InputSources{in.toStdString(), {}, {}}, params);
        QCOMPARE(spots.defaultVariant(devices.front(), whole.get(), &params), std::string("local"));
        params.set("threshold_algorithm", "dispersion_extended");
        QCOMPARE(spots.defaultVariant(devices.front(), whole.get(), &params),
                 std::string("extended"));
        QCOMPARE(spots.defaultVariant(hostDevice(), whole.get(), &params), std::string("cpu"));
        spots::Input first = input;
        first.frames = H5Reader(in.toStdString()).readSlab(paths::frames, 0, 1);
        writeInput(spath("first.h5"), first);
        const auto leading = spots.read(InputSources{spath("first.h5"), {}, {}}, params);
        const auto got = runAlgorithm(spots, RunRequest{devices.front(), "", whole, params, {}});
        QCOMPARE(got->info.variant, std::string("extended"));
        const auto ref = runAlgorithm(spots, RunRequest{hostDevice(), "cpu", leading, params, {}});
        const Deviation d = spots.compare(*got, *ref);
        QVERIFY2(d.pass, d.note.c_str());
        QCOMPARE(d.compared, H * W);
        QCOMPARE(d.note, std::string("checked on the first 1 of 2 frames"));
    }

    // Several devices: frame ranges joined identical to one device (auto threshold and debug
    // images included) under --split always; --3d cannot split (exit 2), and without --split
    // always runs whole on the first device.
    void severalDevices() {
        const QStringList common{"spots", in, "--global-threshold", "auto", "--debug"};
        const Run one = cli(common + QStringList{"--device", "cpu", "-o", path("one.h5")});
        QVERIFY2(one.code == 0, qPrintable(one.err));
        const Run three = cli(common + QStringList{"--device", "cpu,cpu,cpu", "--split", "always",
                                                   "-o", path("three.h5")});
        QVERIFY2(three.code == 0, qPrintable(three.err));
        const H5Reader a(spath("one.h5")), b(spath("three.h5"));
        for (const char* name : {"signal", "frame", "x", "y", "npix", "intensity", "bbox",
                                 "debug/mean", "debug/final"}) {
            const std::string ds = std::string("/spots/") + name;
            const Array x = a.read(ds), y = b.read(ds);
            QVERIFY2(x.shape() == y.shape() &&
                         std::memcmp(x.bytes(), y.bytes(), x.size() * dtypeSize(x.dtype())) == 0,
                     name);
        }
        QCOMPARE(groupAttributes(spath("three.h5")).at("device"), std::string("cpu,cpu,cpu"));
        expectFailure({in, "--device", "cpu,cpu", "--split", "always", "--3d"}, 2, "cannot split");
        // Without --split always, a run that cannot split (or would not gain) goes whole.
        const Run whole =
            cli(QStringList{"spots", in, "--device", "cpu,cpu", "--3d", "-o", path("whole3d.h5")});
        QVERIFY2(whole.code == 0, qPrintable(whole.err));
        QCOMPARE(groupAttributes(spath("whole3d.h5")).at("device"), std::string("cpu"));
    }

    void deviceError() { expectFailure({in, "--device", "ocl:99"}, 4, "ocl:99"); }
};

QTEST_GUILESS_MAIN(TestSpotsCli)
#include "tst_spots_cli.moc"
