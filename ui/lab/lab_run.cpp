#include "ui/lab/lab_run.hpp"
#include "ui/base/qstring.hpp"

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/json_parse.hpp"
#include "gpu/algorithm.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <csignal>
#include <unistd.h>

namespace clscope::ui {

namespace {

std::string withoutPrefix(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : std::string();
}

} // namespace

LabRun::LabRun(QObject* parent) : QObject(parent) {}

LabRun::~LabRun() {
    cancel();
}

QString LabRun::cliPath() {
    const QString set = qEnvironmentVariable("CLSCOPE_CLI");
    if (!set.isEmpty()) return set;
    const QString beside = QCoreApplication::applicationDirPath() + "/clscope-cli";
    return QFileInfo(beside).isExecutable() ? beside : QString("clscope-cli");
}

QString LabRun::start(LabOptions options, const QString& source) {
    if (running()) return "a lab run is under way";
    if (!dir_.isValid()) return "cannot make a temporary folder for the lab";
    options.sourceFile = dir_.filePath("fork.cl").toStdString();
    try {
        writeFileAtomically(options.sourceFile, source.toStdString());
        LabPlan(AlgorithmRegistry::instance().find(options.algorithm), options); // usage check
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    outcome_ = LabOutcome{};
    outcome_.options = options;
    QFile::remove(dir_.filePath("rows.json"));
    QDir(dir_.filePath("binary")).removeRecursively();
    process_ = new QProcess(this);
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        collect(code, status == QProcess::CrashExit);
    });
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) collect(-1, true);
    });
    // A group of its own: cancel() ends the CLI and the worker it started together.
    process_->setChildProcessModifier([] { ::setpgid(0, 0); });
    clock_.start();
    process_->start(cliPath(), arguments());
    return {};
}

QStringList LabRun::arguments() const {
    const LabOptions& o = outcome_.options;
    QStringList a{"lab", q(o.algorithm), "--from", q(o.from), "--source", q(o.sourceFile)};
    if (!o.program.empty()) a << "--program" << q(o.program);
    if (!o.input.empty())
        a << q(o.input);
    else
        a << "--size" << q(o.size);
    if (!o.device.empty()) a << "--device" << q(o.device);
    if (!o.params.empty()) a << "--params" << q(o.params);
    for (const auto& [name, value] : o.tuning)
        a << "--tune" << q(name + "=" + std::to_string(value));
    for (const std::string& set : o.sets)
        a << "--set" << q(set);
    if (!o.sweep.empty()) a << "--sweep" << q(o.sweep);
    if (o.coldCache) a << "--cold-cache";
    if (o.noCache) a << "--no-cache";
    a << "--repeat" << QString::number(o.repeat) << "--kernel-timeout"
      << QString::number(o.kernelTimeout) << "--json" << dir_.filePath("rows.json") << "--binary"
      << dir_.filePath("binary");
    return a;
}

bool LabRun::running() const {
    return process_ != nullptr;
}

qint64 LabRun::processId() const {
    return process_ ? process_->processId() : 0;
}

void LabRun::cancel() {
    if (!process_) return;
    process_->disconnect(this);
    if (const qint64 pid = process_->processId(); pid > 0) ::kill(-pid_t(pid), SIGKILL);
    process_->waitForFinished(5000);
    outcome_.error = "cancelled";
    process_->deleteLater();
    process_ = nullptr;
}

void LabRun::collect(int exitCode, bool crashed) {
    if (!process_) return;
    outcome_.wallSeconds = clock_.elapsed() / 1000.0;
    outcome_.exitCode = crashed ? -1 : exitCode;
    outcome_.errorOutput = QString::fromUtf8(process_->readAllStandardError());
    if (process_->error() == QProcess::FailedToStart)
        outcome_.error = "cannot start " + cliPath() + ": " + process_->errorString();
    process_->deleteLater();
    process_ = nullptr;
    QFile json(dir_.filePath("rows.json"));
    if (json.open(QIODevice::ReadOnly)) {
        const auto parsed = parseJsonQuietly(json.readAll().toStdString());
        if (!parsed.is_discarded()) outcome_.rows = parsed.value("rows", nlohmann::json::array());
    }
    for (nlohmann::json& row : outcome_.rows) // a row that did not run names no device
        if (row.value("device", "").empty()) row["device"] = outcome_.options.device;
    if (outcome_.rows.empty() && outcome_.error.isEmpty())
        outcome_.error = outcome_.errorOutput.trimmed().isEmpty()
                             ? QString("clscope-cli lab ended with exit code %1").arg(exitCode)
                             : outcome_.errorOutput.trimmed();
    mapBuildMessages();
    emit finished();
}

// A row that did not build carries the driver's log in its note ("build: ..."): its messages
// at the lines of the edited program, as the plan maps them for the CLI's stderr.
void LabRun::mapBuildMessages() {
    if (outcome_.rows.empty()) return;
    try {
        const LabPlan plan(AlgorithmRegistry::instance().find(outcome_.options.algorithm),
                           outcome_.options);
        const std::vector<LabJob> jobs = plan.jobs();
        for (std::size_t i = 1; i < outcome_.rows.size() && i < jobs.size(); ++i) {
            const std::string log = withoutPrefix(outcome_.rows[i].value("note", ""), "build: ");
            for (BuildMessage& m : buildMessages(log, plan.sourcePartsOf(jobs[i])))
                if (m.mapped && m.file == outcome_.options.sourceFile)
                    outcome_.buildMessages.push_back(std::move(m));
            if (!outcome_.buildMessages.empty()) return; // one fork's log (sweeps share it)
        }
    } catch (const std::exception&) { // the source went away: the rows stand without
    }
}

} // namespace clscope::ui
