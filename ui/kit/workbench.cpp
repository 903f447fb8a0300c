#include "ui/kit/workbench.hpp"
#include "ui/base/qstring.hpp"

#include "core/io.hpp"
#include "core/mask/mask_io.hpp"
#include "gpu/runtime/devices.hpp"
#include "ui/data/data_browser.hpp"
#include "ui/device/device_picker.hpp"
#include "ui/image/image_view.hpp"
#include "ui/image/stream_frame_source.hpp"
#include "ui/jobs/stored_result.hpp"
#include "ui/kit/algorithm_panel.hpp"
#include "ui/results/timings_panel.hpp"

#include <QInputDialog>
#include <QPointer>

namespace clscope::ui {

Workbench::Workbench(WorkbenchViews views, QObject* parent) : QObject(parent), views_(views) {
    connectRunner();
    // Results are bound to their input: a new file, role or parameters make them stale (new
    // labels too: ui/mask/q_bin_labels.hpp).
    connect(this, &Workbench::fileOpened, this, [this] { views_.results->markStale(); });
    connect(this, &Workbench::roleChanged, this, [this] { views_.results->markStale(); });
    connect(this, &Workbench::parametersChanged, this,
            [this](const QString& algorithm) { views_.results->markStale(algorithm); });
    if (views_.devices)
        connect(views_.devices, &DevicePicker::deviceChanged, this, &Workbench::deviceChanged);
}

void Workbench::attachDataBrowser(DataBrowser* browser) {
    browser_ = browser;
    connect(browser_, &DataBrowser::roleAssigned, this, [this](DataRole role, const QString& path) {
        log(LogLevel::Info, QString("%1 ← %2").arg(q(roleName(role)), path));
        showRole(role);
    });
    connect(browser_, &DataBrowser::message, this, [this](const QString& text) {
        log(LogLevel::Warning, text);
        emit statusMessage(text, 6000);
    });
}

void Workbench::connectRunner() {
    connect(&runner_, &JobRunner::started, this,
            [this](const QString& title) { log(LogLevel::Info, "started: " + title); });
    connect(&runner_, &JobRunner::succeeded, this,
            [this](const QString& title, const QString& summary, double s) {
                const QString text = QString("finished: %1 in %2 s%3")
                                         .arg(title)
                                         .arg(s, 0, 'f', 2)
                                         .arg(summary.isEmpty() ? "" : " — " + summary);
                log(LogLevel::Info, text);
                emit statusMessage(text, 8000);
            });
    connect(&runner_, &JobRunner::failed, this,
            [this](const QString& title, const QString& kind, const QString& message) {
                log(LogLevel::Error, QString("%1 failed (%2): %3").arg(title, kind, message));
                emit statusMessage(QString("%1 failed: %2").arg(title, message.section('\n', 0, 0)),
                                   0);
            });
    connect(&runner_, &JobRunner::cancelled, this, [this](const QString& title) {
        log(LogLevel::Warning, "cancelled: " + title);
        emit statusMessage("Cancelled: " + title, 6000);
    });
    connect(&runner_, &JobRunner::timingsReady, this,
            [this](const RunTimings& t) { views_.timings->addRun(t); });
}

bool Workbench::openFile(const QString& path) {
    try {
        roles_.open(path.toStdString());
    } catch (const std::exception& e) {
        log(LogLevel::Error, QString("cannot open %1: %2").arg(path, e.what()));
        emit statusMessage(QString("Cannot open %1").arg(path), 0);
        return false;
    }
    if (browser_) browser_->refresh();
    views_.image->setFrameSource(nullptr);
    if (browser_) browser_->showOccupancy(nullptr);
    for (const auto& [role, rolePath] : roles_.assignments()) {
        log(LogLevel::Info,
            QString("%1 ← %2").arg(q(roleName(role)), q(roles_.describe(role, rolePath))));
        showRole(role);
    }
    log(LogLevel::Info, "opened " + path);
    emit statusMessage("Opened " + path, 5000);
    emit fileOpened(path);
    showOnItsPanel(path);
    return true;
}

// An event list is binned into frames of a width the user gives (DESIGN.md §3): the file's own
// frame time is offered (the CLI's --frame-time has no default either). Whether there is one.
bool Workbench::askEventFrameTime(const QString& path) {
    double suggested = 1e-3;
    try {
        if (roles_.file()->hasDataset(paths::frameTime))
            suggested = roles_.file()->readScalar(paths::frameTime);
    } catch (const std::exception&) {
    }
    if (!askFrameTime_)
        askFrameTime_ = [](const QString& file, double offered) -> std::optional<double> {
            bool ok = false;
            const double s =
                QInputDialog::getDouble(nullptr, "Event list",
                                        QString("%1 holds an event list: the width of the frames "
                                                "it is binned into, in seconds")
                                            .arg(file),
                                        offered, 1e-9, 1e6, 9, &ok);
            return ok ? std::optional(s) : std::nullopt;
        };
    roles_.setEventFrameTime(nextFrameTime_ ? nextFrameTime_ : askFrameTime_(path, suggested));
    nextFrameTime_.reset();
    if (roles_.eventFrameTime())
        log(LogLevel::Info,
            QString("event list binned into frames of %1 s").arg(*roles_.eventFrameTime()));
    else
        log(LogLevel::Warning, path + ": an event list needs a frame time to show its frames "
                                      "(File ▸ Open asks again)");
    return roles_.eventFrameTime().has_value();
}

void Workbench::showOnItsPanel(const QString& path) {
    const Algorithm* stored = AlgorithmRegistry::instance().resultIn(*roles_.file());
    // A file the panel in front can run stays on it (a diffraction file on Spots or Azint).
    const std::string algorithm =
        stored ? stored->id() : roles_.fittingAlgorithm(frontPanel().toStdString());
    if (algorithm.empty()) return;
    emit panelWanted(q(algorithm));
    if (stored) openStoredResult(*stored, path);
}

void Workbench::openStoredResult(const Algorithm& algorithm, const QString& path) {
    AlgorithmPanel* panel = nullptr;
    for (AlgorithmPanel* p :
         parent() ? parent()->findChildren<AlgorithmPanel*>() : QList<AlgorithmPanel*>{})
        if (p->algorithm() == algorithm.id()) panel = p;
    if (!panel) {
        log(LogLevel::Warning,
            QString("%1 holds a %2 result; no panel shows it").arg(path, q(algorithm.id())));
        return;
    }
    QPointer<AlgorithmPanel> target(panel);
    submit(storedResultJob(algorithm, path.toStdString(), panel->storedResultInput(),
                           [this, target, path](const StoredDelivery& stored) {
                               if (!target) return;
                               target->showStoredResult(stored);
                               const RunInfo& info = stored.delivery.result->info;
                               log(LogLevel::Info, QString("opened result of %1 (%2, %3) from %4")
                                                       .arg(q(target->algorithm()), q(info.variant),
                                                            q(info.device), path));
                           }));
}

// Show what a role now points at: frames in the image view, the pixel mask as masked pixels
// (roleChanged: the q-bin labels are drawn by ui/mask/q_bin_labels.hpp). Errors go to the log; the
// role stays assigned.
void Workbench::showRole(DataRole role) {
    try {
        const auto path = roles_.path(role);
        if (role == DataRole::Frames && path) {
            // An event list's frames exist once their width is known: none, nothing shown.
            const bool binned = !roles_.framesAreEvents() || roles_.eventFrameTime() ||
                                askEventFrameTime(q(roles_.fileName()));
            const auto source =
                binned ? openFrameSource(roles_.file(), *path, roles_.eventFrameTime()) : nullptr;
            views_.image->setFrameSource(source);
            if (browser_) browser_->showOccupancy(source.get());
            if (roles_.path(DataRole::PixelMask)) showRole(DataRole::PixelMask);
        } else if (role == DataRole::PixelMask && path) {
            views_.image->setPixelMask(readPixelMask(*roles_.file(), *path).bad);
        }
    } catch (const std::exception& e) {
        log(LogLevel::Error, QString("cannot show %1: %2").arg(q(roleName(role)), e.what()));
    }
    emit roleChanged(role);
}

void Workbench::generateAndOpen(const GenerateRequest& request, const QString& path,
                                std::function<void()> then) {
    Job job;
    job.title = "generate " + request.kind + " → " + path.toStdString();
    job.algorithm = "generate";
    job.device = hostDevice();
    job.work = [this, request, path, then](const Progress& progress) {
        progress.checkCancel();
        JobOutcome outcome;
        outcome.summary = writeGenerated(request, path.toStdString());
        // `then` is queued so that it runs once this job has finished and may submit the next.
        outcome.deliver = [this, path, then] {
            if (openFile(path) && then) QMetaObject::invokeMethod(this, then, Qt::QueuedConnection);
        };
        return outcome;
    };
    submit(std::move(job));
}

const DeviceInfo& Workbench::device() const {
    return views_.devices->currentDevice();
}

std::string Workbench::variant(const std::string& algorithm) const {
    return views_.devices->currentVariant(algorithm);
}

void Workbench::rememberVariant(const std::string& algorithm, const std::string& id) {
    if (!id.empty()) views_.devices->selectVariant(algorithm, id);
}

bool Workbench::submit(Job job) {
    if (runner_.submit(std::move(job))) return true;
    const QString text = runner_.refusal();
    log(LogLevel::Warning, text);
    emit statusMessage(text, 6000);
    return false;
}

void Workbench::setPanelShown(const QString& owner, bool shown) {
    const bool before = isPanelActive(owner);
    shown_.removeAll(owner);
    if (shown) shown_ << owner;
    updatePanelActive(owner, before);
}

void Workbench::setPanelPinned(const QString& owner, bool pinned) {
    const bool before = isPanelActive(owner);
    pinned_.removeAll(owner);
    if (pinned) pinned_ << owner;
    updatePanelActive(owner, before);
}

void Workbench::setGeometry(std::optional<mask::Geometry> geometry) {
    geometry_ = geometry;
    emit geometryChanged();
}

void Workbench::setResolutionRingsShown(bool shown) {
    if (shown == ringsShown_) return;
    ringsShown_ = shown;
    emit resolutionRingsShownChanged(shown);
}

bool Workbench::isPanelActive(const QString& owner) const {
    return shown_.contains(owner) || pinned_.contains(owner);
}

void Workbench::updatePanelActive(const QString& owner, bool before) {
    const bool now = isPanelActive(owner);
    views_.image->setOwnerActive(owner, now);
    if (now != before) emit panelActiveChanged(owner, now);
}

OverlayLayer* Workbench::setOverlay(OverlayData overlay) {
    if (!overlay.owner.isEmpty())
        views_.image->setOwnerActive(overlay.owner, isPanelActive(overlay.owner));
    return views_.image->setOverlay(std::move(overlay));
}

void Workbench::addResultTab(ResultTab tab) {
    views_.results->addTab(std::move(tab));
}

void Workbench::log(LogLevel level, const QString& text) {
    views_.log->append(level, text);
}

} // namespace clscope::ui
