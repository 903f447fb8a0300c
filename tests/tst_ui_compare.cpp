// The comparison presenter without widgets, on the toy algorithm (tests/toy): the
// reference runs first on the host, an all-NaN and a wrong variant are shown failed with their
// first index, Cancel in the middle of a batch keeps the finished rows, unsupported cells cannot
// be checked, exports (CSV, HDF5 one group per run) refuse stale rows; xpcs on PoCL and cpu.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "gpu/variant/user_variants.hpp"
#include "toy/algorithm.hpp"
#include "ui/compare/comparison_presenter.hpp"
#include "ui/compare/comparison_row_text.hpp"
#include "ui/jobs/job_runner.hpp"
#include "ui/results/timings_table.hpp"
#include "ui_test_helpers.hpp"

#include <QFile>
#include <QSignalSpy>
#include <QtTest>
#include <chrono>
#include <mutex>
#include <random>
#include <set>
#include <thread>

using namespace clscope;
using namespace clscope::ui;

namespace {

Array toyFrames(std::size_t frames = 12) {
    Array a(DType::UInt16, {frames, 8, 8});
    std::mt19937 rng(3);
    for (auto& v : a.as<std::uint16_t>())
        v = static_cast<std::uint16_t>(rng() % 1000);
    return a;
}

// The toy whose `ocl` variant waits (checking Cancel) for up to 20 s before it runs.
class SlowFrameSums : public toy::FrameSums {
  public:
    std::string id() const override { return "slowsums"; }
    std::shared_ptr<AlgorithmResult> run(const RunRequest& r,
                                         const Progress& progress) const override {
        if (r.variant == "ocl")
            for (int i = 0; i < 200; ++i) {
                progress.report(i / 200.0);
                progress.checkCancel();
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        return toy::FrameSums::run(r, progress);
    }
};

// The toy keeping every result it makes, in order (to see which run a row shows).
class CountingFrameSums : public toy::FrameSums {
  public:
    std::string id() const override { return "countsums"; }
    std::shared_ptr<AlgorithmResult> run(const RunRequest& r,
                                         const Progress& progress) const override {
        auto result = toy::FrameSums::run(r, progress);
        const std::lock_guard lock(mutex_);
        made_.push_back(result);
        return result;
    }
    std::vector<std::shared_ptr<const AlgorithmResult>> made() const {
        const std::lock_guard lock(mutex_);
        return made_;
    }

  private:
    mutable std::mutex mutex_;
    mutable std::vector<std::shared_ptr<const AlgorithmResult>> made_;
};

std::size_t indexOf(const std::vector<VariantEntry>& variants, const std::string& id) {
    for (std::size_t i = 0; i < variants.size(); ++i)
        if (variants[i].info.id == id) return i;
    return variants.size();
}

std::optional<std::size_t> openclDevice(const ComparisonPresenter& p) {
    for (std::size_t d = 0; d < p.devices().size(); ++d)
        if (!p.devices()[d].isHost()) return d;
    return std::nullopt;
}

// Run and wait for the presenter's finished(); returns whether every cell ran.
bool runAndWait(ComparisonPresenter& p, JobRunner& runner) {
    QSignalSpy finished(&p, &ComparisonPresenter::finished);
    if (!p.run(runner)) return false;
    if (!finished.wait(60000)) return false;
    return finished.front().front().toBool();
}

} // namespace

class TestUiCompare : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<CountingFrameSums> counting_ = std::make_shared<CountingFrameSums>();

  private slots:
    void initTestCase() {
        toy::registerForTests();
        AlgorithmRegistry::instance().add(std::make_shared<SlowFrameSums>());
        AlgorithmRegistry::instance().add(counting_);
    }

    // Issue 23, defect 5: a cell's times are not those of its first run (which pays kernel
    // builds): an untimed warm-up runs first, the row shows the second run and the setup apart.
    void warmUpRunIsNotTimed() {
        ComparisonPresenter p("countsums");
        p.setInput(toy::makeFrameSumsInput(toyFrames()), p.algorithm().defaultParams());
        QVERIFY(p.setChecked(indexOf(p.variants(), "cpu"), p.hostDevice(), true));
        JobRunner runner;
        QVERIFY(runAndWait(p, runner));
        QCOMPARE(p.rows().size(), std::size_t(1));
        const auto made = counting_->made();
        QCOMPARE(made.size(), std::size_t(2)); // warm-up, timed
        const ComparisonRow& row = p.rows()[0];
        QVERIFY(row.result == made[1]);
        QCOMPARE(row.wallMs, made[1]->info.wallMs);
        QCOMPARE(row.setupMs, std::max(0.0, made[0]->info.wallMs - made[1]->info.wallMs));
        QVERIFY(p.csv().rfind("variant,device,kernel_ms,wall_ms,setup_ms,", 0) == 0);
    }

    void unsupportedCellCannotBeChecked() {
        ComparisonPresenter p("toy");
        const std::size_t cpu = indexOf(p.variants(), "cpu"), ocl = indexOf(p.variants(), "ocl");
        const std::size_t host = p.hostDevice();
        QVERIFY(p.support(cpu, host).ok);
        QVERIFY(!p.support(ocl, host).ok);
        QVERIFY(!p.support(ocl, host).reason.empty());
        QVERIFY(!p.setChecked(ocl, host, true));
        QVERIFY(!p.isChecked(ocl, host));
        p.checkAllSupported();
        QVERIFY(p.isChecked(cpu, host));
        QVERIFY(!p.isChecked(ocl, host));
        QVERIFY_THROWS_EXCEPTION(UsageError, p.makeJob()); // no input yet
    }

    void referenceRunsFirst() {
        ComparisonPresenter p("toy");
        const auto device = openclDevice(p);
        if (!device) QSKIP("no OpenCL device");
        p.setInput(toy::makeFrameSumsInput(toyFrames()), p.algorithm().defaultParams());
        QVERIFY(p.setChecked(indexOf(p.variants(), "ocl"), *device, true));
        JobRunner runner;
        QSignalSpy rowsAdded(&p, &ComparisonPresenter::rowAdded);
        QSignalSpy timings(&p, &ComparisonPresenter::runTimings);
        QVERIFY(runAndWait(p, runner));
        QCOMPARE(p.rows().size(), std::size_t(2));
        QCOMPARE(rowsAdded.size(), 2);
        QCOMPARE(timings.size(), 2);
        const ComparisonRow& ref = p.rows()[0];
        QVERIFY(ref.reference);
        QCOMPARE(ref.variant, std::string("cpu"));
        QCOMPARE(ref.device, std::string("cpu"));
        QCOMPARE(ref.speedup, 1.0);
        const ComparisonRow& ocl = p.rows()[1];
        QVERIFY(!ocl.reference);
        QCOMPARE(ocl.variant, std::string("ocl"));
        QVERIFY2(ocl.pass(), ocl.error.c_str());
        QCOMPARE(ocl.deviation.beyond, std::size_t(0));
        QCOMPARE(ocl.deviation.firstIndex, -1LL);
        QVERIFY(ocl.kernelMs > 0);
        QVERIFY(ocl.wallMs >= ocl.kernelMs);
        checkExports(p);
    }

    void faultsShowFailedWithFirstIndex_data() {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<long long>("first");
        QTest::newRow("nan") << "nan" << 0LL;
        QTest::newRow("off") << "off" << 3LL;
    }

    void faultsShowFailedWithFirstIndex() {
        QFETCH(QString, fault);
        QFETCH(long long, first);
        ComparisonPresenter p("toy");
        const auto device = openclDevice(p);
        if (!device) QSKIP("no OpenCL device");
        ParamSet params = p.algorithm().defaultParams();
        params.set("fault", fault.toStdString());
        p.setInput(toy::makeFrameSumsInput(toyFrames()), params);
        p.setChecked(indexOf(p.variants(), "ocl"), *device, true);
        JobRunner runner;
        QVERIFY(runAndWait(p, runner));
        QCOMPARE(p.rows().size(), std::size_t(2));
        QVERIFY(p.rows()[0].pass());
        const ComparisonRow& bad = p.rows()[1];
        QVERIFY(!bad.pass());
        QVERIFY(bad.error.empty()); // it ran, and it is wrong
        QCOMPARE(bad.deviation.firstIndex, first);
        QCOMPARE(bad.deviation.firstWhere, "frame " + std::to_string(first));
        QVERIFY(bad.deviation.beyond > 0);
        QVERIFY(p.csv().find(",0,") != std::string::npos); // pass = 0 in the CSV
        // Issue 52: the table's result column stays short (a long "FAIL — first at …" made it
        // scroll sideways); the whole story is the row's tooltip and the details line.
        QCOMPARE(comparisonRowCells(p.rows()[0]).last(), QString("reference"));
        QCOMPARE(comparisonRowCells(bad).last(), QString("FAIL"));
        const QString details = comparisonRowDetails(bad);
        QVERIFY2(details.contains(QString("FAIL — first at frame %1; ").arg(first)) &&
                     details.contains("tolerance"),
                 qPrintable(details));
    }

    void cancelKeepsFinishedRows() {
        ComparisonPresenter p("slowsums");
        const auto device = openclDevice(p);
        if (!device) QSKIP("no OpenCL device");
        p.setInput(toy::makeFrameSumsInput(toyFrames()), p.algorithm().defaultParams());
        p.setChecked(indexOf(p.variants(), "ocl"), *device, true);
        JobRunner runner;
        QSignalSpy finished(&p, &ComparisonPresenter::finished);
        QSignalSpy cancelling(&p, &ComparisonPresenter::cancelling);
        // Cancel as soon as the reference row is in: the slow cell is running then.
        connect(&p, &ComparisonPresenter::rowAdded, &p, [&p] { p.cancel(); });
        QVERIFY(p.run(runner));
        QElapsedTimer clock;
        clock.start();
        QVERIFY(finished.wait(30000));
        QVERIFY2(clock.elapsed() < 5000,
                 "Cancel acts inside the running cell"); // the cell waits 20 s
        QCOMPARE(finished.front().front().toBool(), false);
        QCOMPARE(cancelling.size(), 1);
        QCOMPARE(p.rows().size(), std::size_t(1));
        QVERIFY(p.rows()[0].reference);
        QVERIFY(!p.isRunning());
    }

    // Issue 40: the kernel lab's user variants are rows of the grid like the built-in ones, and
    // run (the base variant's host code with the user's program) on an OpenCL device.
    void userVariantsJoinTheGrid() {
        qputenv("CLSCOPE_USER_VARIANTS", dir_.filePath("variants").toUtf8());
        const Algorithm& rbf = AlgorithmRegistry::instance().find("rbf");
        UserVariant user;
        user.algorithm = "rbf", user.name = "wg64", user.base = "tiled", user.program = "rbf_tiled";
        user.tunables = {{"RBF_WG", "64"}};
        user.source = rbf.recipe("rbf_tiled").printable(user.tunables);
        saveUserVariant(user);
        ComparisonPresenter p("rbf");
        const auto device = openclDevice(p);
        if (!device) QSKIP("no OpenCL device");
        const std::size_t v = indexOf(p.variants(), "user:wg64");
        QVERIFY(v < p.variants().size());
        const BenchCase bench = rbf.benchCase("seed");
        p.setInput(bench.input, bench.params);
        QVERIFY(!p.setChecked(v, p.hostDevice(), true)); // an OpenCL program
        QVERIFY(p.setChecked(v, *device, true));
        JobRunner runner;
        QVERIFY(runAndWait(p, runner));
        bool ran = false;
        for (const ComparisonRow& row : p.rows())
            if (row.variant == "user:wg64") {
                QVERIFY2(row.pass(), (row.error + " " + row.deviation.firstWhere).c_str());
                ran = row.kernelMs > 0;
            }
        QVERIFY(ran);
        qunsetenv("CLSCOPE_USER_VARIANTS");
    }
    void xpcsOnPoclAndCpu() {
        const std::string file = test::writeSmallXpcs(dir_, 40, 20, 24);
        ComparisonPresenter p("xpcs");
        if (!openclDevice(p)) QSKIP("no OpenCL device");
        InputSources sources;
        sources.file = file;
        const ParamSet params = p.algorithm().defaultParams();
        p.setInput(p.algorithm().read(sources, params), params);
        p.checkAllSupported();
        const std::size_t cells = p.checkedCells().size();
        QVERIFY(cells >= 4); // cpu on the host, naive, ordered, gemm on PoCL
        JobRunner runner;
        QVERIFY(runAndWait(p, runner));
        QCOMPARE(p.rows().size(), cells); // the reference's own cell runs once
        for (const ComparisonRow& row : p.rows())
            QVERIFY2(row.pass(),
                     (row.label() + ": " + row.error + " " + row.deviation.firstWhere).c_str());
        QVERIFY(p.rows()[0].reference);
        p.setInput(p.algorithm().read(sources, params), params);
        QVERIFY(p.isStale());
    }

    // Issue 22: with multi-tau asked, the grid offers the multi-tau variants only (the dense
    // ones say why not) and multitau on PoCL equals the cpu reference; so do the sparse
    // variants (issue 55), side by side with them.
    void xpcsMultitauCompare() {
        const std::string file = test::writeSmallXpcs(dir_, 300, 12, 16);
        ComparisonPresenter p("xpcs");
        const auto device = openclDevice(p);
        if (!device) QSKIP("no OpenCL device");
        InputSources sources;
        sources.file = file;
        ParamSet params = p.algorithm().defaultParams();
        params.set("multitau", true);
        params.set("channels", 8);
        p.setInput(p.algorithm().read(sources, params), params);
        const auto gemm = p.support(indexOf(p.variants(), "gemm"), *device);
        QVERIFY(!gemm.ok);
        QVERIFY2(gemm.reason.find("multi") != std::string::npos, gemm.reason.c_str());
        p.checkAllSupported();
        // cpu and sparse-cpu on the host, multitau, sparse and sparse-pairs on PoCL
        QCOMPARE(p.checkedCells().size(), std::size_t(5));
        JobRunner runner;
        QVERIFY(runAndWait(p, runner));
        QCOMPARE(p.rows().size(), std::size_t(5));
        std::set<std::string> ran;
        for (const ComparisonRow& row : p.rows()) {
            QVERIFY2(row.pass(), (row.label() + ": " + row.error).c_str());
            ran.insert(row.result->info.variant);
        }
        QVERIFY((ran ==
                 std::set<std::string>{"cpu", "multitau", "sparse", "sparse-cpu", "sparse-pairs"}));
    }

    // A split over two devices is a column beside the single ones, with the same result.
    void deviceGroupColumn() {
        const std::string file = test::writeSmallXpcs(dir_, 40, 20, 24);
        ComparisonPresenter p("xpcs");
        const auto device = openclDevice(p);
        if (!device) QSKIP("no OpenCL device");
        const DeviceInfo pocl = p.devices()[*device];
        const std::size_t columns = p.devices().size();
        const std::size_t group = p.addDeviceGroup({pocl, pocl});
        QCOMPARE(group, columns);
        QCOMPARE(p.devices()[group].spec, pocl.spec + "," + pocl.spec);
        QVERIFY(p.isDeviceGroup(group) && !p.isDeviceGroup(*device));
        RunCommand command;
        command.sources.file = file;
        const ParamSet params = p.algorithm().defaultParams();
        p.setInput(p.algorithm().read(command.sources, params), params, command);
        const std::size_t gemm = indexOf(p.variants(), "gemm");
        QVERIFY(p.setChecked(gemm, *device, true));
        QVERIFY(p.setChecked(gemm, group, true));
        JobRunner runner;
        QVERIFY(runAndWait(p, runner));
        QCOMPARE(p.rows().size(), std::size_t(3)); // the cpu reference, then the two cells
        for (const ComparisonRow& row : p.rows())
            QVERIFY2(row.pass(), (row.label() + ": " + row.error).c_str());
        QCOMPARE(p.rows()[2].device, pocl.spec + "," + pocl.spec);
        QCOMPARE(p.rows()[2].result->info.device, pocl.spec + "," + pocl.spec);
        // Each row's command line repeats its run: the file, its device (the group's list)
        // and variant; the CSV carries it.
        const std::string line = p.commandLineOf(p.rows()[2]);
        QVERIFY2(line.rfind("clscope-cli correlate ", 0) == 0, line.c_str());
        for (const std::string& part :
             {file, "--device " + pocl.spec + "," + pocl.spec, std::string("--variant gemm")})
            QVERIFY2(line.find(part) != std::string::npos, (line + " lacks " + part).c_str());
        QVERIFY(p.csv().find(csvField(line)) != std::string::npos);
    }

  private:
    void checkExports(ComparisonPresenter& p) {
        const std::string csvPath = dir_.filePath("compare.csv").toStdString();
        p.exportCsv(csvPath);
        QFile csv(QString::fromStdString(csvPath));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = csv.readAll().split('\n');
        // The provenance header first: version, the comparison, its devices and parameters.
        QVERIFY(lines[0].startsWith("# clscope_version: "));
        QVERIFY(lines.contains("# result: toy: comparison of variants"));
        QVERIFY(lines.contains("# variant: cpu ocl"));
        while (!lines.isEmpty() && lines[0].startsWith("#"))
            lines.removeFirst();
        QVERIFY(lines[0].startsWith("variant,device,kernel_ms,wall_ms,setup_ms,speedup,metric"));
        QVERIFY(lines[0].endsWith(",error,command_line"));
        QVERIFY(lines[1].startsWith("cpu,cpu,"));
        QVERIFY(lines[2].startsWith("ocl,ocl:"));
        const std::string h5 = dir_.filePath("compare.h5").toStdString();
        p.exportHdf5(h5);
        const H5Reader in(h5);
        QVERIFY(in.hasDataset("/compare/00_cpu_cpu/sums"));
        QCOMPARE(in.stringAttribute("/", "result").value_or(""),
                 std::string("toy: comparison of variants"));
        std::string device = p.rows()[1].device;
        const std::string second = "/compare/01_ocl_" + device.replace(3, 1, "_");
        QVERIFY(in.hasDataset(second + "/sums"));
        QVERIFY(in.stringAttribute(second, "parameters").value_or("").find("scale") !=
                std::string::npos);
        QCOMPARE(in.stringAttribute(second, "pass").value_or(""), std::string("yes"));
        p.markStale();
        QVERIFY_THROWS_EXCEPTION(UsageError, p.exportCsv(csvPath));
        QVERIFY_THROWS_EXCEPTION(UsageError, p.exportHdf5(h5));
    }
};

QTEST_MAIN(TestUiCompare)
#include "tst_ui_compare.moc"
