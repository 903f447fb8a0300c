// Issue 52: a user's kernel that never ends does not keep clscope from quitting. The real GUI
// binary ($CLSCOPE_GUI) runs the xpcs demo with a user variant whose kernel spins for ever on
// PoCL; after --kernel-timeout the run fails (the window stays), and SIGTERM (File ▸ Quit) then
// ends the process within seconds although the device's threads still spin in the kernel.
#include "test_util.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>

using namespace clscope;

namespace {

// A user variant of xpcs (user:endless, a fork of `multitau`, the demo's variant) whose kernels
// spin for ever, in `folder`/xpcs; false when the lab cannot print the source.
bool writeEndlessVariant(const QString& folder) {
    const auto printed =
        test::runCli({"lab", "xpcs", "--from", "multitau", "--device", "ocl:0", "--print-source"});
    if (printed.code != 0 || !QDir().mkpath(folder + "/xpcs")) return false;
    QString source = printed.out;
    source.replace(QRegularExpression(R"((__kernel void [^{]*\{))"),
                   "\\1 volatile int spin = 1; while (spin) { }");
    QFile cl(folder + "/xpcs/endless.cl"), meta(folder + "/xpcs/endless.json");
    if (!cl.open(QIODevice::WriteOnly) || !meta.open(QIODevice::WriteOnly)) return false;
    cl.write(source.toUtf8());
    meta.write(R"({"base": "multitau", "program": "xpcs_multitau", "tunables": {}})");
    return source.contains("while (spin)");
}

// Reads the process's stdout until a line starts with `prefix` (false after timeoutMs).
bool waitForLine(QProcess& process, const QString& prefix, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs && process.state() == QProcess::Running) {
        while (process.canReadLine())
            if (QString::fromUtf8(process.readLine()).startsWith(prefix)) return true;
        process.waitForReadyRead(500);
    }
    return false;
}

} // namespace

class TestGuiQuit : public QObject {
    Q_OBJECT
  private slots:
    void quitWhileAUserKernelLoops() {
        if (!test::runCli({"devices"}).out.contains("ocl:0")) QSKIP("no OpenCL device");
        QTemporaryDir dir;
        QVERIFY(writeEndlessVariant(dir.filePath("variants")));
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", dir.filePath("config"));
        env.insert("CLSCOPE_USER_VARIANTS", dir.filePath("variants"));
        env.insert("CLSCOPE_DEMO_VARIANT", "user:endless");
        env.insert("CLSCOPE_WINDOW_LOG", "1");
        env.insert("CLSCOPE_DEVICE", "ocl:0");
        // PoCL's kernel cache empty and clscope's cache of programs off, as on a fresh machine:
        // the worker is still building the run's later programs (stderr then goes to
        // CompilerOutput's file) when the kernel timeout comes and when clscope quits, and the
        // last words must reach the terminal.
        env.insert("POCL_CACHE_DIR", dir.filePath("pocl-cache"));
        env.insert("CLSCOPE_PROGRAM_CACHE", "0");
        gui.setProcessEnvironment(env);
        gui.start(qEnvironmentVariable("CLSCOPE_GUI", "clscope"),
                  {"--demo", "xpcs", "--kernel-timeout", "1"});
        QVERIFY(gui.waitForStarted(30000));
        const auto killLeft = qScopeGuard([&gui] { gui.kill(), gui.waitForFinished(); });
        QVERIFY2(waitForLine(gui, "window: demo finished: failed", 120000),
                 gui.readAllStandardError().constData());
        QElapsedTimer clock;
        clock.start();
        ::kill(static_cast<pid_t>(gui.processId()), SIGTERM);
        const bool ended = gui.waitForFinished(15000);
        QVERIFY2(ended, "clscope did not exit within 15 s of SIGTERM");
        QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(err.contains("exits without waiting for 1 run(s) left on their device"),
                 qPrintable(err));
    }

    void kernelTimeoutIsChecked() {
        const auto run = test::runProgram(qEnvironmentVariable("CLSCOPE_GUI", "clscope"),
                                          {"--kernel-timeout", "0"}, {}, 30000);
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains("--kernel-timeout"), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestGuiQuit)
#include "tst_gui_quit.moc"
