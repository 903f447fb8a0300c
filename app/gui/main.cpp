// clscope: the GUI workbench. clscope [FILE.h5] [--demo ALGO|compare] [--source tcp://HOST:PORT]
// [--screenshot OUT.png] (DESIGN.md §4). --source opens the live view of a detector stream (with
// --screenshot: the live view, grabbed halfway through the announced series; exit 3 when the
// series failed, e.g. no message within the timeout). With CLSCOPE_SCREENSHOT_SUMMARY set,
// --screenshot also prints what the window shows ("window: " lines, ui/app/window_summary.hpp);
// with CLSCOPE_WINDOW_LOG set, such lines come as the window changes (scripts/gui_walk). With
// --source they are the live view's (LiveView::summary: curves, hit rate, latency), after the
// screenshot and, with CLSCOPE_WINDOW_LOG, when the series ends.
// A scripted run, clscope IN.h5 --run ALGO [--variant V] [--device D] [--params JSON|FILE]
// [--frames FIRST:COUNT] --export-results OUT.h5 (ui/app/scripted_run.hpp), exits with the
// CLI's codes: 0 done, 2 usage, 3 bad input, 4 device, the reason on stderr; it leaves the
// user's settings as they were.
// --kernel-timeout S: how long a user variant's kernel may run before clscope stops waiting for
// it (default 30 s; the runs on that device are then refused until it ends). SIGTERM and SIGINT
// quit as File ▸ Quit does. A run left waiting on its device (OpenCL cannot stop a kernel) does
// not keep clscope from exiting: once the window is closed and the files written, it ends.
// Otherwise exit codes: 0 done, 1 the screenshot could not be written, 2 usage error (including a
// demo of an algorithm that does not exist yet), 3 a FILE that cannot be opened with --screenshot,
// 4 the demo's run failed (with --screenshot).
#include "core/errors.hpp"
#include "gpu/runtime/compiler_output.hpp"
#include "ui/app/main_window.hpp"
#include "ui/app/quit_on_signal.hpp"
#include "ui/app/scripted_run.hpp"
#include "ui/app/window_summary.hpp"
#include "ui/jobs/job_runner.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/stream/live_view.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("clscope");
    QCoreApplication::setApplicationName("clscope");
    QCommandLineParser parser;
    parser.setApplicationDescription("clscope: a workbench for GPU algorithms on detector data");
    parser.addHelpOption();
    parser.addPositionalArgument("FILE", "HDF5 file to open", "[FILE.h5]");
    const QCommandLineOption demo(
        "demo", "Generate ALGO's synthetic dataset, run it and show the results.", "ALGO");
    const QCommandLineOption screenshot("screenshot", "Save the settled window as PNG, then quit.",
                                        "OUT.png");
    const QCommandLineOption source(
        "source", "Open the live view of a detector stream (DECTRIS Stream V2, ZeroMQ).",
        "tcp://HOST:PORT");
    const QCommandLineOption run("run", "Scripted run: ALGO's panel Run on FILE, then export.",
                                 "ALGO");
    const QList<QCommandLineOption> scripted{
        {"variant", "Scripted run: the variant (default: the panel's).", "V"},
        {"device", "Scripted run: the device (as clscope-cli --device).", "D"},
        {"params", "Scripted run: parameters, a JSON file or inline JSON.", "JSON|FILE"},
        {"frames", "Scripted run: the frame range.", "FIRST:COUNT"},
        {"export-results", "Scripted run: where Export results writes the result.", "OUT.h5"}};
    const QCommandLineOption kernelTimeout(
        "kernel-timeout",
        "Seconds a user variant's kernel may run before clscope stops waiting for it (30).", "S");
    parser.addOption(demo);
    parser.addOption(kernelTimeout);
    parser.addOption(screenshot);
    parser.addOption(source);
    parser.addOption(run);
    parser.addOptions(scripted);
    if (!parser.parse(app.arguments())) {
        std::cerr << "clscope: " << parser.errorText().toStdString() << " (see clscope --help)\n";
        return clscope::ExitUsage;
    }
    if (parser.isSet("help")) parser.showHelp(0);
    if (parser.positionalArguments().size() > 1) {
        std::cerr << "clscope: at most one FILE\n";
        return clscope::ExitUsage;
    }
    bool timeoutOk = true;
    const double kernelSeconds =
        parser.isSet(kernelTimeout) ? parser.value(kernelTimeout).toDouble(&timeoutOk) : 30.0;
    if (!timeoutOk || !std::isfinite(kernelSeconds) || kernelSeconds <= 0) {
        std::cerr << "clscope: --kernel-timeout: seconds > 0, not '"
                  << parser.value(kernelTimeout).toStdString() << "'\n";
        return clscope::ExitUsage;
    }
    const bool scriptedRun = parser.isSet(run);
    for (const QCommandLineOption& o : scripted)
        if (parser.isSet(o) && !scriptedRun) {
            std::cerr << "clscope: --" << o.names().front().toStdString() << " needs --run\n";
            return clscope::ExitUsage;
        }
    if (scriptedRun && (parser.positionalArguments().isEmpty() || !parser.isSet("export-results") ||
                        parser.isSet(demo) || parser.isSet(source))) {
        std::cerr << "clscope: --run needs FILE and --export-results OUT.h5 (and no --demo or "
                     "--source)\n";
        return clscope::ExitUsage;
    }
    // A scripted run neither reads nor writes the user's settings (the panels save what they
    // are set to): its own, in a folder removed at exit.
    QTemporaryDir scriptedSettings;
    if (scriptedRun) {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, scriptedSettings.path());
    }
    // Destroyed before the end of main, where a job runner's abandoned worker is looked for.
    auto windowOwner = std::make_unique<clscope::ui::MainWindow>();
    clscope::ui::MainWindow& window = *windowOwner;
    window.workbench().jobs().setKernelTimeout(kernelSeconds);
    clscope::ui::quitOnTerminationSignals(window);
    if (qEnvironmentVariableIsSet("CLSCOPE_WINDOW_LOG")) clscope::ui::logWindowChanges(window);
    window.show();
    if (!parser.positionalArguments().isEmpty() &&
        !window.openFile(parser.positionalArguments().front()) &&
        (parser.isSet(screenshot) || scriptedRun)) {
        std::cerr << "clscope: cannot open " << parser.positionalArguments().front().toStdString()
                  << "\n";
        return clscope::ExitInput;
    }
    if (parser.isSet(demo)) {
        QString error;
        if (!window.startDemo(parser.value(demo), &error)) {
            std::cerr << "clscope: --demo " << parser.value(demo).toStdString() << ": "
                      << error.toStdString() << "\n";
            return clscope::ExitUsage;
        }
    }
    if (scriptedRun) {
        const clscope::ui::ScriptedRunRequest request{
            parser.value(run).toStdString(), parser.value("variant"),
            parser.value("device"),          parser.value("params"),
            parser.value("frames"),          parser.value("export-results")};
        QTimer::singleShot(0, &window, [&window, request] {
            clscope::ui::startScriptedRun(
                window, request, [out = request.exportPath](const clscope::ui::ScriptedOutcome& o) {
                    if (o.code != clscope::ExitOk)
                        std::cerr << "clscope: " << o.message.toStdString() << "\n";
                    else
                        std::cout << "wrote " << out.toStdString() << "\n";
                    QCoreApplication::exit(o.code);
                });
        });
    } else if (parser.isSet(source)) {
        auto* live = clscope::ui::openLiveWindow(window.workbench(), parser.value(source), &window);
        auto failed = std::make_shared<bool>(false); // the series ended on an error
        // The live view's curves, hit rate and latency as "window: " lines (for scripts).
        const auto printSummary = [live](const char* event) {
            std::cout << "window: " << event << "\n";
            for (const QString& line : live->summary())
                std::cout << "window: " << line.toStdString() << "\n";
            std::cout << std::flush;
        };
        QObject::connect(live, &clscope::ui::LiveView::finished, live,
                         [failed, printSummary](const QString& error, bool) {
                             if (qEnvironmentVariableIsSet("CLSCOPE_WINDOW_LOG"))
                                 printSummary("live series ended");
                             if (error.isEmpty()) return;
                             *failed = true;
                             std::cerr << "clscope: " << error.toStdString() << "\n";
                         });
        if (parser.isSet(screenshot))
            live->screenshotHalfway(parser.value(screenshot), [out = parser.value(screenshot),
                                                               failed, printSummary](bool ok) {
                std::cout << (ok ? "wrote " : "could not write ") << out.toStdString() << "\n";
                if (qEnvironmentVariableIsSet("CLSCOPE_SCREENSHOT_SUMMARY"))
                    printSummary("live view");
                QCoreApplication::exit(!ok ? 1 : *failed ? clscope::ExitInput : 0);
            });
    } else if (parser.isSet(screenshot)) {
        const QString out = parser.value(screenshot);
        const bool demoRun = parser.isSet(demo);
        window.screenshotWhenSettled(out, [out, demoRun, &window](bool ok) {
            if (!ok)
                std::cerr << "clscope: could not write " << out.toStdString() << "\n";
            else
                std::cout << "wrote " << out.toStdString() << "\n";
            if (qEnvironmentVariableIsSet("CLSCOPE_SCREENSHOT_SUMMARY"))
                for (const QString& line : clscope::ui::windowSummary(window))
                    std::cout << "window: " << line.toStdString() << "\n";
            const bool demoFailed = demoRun && !window.demoSucceeded();
            if (demoFailed) std::cerr << "clscope: the demo's run failed (see the Log panel)\n";
            QCoreApplication::exit(!ok ? 1 : demoFailed ? 4 : 0);
        });
    }
    const int code = app.exec();
    windowOwner.reset(); // its job runner leaves a worker stuck in a user's kernel
    // A worker left waiting on a user's kernel that never finished cannot be joined: end
    // without the destructors that would wait for it or for its device.
    if (const int left = clscope::ui::JobRunner::abandonedThreads(); left > 0) {
        clscope::CompilerOutput::restoreTerminal(); // the worker may be building a program
        std::cerr << "clscope: exits without waiting for " << left
                  << " run(s) left on their device (OpenCL cannot stop a running kernel)\n";
        scriptedSettings.remove();
        std::cout.flush(), std::cerr.flush();
        std::_Exit(code);
    }
    return code;
}
