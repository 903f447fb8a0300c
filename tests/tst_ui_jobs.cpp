// Job runner: work runs off the GUI thread, results come back on it, Cancel acts within a
// second, errors arrive as text with their kind, and only one job runs at a time.
#include "core/errors.hpp"
#include "core/spots/synthetic.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/runtime/session.hpp"
#include "ui/jobs/algorithm_run.hpp"
#include "ui/jobs/job_runner.hpp"
#include "ui/jobs/live_rerun.hpp"
#include "ui_test_helpers.hpp"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>
#include <atomic>
#include <memory>
#include <thread>

using namespace clscope;
using namespace clscope::ui;

namespace {

// A job of many short steps that checks for Cancel between them (up to 30 s).
Job longJob() {
    Job job;
    job.title = "long";
    job.work = [](const Progress& progress) {
        for (int step = 0; step < 3000; ++step) {
            progress.checkCancel();
            progress.report(step / 3000.0);
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return JobOutcome{};
    };
    return job;
}

// A panel's run of `algorithm` (its default parameters) over frames of `file` on `chosen`.
AlgorithmRun fileRun(const std::string& algorithm, const std::string& file, FrameRange frames,
                     const DeviceInfo& chosen) {
    AlgorithmRun run;
    run.algorithm = &AlgorithmRegistry::instance().find(algorithm);
    run.command.sources.file = file;
    run.command.sources.frames = frames;
    run.command.params = run.algorithm->defaultParams();
    run.chosen = chosen;
    return run;
}

// A watched job whose one kernel (one work-item) loops `n` times (1e10: ~2 s on PoCL here) and
// sets `ended` when it returns.
Job slowKernelJob(const DeviceInfo& device, long long n, std::shared_ptr<std::atomic<bool>> ended) {
    Job slow;
    slow.title = "slow";
    slow.watchKernels = true;
    slow.device = device;
    slow.work = [device, n, ended](const Progress&) {
        ClSession s(device);
        const ProgramRecipe recipe =
            ProgramRecipe("slow", {}, {})
                .withSource("kernel void slow(global long* out, long n) {\n"
                            "    volatile long k = 0;\n"
                            "    for (long i = 0; i < n; ++i) k += i;\n"
                            "    out[0] = k;\n"
                            "}\n");
        cl::Kernel k = s.kernel(recipe, {}, "slow");
        cl::Buffer out = s.allocate(8, "out");
        k.setArg(0, out), k.setArg(1, cl_long(n));
        s.launch(k, "slow", LaunchShape{{1}, {1}});
        s.finish();
        *ended = true;
        return JobOutcome{};
    };
    return slow;
}

// A watched job whose queue waits on `gate` (a user event the test completes): it returns,
// setting `ended`, only once the test opens the gate.
Job gatedJob(const DeviceInfo& device, std::shared_ptr<cl::UserEvent> gate,
             std::shared_ptr<std::atomic<bool>> ended) {
    Job job;
    job.title = "gated";
    job.device = device;
    job.work = [device, gate, ended](const Progress&) {
        ClSession s(device);
        const std::vector<cl::Event> waits{*gate};
        s.queue().enqueueBarrierWithWaitList(&waits);
        s.finish();
        *ended = true;
        return JobOutcome{};
    };
    return job;
}

Job quickJob(const DeviceInfo& device) {
    Job quick;
    quick.title = "quick";
    quick.device = device;
    quick.work = [](const Progress&) { return JobOutcome{}; };
    return quick;
}

} // namespace

class TestUiJobs : public QObject {
    Q_OBJECT
  private slots:
    // The panels' one run path: a host variant runs on the host whatever device is chosen, the
    // input is read with the algorithm's own read() (frame range included), the result equals
    // runAlgorithm's on the same input, and the command line reproduces the run.
    void algorithmRunJob() {
        QTemporaryDir dir;
        const std::string file = test::writeSmallXpcs(dir, 12);
        const Algorithm& xpcs = AlgorithmRegistry::instance().find("xpcs");
        const auto& cl = openclDevices();
        AlgorithmRun run = fileRun("xpcs", file, {2, 7}, cl.empty() ? hostDevice() : cl.front());
        run.command.variant = xpcs.referenceVariant();
        std::optional<RunDelivery> delivered;
        const std::string expectedDevice = "--device " + hostDevice().spec;
        Job job = makeRunJob(run, [&](const RunDelivery& d) { delivered = d; });
        QCOMPARE(job.device.spec, hostDevice().spec);
        QCOMPARE(job.title, "xpcs " + xpcs.referenceVariant() + " on " + hostDevice().spec);
        QCOMPARE(job.algorithm, std::string("xpcs"));
        const Progress progress;
        JobOutcome outcome = job.work(progress);
        QVERIFY(!delivered);
        outcome.deliver();
        QVERIFY(delivered && delivered->result && delivered->input);
        QVERIFY(outcome.summary.find(", kernel ") != std::string::npos);
        const auto input = xpcs.read(run.command.sources, run.command.params);
        const auto direct = runAlgorithm(
            xpcs, {hostDevice(), run.command.variant, input, run.command.params, {}}, progress);
        const Deviation d = xpcs.compare(*delivered->result, *direct);
        QVERIFY(d.compared > 0);
        QCOMPARE(d.maxDeviation, 0.0);
        QVERIFY2(delivered->command.find("--frames 2:7") != std::string::npos,
                 delivered->command.c_str());
        QVERIFY(delivered->command.find(expectedDevice) != std::string::npos);
        // A source held in memory: no command line names it, and the line says why.
        run.command.sources.arrays["labels"] = nullptr;
        QVERIFY(reproducingLine(run.command).rfind("# no command line", 0) == 0);
    }

    // A panel that does not view the whole input runs it as clscope-cli does: spots over a file
    // on an OpenCL device streams through the pipeline (the summary says so, no input is held
    // for the panel) and gives runAlgorithm's result on the input read whole.
    void spotsRunStreamsAsTheCommandLine() {
        const auto& cl = openclDevices();
        if (cl.empty()) QSKIP("no OpenCL device");
        QTemporaryDir dir;
        const std::string file = dir.filePath("spots.h5").toStdString();
        {
            synthetic::DiffractionParams p;
            p.frames = 5, p.height = 96, p.width = 80, p.spots = 6;
            H5Writer out(file);
            synthetic::writeDiffraction(out, synthetic::generateDiffraction(p), Compression::Gzip);
            out.commit();
        }
        const Algorithm& spots = AlgorithmRegistry::instance().find("spots");
        AlgorithmRun run = fileRun("spots", file, {1, 3}, cl.front());
        std::optional<RunDelivery> delivered;
        JobOutcome outcome =
            makeRunJob(run, [&](const RunDelivery& d) { delivered = d; }).work(Progress{});
        outcome.deliver();
        QVERIFY(delivered && delivered->result && !delivered->input);
        QVERIFY2(outcome.summary.find("; streamed in 1 batch") != std::string::npos,
                 outcome.summary.c_str());
        const auto input = spots.read(run.command.sources, run.command.params);
        const auto direct =
            runAlgorithm(spots, {cl.front(), "", input, run.command.params, {}}, Progress{});
        const Deviation d = spots.compare(*delivered->result, *direct);
        QVERIFY(d.compared > 0);
        QCOMPARE(d.maxDeviation, 0.0);
        // Cancel stops a streamed run too (no result delivered).
        const std::atomic<bool> cancel{true};
        delivered.reset();
        QVERIFY_THROWS_EXCEPTION(Cancelled, makeRunJob(run, [&](const RunDelivery& d) {
                                                delivered = d;
                                            }).work({{}, &cancel}));
        QVERIFY(!delivered);
        // A panel whose views take the input gets it, read whole.
        run.wholeInput = WholeInput::IfItFits;
        outcome = makeRunJob(run, [&](const RunDelivery& d) { delivered = d; }).work(Progress{});
        outcome.deliver();
        QVERIFY(delivered->input && outcome.summary.find("streamed") == std::string::npos);
    }

    void resultsComeBackOnTheGuiThread() {
        JobRunner runner;
        QSignalSpy succeeded(&runner, &JobRunner::succeeded);
        QSignalSpy timings(&runner, &JobRunner::timingsReady);
        QThread* workThread = nullptr;
        QThread* deliverThread = nullptr;
        Job job;
        job.title = "square";
        job.algorithm = "xpcs";
        job.variant = "naive";
        job.device.spec = "ocl:0";
        job.work = [&](const Progress& progress) {
            workThread = QThread::currentThread();
            progress.report(0.5);
            JobOutcome outcome;
            outcome.timings = {TimingRecord{"xpcs naive", 3, 1.0, 2.0, 3.0, 6.0}};
            outcome.summary = "done";
            outcome.deliver = [&] { deliverThread = QThread::currentThread(); };
            return outcome;
        };
        QVERIFY(runner.submit(job));
        QVERIFY(runner.isBusy());
        QVERIFY(succeeded.wait(5000));
        QVERIFY(workThread && workThread != QThread::currentThread());
        QCOMPARE(deliverThread, QThread::currentThread());
        QCOMPARE(succeeded.at(0).at(1).toString(), QString("done"));
        QCOMPARE(timings.count(), 1);
        const auto run = timings.at(0).at(0).value<RunTimings>();
        QCOMPARE(run.variant, std::string("naive"));
        QCOMPARE(run.records.at(0).medianMs, 2.0);
        QVERIFY(!runner.isBusy());
    }

    void cancelWithinASecond() {
        JobRunner runner;
        QSignalSpy cancelled(&runner, &JobRunner::cancelled);
        QSignalSpy progressed(&runner, &JobRunner::progressed);
        QVERIFY(runner.submit(longJob()));
        QVERIFY(!runner.submit(longJob())); // one at a time
        QTRY_VERIFY_WITH_TIMEOUT(progressed.count() > 2, 5000);
        QElapsedTimer clock;
        clock.start();
        runner.cancel();
        QVERIFY(cancelled.wait(1000));
        QVERIFY(clock.elapsed() < 1000);
        QVERIFY(!runner.isBusy());
        QVERIFY(runner.submit(longJob())); // usable again; the destructor cancels it
    }

    // Many changes in a burst give one run; changes while a run is busy give exactly one more
    // run after it, with the latest value.
    void liveRerunCoalescesChanges() {
        JobRunner runner;
        int value = 0;
        std::vector<int> ran;
        LiveRerun live(
            runner,
            [&]() -> std::optional<Job> {
                Job job;
                job.title = "live";
                const int seen = value;
                job.work = [seen, &ran](const Progress&) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(200));
                    JobOutcome outcome;
                    outcome.deliver = [seen, &ran] { ran.push_back(seen); };
                    return outcome;
                };
                return job;
            },
            50);
        for (value = 1; value <= 5; ++value)
            live.request();
        value = 5;
        QTRY_COMPARE_WITH_TIMEOUT(ran.size(), std::size_t(1), 5000);
        QCOMPARE(ran.back(), 5);
        live.request();
        QTRY_VERIFY_WITH_TIMEOUT(runner.isBusy(), 2000);
        for (value = 6; value <= 9; ++value)
            live.request();
        value = 9;
        QTRY_COMPARE_WITH_TIMEOUT(ran.size(), std::size_t(3), 5000);
        QCOMPARE(ran.back(), 9);
        QTest::qWait(300);
        QCOMPARE(ran.size(), std::size_t(3));
        QVERIFY(!live.isPending());
    }

    // A watched job (a user's kernels) whose kernel runs past the limit fails at once with that
    // said; the runner goes on with a new worker thread (the next job succeeds) and drops what
    // the abandoned job returns once its kernel ends (here it does: a finite loop of ~1-10 s).
    void watchedKernelPastItsLimit() {
        const auto& cl = openclDevices();
        if (cl.empty()) QSKIP("no OpenCL device");
        JobRunner runner;
        runner.setKernelTimeout(0.3);
        QSignalSpy failed(&runner, &JobRunner::failed), succeeded(&runner, &JobRunner::succeeded);
        auto ended = std::make_shared<std::atomic<bool>>(false);
        const Job slow = slowKernelJob(cl.front(), 10'000'000'000, ended);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(runner.submit(slow));
        QVERIFY(failed.wait(30000));
        QCOMPARE(failed.at(0).at(1).toString(), QString("device error"));
        QVERIFY2(failed.at(0).at(2).toString().contains("kernel 'slow' on " +
                                                        QString::fromStdString(cl.front().spec) +
                                                        " did not finish in 0.3 s"),
                 qPrintable(failed.at(0).at(2).toString()));
        QVERIFY(!runner.isBusy() && JobRunner::abandonedThreads() == 1);
        // Its device is busy, with the reason, until the kernel ends; the host goes on.
        QVERIFY(!runner.submit(quickJob(cl.front())));
        QVERIFY2(runner.refusal().contains(QString::fromStdString(cl.front().spec) +
                                           " is busy: kernel 'slow'"),
                 qPrintable(runner.refusal()));
        QVERIFY(runner.submit(quickJob(hostDevice())));
        QVERIFY(succeeded.wait(10000));
        QCOMPARE(succeeded.at(0).at(0).toString(), QString("quick"));
        QTRY_VERIFY_WITH_TIMEOUT(*ended, 120000); // the abandoned kernel's loop ends
        QTRY_VERIFY(runner.deviceBusyReason(cl.front().spec).isEmpty());
        QCOMPARE(succeeded.size(), 1); // its job's return was dropped
        QCOMPARE(failed.size(), 1);
        QVERIFY(runner.submit(quickJob(cl.front())));
        QVERIFY(succeeded.wait(10000));
    }

    // Quitting while a job waits on its device (a run queued behind a user's kernel that never
    // ends; it is no user variant, so not watched): the runner waits 2 s, then leaves the thread
    // as abandoned (the GUI's main then ends without joining it) instead of waiting for ever.
    // Here the device's queue waits on a user event that the test completes afterwards, so the
    // thread does end.
    void quitDuringAJobStuckOnItsDevice() {
        const auto& cl = openclDevices();
        if (cl.empty()) QSKIP("no OpenCL device");
        auto ended = std::make_shared<std::atomic<bool>>(false);
        auto gate = std::make_shared<cl::UserEvent>(ClSession(cl.front()).context());
        const int before = JobRunner::abandonedThreads();
        QElapsedTimer clock;
        {
            JobRunner runner;
            QVERIFY(runner.submit(gatedJob(cl.front(), gate, ended)));
            QTest::qWait(300);
            clock.start();
        }
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(JobRunner::abandonedThreads(), before + 1);
        QVERIFY(!*ended);
        gate->setStatus(CL_COMPLETE);
        QTRY_VERIFY_WITH_TIMEOUT(*ended, 30000);
    }

    // Cancel (Esc) works on a job stuck on its device: after 1.5 s it is reported cancelled and
    // left; its device refuses runs with the reason until it returns, the host goes on.
    void cancelAJobStuckOnItsDevice() {
        const auto& cl = openclDevices();
        if (cl.empty()) QSKIP("no OpenCL device");
        auto ended = std::make_shared<std::atomic<bool>>(false);
        auto gate = std::make_shared<cl::UserEvent>(ClSession(cl.front()).context());
        JobRunner runner;
        QSignalSpy cancelled(&runner, &JobRunner::cancelled),
            succeeded(&runner, &JobRunner::succeeded);
        QVERIFY(runner.submit(gatedJob(cl.front(), gate, ended)));
        QTest::qWait(200);
        runner.cancel();
        QVERIFY(cancelled.wait(3000));
        QVERIFY(!runner.isBusy());
        QVERIFY(!runner.submit(quickJob(cl.front())));
        QVERIFY2(runner.refusal().contains("the cancelled run gated still waits on it"),
                 qPrintable(runner.refusal()));
        QVERIFY(runner.submit(quickJob(hostDevice())));
        QVERIFY(succeeded.wait(5000));
        gate->setStatus(CL_COMPLETE);
        QTRY_VERIFY_WITH_TIMEOUT(*ended, 30000);
        QTRY_VERIFY(runner.deviceBusyReason(cl.front().spec).isEmpty());
        QCOMPARE(cancelled.size(), 1);
    }

    void errorsArriveWithTheirKind() {
        JobRunner runner;
        QSignalSpy failed(&runner, &JobRunner::failed);
        Job job;
        job.title = "build";
        job.work = [](const Progress&) -> JobOutcome {
            throw DeviceError(
                "ocl:0: kernel build failed\nbuild log:\nerror: use of undeclared identifier 'x'");
        };
        QVERIFY(runner.submit(job));
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.at(0).at(1).toString(), QString("device error"));
        QVERIFY(failed.at(0).at(2).toString().contains("undeclared identifier"));
        job.work = [](const Progress&) -> JobOutcome {
            throw InputError("x.h5:/entry/data/data: not found");
        };
        QVERIFY(runner.submit(job));
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.at(1).at(1).toString(), QString("bad input"));
    }
};

QTEST_MAIN(TestUiJobs)
#include "tst_ui_jobs.moc"
