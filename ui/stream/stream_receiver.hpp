// Receives one series of a detector stream off the GUI thread (core/stream FrameSource: its
// bounded queue, its timeout): the frames go into ReceivedFrames and through the per-frame
// analyses, in order. stop() returns at once; the thread ends within about 0.1 s plus the
// frame being analysed, and the destructor waits for it.
#pragma once
#include "ui/kit/live_analysis.hpp"
#include "ui/stream/received_frames.hpp"

#include <QObject>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace clscope::ui {

struct StreamRequest {
    std::string endpoint;              // tcp://HOST:PORT
    double timeoutSeconds = 30;        // no message for this long ends the series as bad input
    std::size_t memoryBudgetBytes = 0; // frames kept (ReceivedFrames; 0: its default)
    LiveContext context;               // device, variants, labels (the rest from the start message)
};

class StreamReceiver : public QObject {
    Q_OBJECT
  public:
    explicit StreamReceiver(QObject* parent = nullptr);
    ~StreamReceiver() override;
    // Starts receiving (a series already under way is stopped first).
    void start(StreamRequest request);
    void stop(); // returns at once; finished() follows
    bool isRunning() const { return running_; }
    // The last series ended by the timeout's silence, not by its end message.
    bool timedOut() const { return timedOut_; }

    // Null until the start message came.
    std::shared_ptr<const ReceivedFrames> frames() const;
    LiveContext context() const; // the request's, with the start message's fields
    // The per-frame analyses (made once the start message came), their curves (every
    // analysis' quantities, in order) and the numbers so far: values()[c][i] is curve c's number
    // for frame i (NaN: none).
    const std::vector<std::unique_ptr<LiveFrameAnalysis>>& analyses() const { return analyses_; }
    const std::vector<LiveQuantity>& curves() const { return curves_; }
    std::vector<std::vector<double>> values(std::size_t from = 0) const; // frames from `from` on
    std::size_t framesAnalysed() const;
    // When frame `index` came off the socket (its batch's read).
    std::chrono::steady_clock::time_point arrival(std::size_t index) const;
    // Frames a second over the series so far: those after the first batch read, over the time
    // from its arrival to the last one's (0 before two batches came).
    double seriesRate() const;
    // The algorithm's per-frame analyses run with `params` from the next frame on (retuned()
    // says from which).
    void setParams(const std::string& algorithm, ParamSet params);
    // What the per-frame analyses run with (LiveFrameAnalysis::settings), "; "-separated.
    QString settings() const;

  signals:
    void connected(const QString& description); // the start message and first image came
    // The series ended (error empty), was stopped (stopped) or failed (error).
    void finished(const QString& error, bool stopped);
    // The analyses of `algorithm` took the parameters setParams gave from frame `first` on.
    void retuned(const QString& algorithm, qulonglong first);

  private:
    void receive(StreamRequest request);
    void analyse(const Array& frames, std::size_t first);
    void arrived(std::size_t count);     // a batch came: `count` frames so far
    void applyParams(std::size_t frame); // the parameters setParams gave, from `frame` on
    std::thread thread_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::atomic<bool> running_ = false, timedOut_ = false;
    mutable std::mutex mutex_;
    std::shared_ptr<ReceivedFrames> frames_;
    LiveContext context_;
    std::vector<std::unique_ptr<LiveFrameAnalysis>> analyses_;
    std::vector<std::string> algorithms_; // of each analysis
    std::vector<LiveQuantity> curves_;
    std::vector<std::size_t> firstCurve_;           // of each analysis, in curves_
    std::map<std::string, ParamSet> pendingParams_; // from setParams, not yet taken
    std::vector<std::vector<double>> values_;
    std::chrono::steady_clock::time_point firstAt_, lastAt_;      // batches' arrivals
    std::size_t firstCount_ = 0, lastCount_ = 0;                  // frames then
    std::vector<std::chrono::steady_clock::time_point> arrivals_; // of each frame
};

} // namespace clscope::ui
