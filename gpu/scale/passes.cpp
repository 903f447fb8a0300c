#include "gpu/scale/passes.hpp"
#include "core/clock.hpp"

#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "core/input/provenance.hpp"
#include "core/limits.hpp"
#include "core/stream/live_frames.hpp"
#include "gpu/pipeline/file_feed.hpp"
#include "gpu/pipeline/stack_feed.hpp"
#include "gpu/pipeline/stream_pipeline.hpp"
#include "gpu/runtime/staging.hpp"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>

namespace clscope {

namespace {

using Clock = std::chrono::steady_clock;
// One RunInfo for the joined passes: the first pass's device and variant, times summed.
void fillInfo(RunInfo& info, const std::vector<std::shared_ptr<AlgorithmResult>>& passes,
              const RunRequest& request, const nlohmann::json& provenance) {
    const RunInfo first = passes.front()->info;
    info = first;
    info.kernelMs = info.wallMs = 0, info.timings.clear();
    for (const auto& pass : passes) {
        info.kernelMs += pass->info.kernelMs, info.wallMs += pass->info.wallMs;
        info.timings.insert(info.timings.end(), pass->info.timings.begin(),
                            pass->info.timings.end());
    }
    info.parametersJson = runProvenance(request, provenance);
}

} // namespace

std::uint64_t budgetBytes(std::uint64_t count, std::uint64_t elementBytes,
                          const std::string& what) {
    if (elementBytes && count > UINT64_MAX / elementBytes)
        throw InputError(what + ": size does not fit 64 bits (damaged input?)");
    return count * elementBytes;
}

// Whether a file's frames go through the streaming pipeline: CLSCOPE_FILE_PIPELINE=0 says no
// (the file is read whole or in passes, as a run without a stream stage reads it: to compare).
static bool filePipeline() {
    const char* env = std::getenv("CLSCOPE_FILE_PIPELINE");
    return !(env && std::string(env) == "0");
}

// The frames a streaming run takes: a live stream's, or a file stack's read front to back (a
// stack of compressed single-frame chunks as their bytes, decoded on the device; any other
// layout decoded by libhdf5); null where the stack is held in memory (the run reads it whole).
static std::unique_ptr<pipeline::FrameFeed> streamFeed(const Algorithm& algorithm,
                                                       const InputSources& sources) {
    if (sources.live) return pipeline::liveFeed(*sources.live);
    if (!filePipeline()) return nullptr;
    for (const InputRole& role : algorithm.inputRoles()) {
        if (!role.stack) continue;
        if (auto chunks = pipeline::FileFeed::open(sources, role)) return chunks;
        return pipeline::StackFeed::open(sources, role);
    }
    return nullptr;
}

// The stage of a run through the streaming pipeline on `device` (its only device), if any.
static std::unique_ptr<pipeline::FrameStage> stageOn(const Algorithm& algorithm, RunRequest request,
                                                     const DeviceInfo& device) {
    request.device = device;
    return algorithm.streamStage(request, {device});
}

bool streamsLive(const Algorithm& algorithm, const RunRequest& request,
                 const std::vector<DeviceInfo>& devices) {
    if (devices.size() == 1) return algorithm.streamStage(request, devices) != nullptr;
    for (const DeviceInfo& device : devices)
        if (const auto stage = stageOn(algorithm, request, device);
            !stage || !stage->mergesFrames())
            return false;
    return !devices.empty();
}

// Whether a file's frames go over several devices' pipelines: stored as compressed chunks
// (each device decodes its own), two batches or more for each device; else the run goes
// through passes, split as runOnDevices splits (a small one whole, saying why).
static bool fileOverDevices(const pipeline::FrameFeed& feed,
                            const std::vector<pipeline::FrameStage*>& stages,
                            const std::vector<DeviceInfo>& devices, std::uint64_t budget) {
    if (feed.stacked()) return false;
    const std::size_t batch =
        pipeline::batchOnDevices(stages, devices, feed.format(), feed.frameCount(), budget);
    return feed.frameCount() >= 2 * batch * devices.size();
}

// The run through the streaming pipeline, where its algorithm has a stage for its device and
// input (Algorithm::streamStage); none otherwise. Several devices take the frames batch by
// batch where every stage merges frames: a live stream's, and a file's of compressed chunks
// (fileOverDevices).
static std::optional<pipeline::StreamRun>
streamed(const Algorithm& algorithm, const RunRequest& request, const InputSources& sources,
         const std::vector<DeviceInfo>& devices, const Progress& progress, std::uint64_t budget) {
    if (devices.size() == 1) {
        const auto stage = algorithm.streamStage(request, devices);
        if (!stage) return std::nullopt;
        auto feed = streamFeed(algorithm, sources);
        if (!feed || !stage->accepts(feed->format())) return std::nullopt;
        return pipeline::runStream(request, sources, *feed, *stage, progress, budget);
    }
    if (devices.empty()) return std::nullopt;
    std::vector<std::unique_ptr<pipeline::FrameStage>> stages;
    for (const DeviceInfo& device : devices) {
        stages.push_back(stageOn(algorithm, request, device));
        if (!stages.back() || !stages.back()->mergesFrames()) return std::nullopt;
    }
    auto feed = streamFeed(algorithm, sources);
    if (!feed) return std::nullopt;
    std::vector<pipeline::FrameStage*> each;
    for (const auto& stage : stages)
        if (stage->accepts(feed->format())) each.push_back(stage.get());
    if (each.size() != stages.size() ||
        (!sources.live && !fileOverDevices(*feed, each, devices, budget)))
        return std::nullopt;
    return pipeline::runStreamOnDevices(request, sources, *feed, each, devices, progress, budget);
}

// A run that names no variant takes the one its input files call for (Algorithm::choiceFor)
// where that runs on its device and what it holds fits the budget, said on stderr.
static void chooseVariant(const Algorithm& algorithm, RunRequest& request,
                          const InputSources& sources, const std::vector<DeviceInfo>& devices,
                          std::uint64_t budget) {
    if (!request.variant.empty() || devices.size() != 1) return;
    const std::optional<ChosenVariant> c =
        algorithm.choiceFor(sources, request.params, request.device);
    if (!c ||
        !algorithm.supports(algorithm.variant(c->variant), request.device, nullptr, &request.params)
             .ok)
        return;
    if (const auto held = algorithm.streamsFor(sources, request.params, c->variant);
        held && held->bytes > budget)
        return;
    request.variant = c->variant;
    std::cerr << "clscope: " + algorithm.id() + ": variant " + c->variant + ": " + c->why + "\n"
              << std::flush;
}

bool fitsWhole(const Algorithm& algorithm, const InputSources& sources, const ParamSet& params,
               std::uint64_t budget, const std::string& variant) {
    if (const auto beside = algorithm.holdsBeside(sources, params, variant)) {
        if (beside->bytes >= budget) return false; // the budgeted run refuses it, saying why
        budget -= beside->bytes;
    }
    for (const InputRole& role : algorithm.inputRoles()) {
        if (!role.stack) continue;
        const auto frames = openFrames(sources, role);
        if (budgetBytes(frames->frameCount(), frames->frameBytes(), "the frames") > budget)
            return false;
    }
    return !algorithm.planPasses(sources, params, budget);
}

std::string BudgetedRun::partsText() const {
    const std::size_t parts = batches ? batches : passes;
    return (batches ? "streamed in " : "") + std::to_string(parts) +
           (batches ? (parts == 1 ? " batch" : " batches") : (parts == 1 ? " pass" : " passes"));
}

void overBudget(const std::string& what, std::uint64_t needed, std::uint64_t budget,
                const std::string& instead) {
    throw UsageError(what + ": needs " + byteText(needed) + ", more than the memory budget " +
                     byteText(budget) + " allows; raise --memory-budget" +
                     (instead.empty() ? "" : ", or " + instead));
}

// The passes within what the variant leaves of the budget besides what it holds (`beside`): a
// refusal says so.
static std::unique_ptr<PassPlan> passesWithin(const Algorithm& algorithm, const RunRequest& request,
                                              const InputSources& sources, std::uint64_t budget,
                                              const std::optional<Algorithm::Held>& beside) {
    if (!beside) return algorithm.planPasses(sources, request.params, budget);
    try {
        return algorithm.planPasses(sources, request.params, budget - beside->bytes);
    } catch (const UsageError& e) {
        throw UsageError(std::string(e.what()) + " (the budget " + byteText(budget) + " less " +
                         beside->what + ")");
    }
}

// The passes of a run, planned before anything is read, within the budget less what the variant
// holds besides its input (Algorithm::holdsBeside): none where the variant reads its input its
// own way (Algorithm::streamsFor), once what it holds is found within the budget.
static std::unique_ptr<PassPlan> planRun(const Algorithm& algorithm, const RunRequest& request,
                                         const InputSources& sources, std::uint64_t budget) {
    const std::string variant =
        request.variant.empty() ? algorithm.defaultVariant(request.device) : request.variant;
    const auto beside = algorithm.holdsBeside(sources, request.params, variant);
    if (beside && beside->bytes >= budget)
        overBudget(beside->what, beside->bytes, budget, beside->instead);
    const auto held = algorithm.streamsFor(sources, request.params, variant);
    if (!held) return passesWithin(algorithm, request, sources, budget, beside);
    const std::uint64_t besideBytes = beside ? beside->bytes : 0;
    if (held->bytes > budget - besideBytes)
        overBudget(held->what + (beside ? " beside " + beside->what : ""),
                   held->bytes + besideBytes, budget, held->instead);
    return nullptr;
}

BudgetedRun runWithinBudget(const Algorithm& algorithm, RunRequest request,
                            const InputSources& sources, const std::vector<DeviceInfo>& devices,
                            std::uint64_t budget, const Progress& progress) {
    BudgetedRun out;
    checkFrameCounts(algorithm.inputRoles(), algorithm.id(), sources);
    chooseVariant(algorithm, request, sources, devices, budget);
    if (auto run = streamed(algorithm, request, sources, devices, progress, budget)) {
        out.result = std::move(run->result), out.note = std::move(run->note);
        out.batches = run->batches;
        return out;
    }
    const auto planned = Clock::now();
    // A variant that streams its input its own way (sparse entries) holds no dense slab; what
    // it holds is checked against the budget instead.
    const auto plan = planRun(algorithm, request, sources, budget);
    out.planMs = msSince(planned);
    if (!plan) { // the whole input fits: the in-memory run
        const auto start = Clock::now();
        {
            const auto pinned = pinnedInputScope(devices); // frames straight into pinned memory
            request.input = algorithm.readFor(sources, request.params, request.variant);
        }
        out.input = request.input;
        out.readMs = msSince(start);
        out.result = runOnDevices(algorithm, request, devices, progress);
        return out;
    }
    out.passes = plan->count();
    std::vector<std::shared_ptr<AlgorithmResult>> results;
    const auto passes = Clock::now();
    for (std::size_t i = 0; i < out.passes; ++i) {
        progress.checkCancel();
        const auto start = Clock::now();
        // A pass's frames straight into pinned memory too (a live stream's passes were copied
        // into pinned staging on the way up: 301 of 2,210 ms for 200 16M frames on the H200).
        const Algorithm::Part part = [&] {
            const auto pinned = pinnedInputScope(devices);
            return plan->read(i);
        }();
        out.readMs += msSince(start);
        RunRequest r = request;
        r.input = part.input, r.params = part.params;
        const double base = static_cast<double>(i), n = static_cast<double>(out.passes);
        const Progress passProgress([&](double f) { progress.report((base + f) / n); },
                                    progress.cancelFlag());
        results.push_back(runOnDevices(algorithm, r, devices, passProgress));
        plan->adopt(*results.back(), part);
        out.passOtherMs -= results.back()->info.wallMs;
    }
    out.passOtherMs += msSince(passes) - out.readMs;
    const auto joined = Clock::now();
    out.result = algorithm.join(results);
    fillInfo(out.result->info, results, request, plan->provenance);
    results.clear(); // the passes' results let go: part of the join's time
    out.joinMs = msSince(joined);
    return out;
}

} // namespace clscope
