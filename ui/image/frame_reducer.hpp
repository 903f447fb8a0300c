// Runs frame reductions for the image view on a worker thread of its own (not the algorithm
// JobRunner: a reduction neither waits for nor blocks a run). Progress and the result come
// back to the GUI thread through queued calls; a new request supersedes (cancels) the one
// under way, so dragging a range never queues work.
#pragma once
#include "ui/image/frame_reduction.hpp"

#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <cstdint>
#include <memory>

namespace clscope::ui {

class FrameReducer : public QObject {
    Q_OBJECT
  public:
    explicit FrameReducer(QObject* parent = nullptr);
    ~FrameReducer() override; // cancels the reduction under way and waits for the worker

    // Reduce the selected frames of source (selection in range) on the worker thread.
    void start(std::shared_ptr<const FrameSource> source, ImageSelection selection);
    bool isBusy() const { return busy_; }
    // The selection being reduced (meaningful while busy).
    const ImageSelection& pending() const { return pending_; }

  public slots:
    // Stop the reduction under way (emits cancelled); its result, if any, is dropped.
    void cancel();
    // The same without a signal (the caller moves on to something else).
    void discard();

  signals:
    void progressed(double fraction);
    void finished(const clscope::ui::ImageSelection& selection, const clscope::ui::Image& image);
    void cancelled();
    void failed(const QString& message);

  private:
    void runOnWorker(std::uint64_t generation, const std::shared_ptr<std::atomic<bool>>& cancelFlag,
                     const std::shared_ptr<const FrameSource>& source,
                     const ImageSelection& selection);
    void finishOnGui(std::uint64_t generation, const std::shared_ptr<Image>& image);
    void failOnGui(std::uint64_t generation, const QString& message);

    QThreadPool pool_; // one thread: a superseded reduction stops at its next chunk
    std::shared_ptr<std::atomic<bool>> cancelFlag_;
    std::uint64_t generation_ = 0; // GUI thread only; results of older generations are dropped
    bool busy_ = false;
    ImageSelection pending_;
};

} // namespace clscope::ui
