#include "ui/image/frame_reducer.hpp"

#include "core/errors.hpp"

#include <QMetaObject>

namespace clscope::ui {

FrameReducer::FrameReducer(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1);
    pool_.setObjectName("clscope frame reducer");
}

FrameReducer::~FrameReducer() {
    discard();
    pool_.waitForDone();
}

// Raise the cancel flag of the reduction under way and drop whatever it still sends.
void FrameReducer::discard() {
    if (cancelFlag_) cancelFlag_->store(true);
    cancelFlag_.reset();
    ++generation_;
    busy_ = false;
}

void FrameReducer::start(std::shared_ptr<const FrameSource> source, ImageSelection selection) {
    discard();
    busy_ = true;
    pending_ = selection;
    cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
    emit progressed(0.0);
    pool_.start([this, generation = generation_, flag = cancelFlag_, source = std::move(source),
                 selection] { runOnWorker(generation, flag, source, selection); });
}

void FrameReducer::cancel() {
    if (!busy_) return;
    discard();
    emit cancelled();
}

// Runs on the worker thread: progress is throttled to whole percents and queued to the GUI.
void FrameReducer::runOnWorker(std::uint64_t generation,
                               const std::shared_ptr<std::atomic<bool>>& cancelFlag,
                               const std::shared_ptr<const FrameSource>& source,
                               const ImageSelection& selection) {
    int lastPercent = -1;
    const Progress progress(
        [this, generation, &lastPercent](double fraction) {
            const int percent = static_cast<int>(fraction * 100.0);
            if (percent == lastPercent) return;
            lastPercent = percent;
            QMetaObject::invokeMethod(
                this,
                [this, generation, fraction] {
                    if (generation == generation_) emit progressed(fraction);
                },
                Qt::QueuedConnection);
        },
        cancelFlag.get());
    try {
        auto image = std::make_shared<Image>(reduceSelection(*source, selection, progress));
        QMetaObject::invokeMethod(
            this, [this, generation, image] { finishOnGui(generation, image); },
            Qt::QueuedConnection);
    } catch (const Cancelled&) {
        // superseded or cancelled: the GUI side has already moved on
    } catch (const std::bad_alloc&) {
        QMetaObject::invokeMethod(
            this, [this, generation] { failOnGui(generation, "out of host memory"); },
            Qt::QueuedConnection);
    } catch (const std::exception& e) {
        const QString message = QString::fromUtf8(e.what());
        QMetaObject::invokeMethod(
            this, [this, generation, message] { failOnGui(generation, message); },
            Qt::QueuedConnection);
    }
}

void FrameReducer::finishOnGui(std::uint64_t generation, const std::shared_ptr<Image>& image) {
    if (generation != generation_) return;
    busy_ = false;
    cancelFlag_.reset();
    emit finished(pending_, *image);
}

void FrameReducer::failOnGui(std::uint64_t generation, const QString& message) {
    if (generation != generation_) return;
    busy_ = false;
    cancelFlag_.reset();
    emit failed(message);
}

} // namespace clscope::ui
