#include "ui/app/scripted_run.hpp"

#include "core/errors.hpp"
#include "core/input/input_files.hpp"
#include "core/input/input_sources.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/runtime/devices.hpp"
#include "ui/app/main_window.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/jobs/job_runner.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/results/results_panel.hpp"

#include <QTabWidget>
#include <QTimer>
#include <memory>

namespace clscope::ui {

namespace {

// The registry entry of ALGO: its id, or the clscope-cli command that runs it.
const Algorithm& algorithmNamed(const std::string& name) {
    for (const auto& a : AlgorithmRegistry::instance().all())
        if (a->id() == name || a->command() == name) return *a;
    throw UsageError("--run " + name + ": no such algorithm");
}

int exitCodeOf(const QString& kind) {
    return kind == "device error" ? ExitDevice : kind == "usage error" ? ExitUsage : ExitInput;
}

// The Device panel set to the device `spec` names (DeviceError when none).
void selectDevice(MainWindow& window, const std::string& spec) {
    const DeviceInfo wanted = resolveDevice(spec);
    auto* picker = window.findChild<DevicePicker*>();
    if (!picker) throw DeviceError("--device " + spec + ": the Device panel is not there");
    const auto& devices = picker->presenter().devices();
    for (std::size_t i = 0; i < devices.size(); ++i)
        if (devices[i].spec == wanted.spec) return picker->selectDevice(i);
    throw DeviceError("--device " + spec + ": " + wanted.spec + " is not in the Device panel");
}

// The panel's settings from the options, as clscope-cli reads them: the defaults, --params
// merged (its recorded frame range too), then --frames; an unknown variant or a frame range for
// an algorithm that reads no frames is a usage error, as in clscope-cli.
ScriptedSettings settingsOf(const Algorithm& algorithm, const ScriptedRunRequest& r) {
    ScriptedSettings s{algorithm.defaultParams(), 0, 0, r.variant.toStdString()};
    if (!s.variant.empty()) algorithm.variant(s.variant);
    FrameRange frames;
    if (!r.params.isEmpty()) {
        s.params.mergeFile(r.params.toStdString());
        const nlohmann::json j = readParamsArgument(r.params.toStdString());
        if (j.contains("input") && j["input"].is_object() && j["input"].contains("frames") &&
            j["input"]["frames"].is_string())
            frames = FrameRange::parse(j["input"]["frames"].get<std::string>());
    }
    if (!r.frames.isEmpty()) frames = FrameRange::parse(r.frames.toStdString());
    if (!frames.all() && !algorithm.readsFrames())
        throw UsageError(algorithm.command() + " reads no frames: --frames does not apply");
    s.firstFrame = frames.first, s.frameCount = frames.count;
    return s;
}

// The export checked as clscope-cli checks its -o, before the run: never one of the run's
// inputs (the open file, a --params file), a folder, a link or a device (UsageError: exit 2).
void checkExportPath(const Algorithm& algorithm, Workbench& wb, const ScriptedRunRequest& r) {
    if (!wb.dataset().file()) throw InputError("no file is open: --run needs IN.h5");
    InputSources sources;
    sources.file = wb.dataset().fileName();
    checkOutputs({{"--export-results", r.exportPath.toStdString()}},
                 inputFiles(algorithm.inputRoles(), sources, r.params.toStdString()));
}

// The result tab Export results writes: the one shown, made the algorithm's own result tab
// when another is in front.
void showResultOf(ResultsPanel& results, const std::string& algorithm) {
    const ResultTab* shown = results.currentTab();
    if (shown && shown->algorithm.toStdString() == algorithm) return;
    for (const ResultTab& tab : results.tabs())
        if (tab.algorithm.toStdString() == algorithm && tab.writeHdf5)
            return results.showTab(tab.widget);
}

} // namespace

void startScriptedRun(MainWindow& window, const ScriptedRunRequest& request,
                      std::function<void(const ScriptedOutcome&)> done) {
    const auto finish = [done](int code, const QString& message) {
        QTimer::singleShot(0, [done, code, message] { done({code, message}); });
    };
    Workbench& wb = window.workbench();
    // The job's failure, as the Log has it: its kind gives the exit code. The panel may hear
    // of the failure first (its connection is older): the outcome is read after both, below.
    auto failure = std::make_shared<ScriptedOutcome>(ScriptedOutcome{ExitInput, {}});
    QObject::connect(&wb.jobs(), &JobRunner::failed, &window,
                     [failure](const QString&, const QString& kind, const QString& message) {
                         failure->code = exitCodeOf(kind);
                         if (failure->message.isEmpty()) failure->message = message;
                     });
    // A Run refused before it starts (no labels, a frame range outside the stack): bad input.
    QObject::connect(&wb, &Workbench::statusMessage, &window,
                     [failure](const QString& message, int) {
                         if (failure->message.isEmpty()) failure->message = message;
                     });
    const QString out = request.exportPath;
    try {
        const Algorithm& algorithm = algorithmNamed(request.algorithm);
        const AlgorithmPanelSpec* panel = AlgorithmPanelRegistry::instance().find(algorithm.id());
        if (!panel || !panel->scriptedRun)
            throw UsageError("--run " + request.algorithm + ": its panel has no scripted run");
        if (request.exportPath.isEmpty()) throw UsageError("--run needs --export-results OUT.h5");
        const ScriptedSettings settings = settingsOf(algorithm, request);
        checkExportPath(algorithm, wb, request);
        if (!request.device.isEmpty()) selectDevice(window, request.device.toStdString());
        panel->scriptedRun(wb, settings, [&wb, out, failure, finish, id = algorithm.id()](bool ok) {
            if (!ok) // once the runner's failed() has reached every slot
                return QTimer::singleShot(0, [finish, failure] {
                    finish(failure->code, failure->message.isEmpty()
                                              ? QString("the run did not start (see the Log)")
                                              : failure->message);
                });
            try {
                showResultOf(wb.results(), id);
                wb.results().exportHdf5(out);
                finish(ExitOk, {});
            } catch (const std::exception& e) {
                finish(ExitInput, QString("--export-results %1: %2").arg(out, e.what()));
            }
        });
    } catch (const DeviceError& e) {
        finish(ExitDevice, e.what());
    } catch (const InputError& e) {
        finish(ExitInput, e.what());
    } catch (const std::exception& e) {
        finish(ExitUsage, e.what());
    }
}

} // namespace clscope::ui
