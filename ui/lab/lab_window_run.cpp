// LabWindow's work: fork, run (through LabRun), the outcome shown, and Keep best.
#include "core/errors.hpp"
#include "gpu/variant/user_variants.hpp"
#include "ui/lab/build_log_list.hpp"
#include "ui/lab/code_editor.hpp"
#include "ui/lab/compiled_output_view.hpp"
#include "ui/lab/lab_history.hpp"
#include "ui/lab/lab_history_view.hpp"
#include "ui/lab/lab_kernels_table.hpp"
#include "ui/lab/lab_roofline_plot.hpp"
#include "ui/lab/lab_rows_table.hpp"
#include "ui/lab/lab_run.hpp"
#include "ui/lab/lab_window.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>

namespace clscope::ui {

namespace {

std::string text(const QComboBox* combo) {
    return combo->currentData().toString().toStdString();
}

// A fork that built: its programs' build logs where they say something (NVIDIA's verbose one:
// registers and spills), else that there was nothing to say.
QString builtLogText(const nlohmann::json& row) {
    QString text;
    for (const nlohmann::json& p : row.value("programs", nlohmann::json::array()))
        if (const QString log = QString::fromStdString(p.value("build_log", "")).trimmed();
            !log.isEmpty())
            text += QString::fromStdString(p.value("program", "")) + ":\n" + log + "\n";
    return text.isEmpty() ? "Built without messages." : "Built.\n" + text.trimmed();
}

} // namespace

bool LabWindow::choose(const QString& algorithm, const QString& variant, const QString& program) {
    const int a = algorithm_->findData(algorithm);
    if (a < 0) return false;
    algorithm_->setCurrentIndex(a);
    fillVariants(); // user variants saved since are offered too
    const int v = variant_->findData(variant);
    if (v < 0) return false;
    variant_->setCurrentIndex(v);
    fillPrograms();
    if (program.isEmpty()) return true;
    const int p = program_->findText(program);
    if (p >= 0) program_->setCurrentIndex(p);
    return p >= 0;
}

LabOptions LabWindow::options() const {
    LabOptions o;
    o.algorithm = text(algorithm_), o.from = text(variant_);
    o.program = program_->currentText().toStdString();
    o.device = text(device_), o.size = size_->currentText().toStdString();
    o.repeat = repeat_->value(), o.kernelTimeout = timeout_->value();
    o.coldCache = coldCache_->isChecked();
    o.sweep = sweep_->text().trimmed().toStdString();
    o.params = params_->text().trimmed().toStdString();
    return o;
}

QString LabWindow::fork() {
    try {
        LabOptions o = options();
        o.sweep.clear();
        const LabPlan plan(AlgorithmRegistry::instance().find(o.algorithm), o);
        const TunableValues host = hostTunablesOf(plan.jobs().front());
        editor_->setPlainText(QString::fromStdString(plan.printSource(host)));
        editor_->setMarks({});
        buildLog_->showText("Forked " + QString::fromStdString(o.from + " (" + o.program + ")") +
                            ": edit, then Save & run (Ctrl+S).");
        setStatus("Forked " + QString::fromStdString(o.from));
        return {};
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

QString LabWindow::saveAndRun() {
    if (editor_->toPlainText().trimmed().isEmpty()) return "Fork a variant first.";
    const QString why = run_->start(options(), editor_->toPlainText());
    if (!why.isEmpty()) return why;
    runButton_->setEnabled(false), cancelButton_->setEnabled(true);
    keepButton_->setEnabled(false);
    setStatus("Building, checking and timing in the background (clscope-cli lab)");
    ticker_->start(1000);
    return {};
}

void LabWindow::cancelRun() {
    run_->cancel();
    ticker_->stop();
    runButton_->setEnabled(true), cancelButton_->setEnabled(false);
    setStatus("Cancelled; the edits are kept.");
}

bool LabWindow::running() const {
    return run_->running();
}

const LabOutcome& LabWindow::outcome() const {
    return run_->outcome();
}

QString LabWindow::status() const {
    return status_->text();
}

void LabWindow::setStatus(const QString& text) {
    status_->setText(text);
    status_->setToolTip(text);
}

void LabWindow::setDevice(const QString& spec) {
    device_->setCurrentIndex(std::max(0, device_->findData(spec)));
}
void LabWindow::setRepeat(int repeat) {
    repeat_->setValue(repeat);
}
void LabWindow::setKernelTimeout(double seconds) {
    timeout_->setValue(seconds);
}
void LabWindow::setSweep(const QString& sweep) {
    sweep_->setText(sweep);
}
void LabWindow::setColdCache(bool cold) {
    coldCache_->setChecked(cold);
}
void LabWindow::setParams(const QString& json) {
    params_->setText(json);
}

void LabWindow::showOutcome() {
    ticker_->stop();
    runButton_->setEnabled(true), cancelButton_->setEnabled(false);
    const LabOutcome& o = run_->outcome();
    const int best = o.bestForkRow();
    rows_->showRows(o.rows, best);
    rowDetails_->setText(rows_->details(rows_->firstProblem()));
    kernels_->showRows(o.rows);
    compiled_->showRows(o.rows);
    roofline_->showRows(o.rows);
    showBuildLog(o);
    if (!o.rows.empty()) history_->record(o.rows, o.options.from);
    keepButton_->setEnabled(best >= 0);
    QStringList failed; // the rows that did not pass, in a word each
    for (const nlohmann::json& r : o.rows)
        if (const std::string result = LabHistory::resultOf(r); result != "pass")
            failed << QString::fromStdString(r.value("label", "") + ": " + result);
    setStatus(o.rows.empty()
                  ? "Not run: " + o.error.section('\n', 0, 0)
                  : QString("Done in %1 s (exit %2)%3")
                        .arg(o.wallSeconds, 0, 'f', 1)
                        .arg(o.exitCode)
                        .arg(failed.isEmpty() ? ", every row passed" : "; " + failed.join(", ")));
    emit runFinished();
}

void LabWindow::showBuildLog(const LabOutcome& o) {
    QMap<int, QString> marks;
    for (const BuildMessage& m : o.buildMessages)
        if (!marks.contains(int(m.line)) || m.kind.find("error") != std::string::npos)
            marks[int(m.line)] = QString::fromStdString(m.kind);
    editor_->setMarks(marks);
    if (!o.buildMessages.empty()) {
        buildLog_->showMessages(o.buildMessages);
        editor_->goToLine(int(o.buildMessages.front().line));
        return;
    }
    const bool built = o.rows.size() > 1 && o.rows[1].value("ran", false);
    buildLog_->showText(o.rows.empty() ? "Not run: " + o.error
                        : built        ? builtLogText(o.rows[1])
                                       : QString::fromStdString(o.rows.back().value("note", "")));
}

QString LabWindow::keepBest(const QString& name, QString* error) {
    const LabOutcome& o = run_->outcome();
    const int best = o.bestForkRow();
    if (best < 0) {
        *error = "No fork row of the last run passed its check: nothing to keep.";
        return {};
    }
    try {
        LabOptions options = o.options;
        options.save = name.trimmed().toStdString();
        if (options.save.empty()) throw UsageError("give the user variant a name");
        const LabPlan plan(AlgorithmRegistry::instance().find(options.algorithm), options);
        const auto path = saveUserVariant(plan.toSave(plan.jobs().at(std::size_t(best))));
        emit userVariantSaved(QString::fromStdString(options.algorithm),
                              QString::fromStdString("user:" + options.save));
        const QString keep = variant_->currentData().toString();
        fillVariants();
        variant_->setCurrentIndex(std::max(0, variant_->findData(keep)));
        return QString::fromStdString(path.string());
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return {};
    }
}

} // namespace clscope::ui
