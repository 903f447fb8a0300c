// XpcsPanel runs: one job per checked variant, submitted one after another through the job
// runner; each delivers its result to the presenter, the first builds the result tabs.
#include "core/mask/partition.hpp"
#include "core/xpcs/xpcs_io.hpp"
#include "ui/image/image_view.hpp"
#include "ui/shell/workbench.hpp"
#include "ui/xpcs/xpcs_fit_form.hpp"
#include "ui/xpcs/xpcs_g2_view.hpp"
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui/xpcs/xpcs_views.hpp"

#include <QDockWidget>
#include <QLabel>
#include <QTabWidget>
#include <cmath>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

namespace clscope::ui {

struct XpcsPanel::Batch {
    XpcsRunRequest request;
    std::size_t next = 0;                     // index of the next variant to submit
    std::shared_ptr<const Array> frames;      // read by the first job, shared by the rest
    std::optional<std::vector<double>> binQ;  // q of each bin, when known
    QString labelsOrigin;
};

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// The library's parameters plus where the inputs came from (DESIGN.md §3 provenance).
std::string provenanceJson(const xpcs::Result& result, const XpcsRunRequest& request, const QString& labelsOrigin) {
    nlohmann::json json = nlohmann::json::parse(result.parametersJson, nullptr, false);
    if (!json.is_object()) json = nlohmann::json::object();
    json["frames_file"] = request.file ? request.file->fileName() : "";
    json["frames_path"] = request.framesPath;
    json["first_frame"] = request.firstFrame;
    json["frame_count"] = result.frames;
    json["labels"] = labelsOrigin.toStdString();
    return json.dump();
}

} // namespace

bool XpcsPanel::run() {
    if (batch_) {
        wb_.log(LogLevel::Warning, "XPCS: a run is in progress; wait for it or cancel it (Esc)");
        return false;
    }
    auto batch = std::make_shared<Batch>();
    try {
        batch->request = request();
        checkRequest(batch->request);
    } catch (const InputError& e) {
        wb_.log(LogLevel::Error, QString("XPCS: %1").arg(e.what()));
        emit wb_.statusMessage(QString("XPCS: %1").arg(e.what()), 8000);
        return false;
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("XPCS: %1").arg(e.what()));
        return false;
    }
    batch->labelsOrigin = labelsOrigin_;
    batch->binQ = binQ(batch->request.labels->bins());
    batch_ = batch;
    runButton_->setEnabled(false);
    wb_.results().removeTab("Compare");
    wb_.results().removeTab("Two-time");
    submitNext();
    return batch_ != nullptr;
}

void XpcsPanel::submitNext() {
    if (!batch_) return;
    auto batch = batch_;
    const std::string variant = batch->request.variants.at(batch->next++);
    const bool last = batch->next == batch->request.variants.size();
    Job job;
    job.device = deviceFor(batch->request, variant);
    job.title = "xpcs " + variant + " on " + job.device.spec;
    job.algorithm = "xpcs";
    job.variant = variant;
    job.work = [this, batch, variant, last, device = job.device](const Progress& progress) {
        if (!batch->frames) batch->frames = std::make_shared<const Array>(loadFrames(batch->request));
        progress.checkCancel();
        XpcsRun run{runVariant(batch->request, variant, *batch->frames, progress),
                    device.spec + " " + device.name};
        run.result.parametersJson = provenanceJson(run.result, batch->request, batch->labelsOrigin);
        JobOutcome outcome;
        outcome.timings = run.result.timings.records();
        outcome.summary = QString("%1 bins, %2 frames, kernel %3 ms")
                              .arg(run.result.binCount())
                              .arg(run.result.frames)
                              .arg(run.result.kernelMs, 0, 'f', 1)
                              .toStdString();
        auto shared = std::make_shared<XpcsRun>(std::move(run));
        outcome.deliver = [this, shared, last] {
            deliver(std::move(*shared));
            // Queued: the runner is free again when the next variant is submitted.
            QMetaObject::invokeMethod(this, last ? std::function<void()>([this] { finishBatch(true); })
                                                 : std::function<void()>([this] { submitNext(); }),
                                      Qt::QueuedConnection);
        };
        return outcome;
    };
    if (!wb_.submit(std::move(job))) finishBatch(false);
}

void XpcsPanel::deliver(XpcsRun run) {
    if (!batch_) return;
    if (batch_->next == 1) {
        presenter_ = std::make_shared<XpcsPresenter>();
        presenter_->setFitOptions(fitForm_->options());
        presenter_->setRuns({std::move(run)});
        presenter_->setBinQ(batch_->binQ);
        showTabs();
    } else {
        presenter_->addRun(std::move(run));
        showCompareTab();
    }
}

void XpcsPanel::finishBatch(bool ok) {
    batch_.reset();
    runButton_->setEnabled(true);
    if (ok && g2View_) {
        // Bring the g2 plot to the front once every variant is in.
        wb_.results().tabWidget()->setCurrentWidget(g2View_);
        if (auto* dock = qobject_cast<QDockWidget*>(wb_.results().parentWidget())) dock->raise();
    }
    emit runFinished(ok);
}

// q of each bin: the current labels' centres, else /entry/processing/qmask_q of the file.
std::optional<std::vector<double>> XpcsPanel::binQ(const std::vector<std::int32_t>& labels) const {
    try {
        const CurrentLabels current = wb_.currentLabels();
        if (current.centres) {
            std::vector<double> out;
            for (std::int32_t label : labels) {
                const auto& ids = current.centres->labelIds;
                const auto it = std::find(ids.begin(), ids.end(), label);
                if (it == ids.end()) return std::nullopt;
                out.push_back(current.centres->q.at(static_cast<std::size_t>(it - ids.begin())));
            }
            return out;
        }
        if (current.origin != "mask editor" && wb_.dataset().file())
            return xpcs::readBinQ(*wb_.dataset().file(), labels.size());
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Warning, QString("XPCS: q of the bins not used: %1").arg(e.what()));
    }
    return std::nullopt;
}

void XpcsPanel::showTabs() {
    const xpcs::Result& r = presenter_->reference();
    const QString title = QString("%1 on %2, frames %3–%4")
                              .arg(q(r.variant), q(presenter_->runs().front().deviceLabel))
                              .arg(batch_->request.firstFrame)
                              .arg(batch_->request.firstFrame + r.frames - 1);
    auto presenter = presenter_;
    g2View_ = new XpcsG2View(presenter, title);
    wb_.addResultTab({"g2(τ)", g2View_, g2View_->plot(),
                      [presenter](H5Writer& out) { xpcs::writeResult(out, presenter->reference()); },
                      [presenter] { return presenter->csv(); }});
    fitsView_ = new XpcsFitsView(presenter);
    wb_.addResultTab({"Fits", fitsView_, nullptr, {}, [presenter] { return presenter->fitsCsv(); }});
    rateView_ = new XpcsRateView(presenter);
    wb_.addResultTab({"Γ vs q", rateView_, presenter->hasQ() ? rateView_->plot() : nullptr, {}, {}});
    if (!r.twotime.empty()) {
        QCustomPlot* twotime = makeTwoTimePlot(r, r.twotime.begin()->first);
        wb_.addResultTab({"Two-time", twotime, twotime, {}, {}});
    }
}

void XpcsPanel::showCompareTab() {
    const auto rows = presenter_->comparison();
    wb_.addResultTab({"Compare", makeCompareTable(rows), nullptr, {}, [rows] { return compareCsv(rows); }});
}

void XpcsPanel::refit() {
    if (presenter_->empty()) return;
    presenter_->setFitOptions(fitForm_->options());
    if (g2View_) g2View_->refresh();
    if (fitsView_) fitsView_->refresh();
    if (rateView_) rateView_->refresh();
}

} // namespace clscope::ui
