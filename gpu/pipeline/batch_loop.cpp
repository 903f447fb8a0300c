#include "gpu/pipeline/batch_loop.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "gpu/runtime/session.hpp"

#include <chrono>

namespace clscope::pipeline {

namespace {

using Clock = std::chrono::steady_clock;

// A decoder's InputError about batch frame K, named as the feed's image.
template <class F> void namingImages(const FrameFeed& feed, std::size_t first, F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        throw InputError(imageError(feed, first, e.what()));
    }
}

} // namespace

void runBatches(const TakeBatch& take, BatchWriter& writer, FrameStage& stage, ClSession& session,
                const FrameFeed& feed, const Progress& progress, BatchTimes& times,
                const std::function<void(std::size_t, std::size_t)>& done) {
    auto takePrepared = [&] {
        auto t = Clock::now();
        std::pair<Taken, std::size_t> next = take();
        times.waitMs += msSince(t);
        if (next.first.count() == 0) return next;
        t = Clock::now();
        Taken& taken = next.first;
        namingImages(feed, next.second, [&] { taken.prepared = writer.prepare(taken.frames); });
        times.prepareMs += msSince(t);
        return next;
    };
    for (std::pair<Taken, std::size_t> current = takePrepared(); current.first.count() > 0;) {
        progress.checkCancel();
        Taken& taken = current.first;
        const std::size_t first = current.second, n = taken.count();
        auto t = Clock::now();
        writeTaken(writer, taken, stage.frameBuffer(), feed, first);
        times.writeMs += msSince(t);
        std::pair<Taken, std::size_t> next = takePrepared();
        t = Clock::now();
        stage.process(first, n);
        if (taken.prepared) namingImages(feed, first, [&] { writer.check(*taken.prepared); });
        writer.batchDone();
        session.finish();
        times.processMs += msSince(t);
        ++times.batches, times.frames += n;
        done(first, n);
        current = std::move(next);
    }
}

} // namespace clscope::pipeline
