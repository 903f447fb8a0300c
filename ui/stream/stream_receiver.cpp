#include "ui/stream/stream_receiver.hpp"

#include "core/errors.hpp"
#include "core/stream/stream_source.hpp"

#include <QStringList>
#include <cmath>
#include <cstring>

namespace clscope::ui {

namespace {

// The start message's pixel mask as the algorithms take it (non-zero = bad).
PixelMask maskOf(const stream::StartMessage& start) {
    PixelMask m;
    if (!start.pixelMask.size()) return m;
    m.height = start.height, m.width = start.width;
    m.bad.resize(m.height * m.width);
    for (std::size_t i = 0; i < m.bad.size(); ++i)
        m.bad[i] = start.pixelMask.valueAt(i) != 0;
    return m;
}

// Frame i of a (n,H,W) block as (1,H,W).
Array frameOf(const Array& frames, std::size_t i) {
    Array out(frames.dtype(), {1, frames.height(), frames.width()});
    std::memcpy(out.bytes(), frames.bytes() + i * out.byteSize(), out.byteSize());
    return out;
}

} // namespace

StreamReceiver::StreamReceiver(QObject* parent) : QObject(parent) {}

StreamReceiver::~StreamReceiver() {
    stop();
    if (thread_.joinable()) thread_.join();
}

void StreamReceiver::start(StreamRequest request) {
    stop();
    if (thread_.joinable()) thread_.join();
    {
        std::lock_guard lock(mutex_);
        frames_.reset(), analyses_.clear(), algorithms_.clear(), values_.clear();
        curves_.clear(), firstCurve_.clear(), arrivals_.clear();
        pendingParams_.clear();
        context_ = request.context;
        firstCount_ = lastCount_ = 0;
    }
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    running_ = true, timedOut_ = false;
    thread_ = std::thread([this, request = std::move(request)] { receive(request); });
}

void StreamReceiver::stop() {
    if (cancel_) *cancel_ = true;
}

void StreamReceiver::receive(StreamRequest request) {
    QString error;
    try {
        stream::SourceOptions options;
        options.endpoint = request.endpoint;
        options.timeoutSeconds = request.timeoutSeconds;
        options.cancel = cancel_;
        stream::FrameSource source(options);
        LiveContext c = request.context;
        c.height = source.height(), c.width = source.width(), c.dtype = source.dtype();
        c.mask = maskOf(source.start()), c.frameTime = source.start().frameTime;
        c.detector = source.start().detector;
        std::vector<std::unique_ptr<LiveFrameAnalysis>> made;
        std::vector<std::string> algorithms;
        for (const LiveAnalysisSpec& spec : LiveAnalysisRegistry::instance().specs())
            if (spec.perFrame)
                if (auto a = spec.perFrame(c)) {
                    made.push_back(std::move(a));
                    algorithms.push_back(spec.algorithm);
                }
        {
            std::lock_guard lock(mutex_);
            context_ = c;
            analyses_ = std::move(made);
            algorithms_ = std::move(algorithms);
            for (const auto& a : analyses_) {
                firstCurve_.push_back(curves_.size());
                for (LiveQuantity& q : a->quantities())
                    curves_.push_back(std::move(q));
            }
            values_.assign(curves_.size(), {});
            frames_ = std::make_shared<ReceivedFrames>(
                source.start(), source.dtype(), source.describe(), request.memoryBudgetBytes);
        }
        emit connected(QString::fromStdString(source.describe()));
        while (auto part = source.read(16)) {
            const std::size_t first = frames_->frameCount();
            frames_->append(*part);
            arrived(first + part->frameCount());
            analyse(*part, first);
            if (*cancel_) break;
        }
        timedOut_ = source.timedOut();
    } catch (const Cancelled&) {
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    running_ = false;
    emit finished(error, cancel_->load());
}

void StreamReceiver::analyse(const Array& frames, std::size_t first) {
    for (std::size_t i = 0; i < frames.frameCount() && !*cancel_; ++i) {
        applyParams(first + i);
        const Array frame = frameOf(frames, i);
        for (std::size_t a = 0; a < analyses_.size(); ++a) {
            const std::vector<double> v = analyses_[a]->analyse(frame, first + i);
            const std::size_t end = a + 1 < analyses_.size() ? firstCurve_[a + 1] : curves_.size();
            std::lock_guard lock(mutex_);
            for (std::size_t c = firstCurve_[a]; c < end; ++c) {
                const std::size_t k = c - firstCurve_[a];
                values_[c].push_back(k < v.size() ? v[k] : std::nan(""));
            }
        }
    }
}

void StreamReceiver::setParams(const std::string& algorithm, ParamSet params) {
    std::lock_guard lock(mutex_);
    context_.params[algorithm] = params;
    pendingParams_[algorithm] = std::move(params);
}

void StreamReceiver::applyParams(std::size_t frame) {
    std::map<std::string, ParamSet> pending;
    {
        std::lock_guard lock(mutex_);
        pending.swap(pendingParams_);
    }
    for (const auto& [algorithm, params] : pending) {
        bool took = false;
        for (std::size_t a = 0; a < analyses_.size(); ++a)
            if (algorithms_[a] == algorithm) took = analyses_[a]->setParams(params) || took;
        if (took) emit retuned(QString::fromStdString(algorithm), frame);
    }
}

QString StreamReceiver::settings() const {
    QStringList parts;
    for (const auto& a : analyses_)
        if (const QString s = a->settings(); !s.isEmpty()) parts << s;
    return parts.join("; ");
}

void StreamReceiver::arrived(std::size_t count) {
    std::lock_guard lock(mutex_);
    lastAt_ = std::chrono::steady_clock::now(), lastCount_ = count;
    arrivals_.resize(count, lastAt_);
    if (firstCount_ == 0) firstAt_ = lastAt_, firstCount_ = count;
}

double StreamReceiver::seriesRate() const {
    std::lock_guard lock(mutex_);
    const double seconds = std::chrono::duration<double>(lastAt_ - firstAt_).count();
    return lastCount_ > firstCount_ && seconds > 0 ? double(lastCount_ - firstCount_) / seconds : 0;
}

std::shared_ptr<const ReceivedFrames> StreamReceiver::frames() const {
    std::lock_guard lock(mutex_);
    return frames_;
}

LiveContext StreamReceiver::context() const {
    std::lock_guard lock(mutex_);
    return context_;
}

std::vector<std::vector<double>> StreamReceiver::values(std::size_t from) const {
    std::lock_guard lock(mutex_);
    std::vector<std::vector<double>> out;
    for (const auto& v : values_)
        out.emplace_back(v.begin() + std::ptrdiff_t(std::min(from, v.size())), v.end());
    return out;
}

std::chrono::steady_clock::time_point StreamReceiver::arrival(std::size_t index) const {
    std::lock_guard lock(mutex_);
    return arrivals_.at(index);
}

std::size_t StreamReceiver::framesAnalysed() const {
    std::lock_guard lock(mutex_);
    if (values_.empty()) return frames_ ? frames_->frameCount() : 0;
    std::size_t n = values_[0].size();
    for (const auto& v : values_)
        n = std::min(n, v.size());
    return n;
}

} // namespace clscope::ui
