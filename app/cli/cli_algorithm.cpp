// The one CLI flow of every registered algorithm's command: options
// built from the algorithm's input roles and parameter specs, then device → read → run →
// write, with one summary line. Options given on the command line win over --params.
#include "app/cli/cli_layout.hpp"
#include "app/cli/cli_options.hpp"
#include "app/cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/hdf5_util.hpp"
#include "core/input/input_files.hpp"
#include "core/limits.hpp"
#include "core/sparse/csr_frames.hpp"
#include "core/sparse/rigaku_frames.hpp"
#include "core/sparse/sparse_location.hpp"
#include "core/stream/live_frames.hpp"
#include "gpu/algorithm.hpp"
#include "gpu/pipeline/frame_stage.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/scale/budget.hpp"
#include "gpu/scale/passes.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace clscope::cli {

namespace {

// What one algorithm command was given.
struct AlgorithmArgs {
    std::string input, device, variant, paramsFile, output, memoryBudget, frames;
    double timeout = 30;                      // a stream: no message for this long is bad input
    std::uint64_t maxFrames = 0;              // a stream: stop after this many frames
    std::string channel;                      // a stream: the image channel (empty: the first)
    std::map<std::string, std::string> roles; // role id -> given path
    std::map<std::string, bool> disabled;     // role id -> --no-... given
    SpecArgs params;                          // parameter options given
    std::vector<std::string> tuning;
    std::string split = "auto";
    std::string layout = ownLayout; // --layout (cli_layout.hpp)
    double kernelTimeout = 30;      // seconds a user variant's kernel may run
};

using Clock = std::chrono::steady_clock;
// The sources: the input file, role overrides, and the frame range of --frames or else the one
// an exported run's `parameters` (given to --params) recorded.
InputSources sourcesFrom(const AlgorithmArgs& a) {
    InputSources s;
    s.file = a.input;
    if (!a.frames.empty()) {
        s.frames = FrameRange::parse(a.frames);
    } else if (!a.paramsFile.empty()) {
        const nlohmann::json j = readParamsArgument(a.paramsFile);
        if (j.is_object() && j.contains("input") && j["input"].is_object() &&
            j["input"].contains("frames") && j["input"]["frames"].is_string())
            s.frames = FrameRange::parse(j["input"]["frames"].get<std::string>());
    }
    for (const auto& [role, path] : a.roles)
        if (!path.empty()) s.overrides[role] = path;
    for (const auto& [role, off] : a.disabled)
        if (off) s.disabled.insert(role);
    return s;
}

ParamSet paramsFrom(const Algorithm& algorithm, const AlgorithmArgs& a) {
    ParamSet params = algorithm.defaultParams();
    if (!a.paramsFile.empty()) params.mergeFile(a.paramsFile);
    applySpecArgs(params, a.params);
    return params;
}

// The detector stream of a tcp://HOST:PORT input, its start message received.
// Compressed frames stay so when the run goes through the streaming pipeline (decoded there).
std::shared_ptr<const stream::LiveFrames> openLive(const Algorithm& algorithm,
                                                   const AlgorithmArgs& a, bool keepCompressed) {
    if (!algorithm.readsFrames())
        throw UsageError(algorithm.command() + " reads no frames: " + a.input + " does not apply");
    if (!(a.timeout > 0)) throw UsageError("--timeout must be positive");
    stream::SourceOptions options;
    options.endpoint = a.input, options.timeoutSeconds = a.timeout, options.maxFrames = a.maxFrames;
    options.channel = a.channel, options.keepCompressed = keepCompressed;
    return std::make_shared<stream::LiveFrames>(options);
}

// The files beside a stream are probed (core/hdf5_probe.cpp forks a child) before the stream's
// receiving and decoding threads start: a fork while they allocate can leave the child waiting
// for an allocator lock that no thread of it will release. glibc's malloc takes its locks around
// fork(); the sanitizers' allocator of clang 14 does not, and the ASan suite hung this way.
void probeBeforeThreads(const std::vector<NamedPath>& inputs, const std::string& stream) {
    for (const NamedPath& input : inputs)
        if (input.path != stream && input.option != "--params") h5::probeFile(input.path);
}

std::string spaced(std::string id) { // "pixel_mask" -> "pixel mask"
    std::replace(id.begin(), id.end(), '_', ' ');
    return id;
}

// A note in the log for an optional role the start message left out (header_detail basic or
// none: taken as absent), and UsageError for a role the run needs that neither the stream's start
// message nor an option gives (e.g. labels: a stream carries frames, pixel mask and frame time
// only).
void checkLiveRoles(const Algorithm& algorithm, const InputSources& sources) {
    const auto start = sources.open(sources.file);
    for (const InputRole& role : algorithm.inputRoles()) {
        const DataLocation at = sources.locate(role);
        if (role.stack || at.file != sources.file || start->hasDataset(at.path)) continue;
        if (role.optional) {
            if (!sources.disabled.contains(role.id))
                std::fprintf(stderr, "%s\n", sources.live->absent(spaced(role.id)).c_str());
            continue;
        }
        throw UsageError(sources.file +
                         ": a stream carries frames, a pixel mask and a frame time; "
                         "give the " +
                         role.id + " with " + role.flag +
                         (role.otherFile ? " FILE[:PATH]" : " PATH"));
    }
}

// The number of frames of the event list a stack role names at `at`, or 0 where it names none
// (a dense stack, sparse frames, a Rigaku file).
std::uint64_t eventListFrames(const DataLocation& at, std::optional<double> frameTime) {
    if (RigakuFrames::named(at.file)) return 0; // no HDF5 file to look into
    const H5Reader file(at.file);
    const std::optional<SparseLocation> events = findSparse(file, at.path);
    if (!events || events->kind != SparseLocation::Kind::Events) return 0;
    const std::uint64_t width = binWidthNs(frameTime, file.where(events->group));
    const std::uint64_t frames = eventFrameCount(file, events->group, width);
    if (frames > 0) return frames;
    // A list that bins into no frames: opened, to say what is wrong with it.
    return CsrFrames::openEvents(file, events->group, width).frameCount();
}

// An algorithm's --frame-time (seconds) is also the width of the frames an event list is
// binned into (DESIGN.md §3); commands without one read no event list. An event list is given
// every frame as an explicit window: the whole-stack readers of gpu/ (readFramesParallel) take
// no InputSources and so no frame time, a window goes through openFrames, which does.
void setEventFrameTime(const Algorithm& algorithm, const ParamSet& params, InputSources& s) {
    if (params.known("frame_time") && params.has("frame_time"))
        s.frameTime = params.number("frame_time");
    const std::vector<InputRole> roles = algorithm.inputRoles();
    const auto stack =
        std::find_if(roles.begin(), roles.end(), [](const InputRole& r) { return r.stack; });
    if (stack == roles.end() || !s.frames.all() || s.inMemory(*stack)) return;
    if (const std::uint64_t frames = eventListFrames(s.locate(*stack), s.frameTime))
        s.frames = FrameRange{0, frames};
}

// The output in its layout and the side outputs, each to its temporary, renamed when all are
// written.
void writeOutputs(const std::string& output, const LayoutOutput& layout,
                  const std::vector<std::pair<std::string, std::string>>& sideOutputs) {
    std::optional<H5Writer> out;
    std::vector<StagedFile> staged;
    if (layout.hdf5)
        layout.hdf5(out.emplace(output));
    else
        staged.emplace_back(output, layout.bytes);
    for (const auto& [file, text] : sideOutputs)
        staged.emplace_back(file, text);
    if (out) out->commit();
    for (StagedFile& file : staged)
        file.publish();
}

void runCommand(const Algorithm& algorithm, const AlgorithmArgs& a) {
    const std::uint64_t given = a.memoryBudget.empty() ? 0 : parseByteSize(a.memoryBudget);
    const std::vector<DeviceInfo> devices =
        resolveDevices(a.device); // bad device: exit 4 before reading
    const std::uint64_t budget = given ? given : defaultMemoryBudget(devices);
    ParamSet params = paramsFrom(algorithm, a);
    InputSources sources = sourcesFrom(a);
    if (!sources.frames.all() && !algorithm.readsFrames())
        throw UsageError(algorithm.command() + " reads no frames: --frames does not apply");
    const std::vector<NamedPath> inputs = inputFiles(algorithm.inputRoles(), sources, a.paramsFile);
    RunRequest request{devices.front(), a.variant, nullptr, params, parseTuning(a.tuning)};
    request.split = splitRule(a.split);
    if (stream::isStreamEndpoint(sources.file)) {
        probeBeforeThreads(inputs, sources.file);
        sources.live = openLive(algorithm, a, streamsLive(algorithm, request, devices));
        checkLiveRoles(algorithm, sources);
    } else if (a.maxFrames) {
        throw UsageError("--max-frames applies to a tcp://HOST:PORT input; use --frames");
    } else if (!a.channel.empty()) {
        throw UsageError("--stream-channel applies to a tcp://HOST:PORT input");
    } else {
        setEventFrameTime(algorithm, params, sources);
    }
    checkLayoutInput(a.layout, algorithm, sources, params);
    checkOutputs({{"-o", a.output}}, inputs);
    if (!request.variant.empty()) algorithm.variant(request.variant); // unknown: usage error first
    const auto watch = watchUserKernels({request.variant}, a.kernelTimeout);
    const BudgetedRun run = runWithinBudget(algorithm, request, sources, devices, budget);
    const auto& result = run.result;
    const auto sideOutputs = algorithm.sideOutputs(*result, params);
    std::vector<NamedPath> outputs{{"-o", a.output}};
    for (const auto& side : sideOutputs)
        outputs.push_back({optionOf(params, side.first), side.first});
    checkOutputs(outputs, inputs);
    const LayoutOutput layout = prepareLayout(a.layout, algorithm, run, sources, params);
    const auto writeStart = Clock::now();
    writeOutputs(a.output, layout, sideOutputs);
    if (!run.note.empty()) std::fprintf(stderr, "%s\n", run.note.c_str());
    if (sources.live) std::fprintf(stderr, "%s\n", sources.live->report().c_str());
    const RunInfo& info = result->info;
    std::printf("wrote %s: %s, %s on %s; read %.1f ms, compute %.1f ms (kernels %.3f ms), write "
                "%.1f ms; %s within a memory budget of %s\n",
                a.output.c_str(), result->summary().c_str(), info.variant.c_str(),
                info.device.c_str(), run.readMs, info.wallMs, info.kernelMs, msSince(writeStart),
                run.partsText().c_str(), byteText(budget).c_str());
    if (info.entries > 0 && info.wallMs > 0) // a run over sparse frames: its rate in events
        std::printf("read %llu stored entries: %.3g events/s of compute\n",
                    static_cast<unsigned long long>(info.entries),
                    static_cast<double>(info.entries) / (info.wallMs * 1e-3));
}

void addRoleOptions(CLI::App* sub, const Algorithm& algorithm, AlgorithmArgs& a) {
    for (const InputRole& role : algorithm.inputRoles()) {
        CLI::Option* given = nullptr;
        if (!role.flag.empty())
            given = sub->add_option(role.flag, a.roles[role.id],
                                    role.help + " (default " + role.defaultPath + ")")
                        ->check(nonEmpty());
        if (role.disableFlag.empty()) continue;
        CLI::Option* off = sub->add_flag(role.disableFlag, a.disabled[role.id],
                                         "Do not read the " + role.id + " role");
        if (given) off->excludes(given); // --no-pixel-mask with --pixel-mask: which one?
    }
}

void addStreamOptions(CLI::App* sub, AlgorithmArgs& a) {
    sub->add_option("--timeout", a.timeout,
                    "Input tcp://HOST:PORT: seconds without a message that end the run as bad "
                    "input (default 30)");
    sub->add_option("--max-frames", a.maxFrames,
                    "Input tcp://HOST:PORT: stop after this many frames (default: the series)");
    sub->add_option("--stream-channel", a.channel,
                    "Input tcp://HOST:PORT: the image channel read, e.g. threshold_2 (default: "
                    "the first of the start message's channels)");
}

void addCommand(CLI::App& app, Action& action, std::shared_ptr<const Algorithm> algorithm) {
    auto a = std::make_shared<AlgorithmArgs>();
    auto* sub =
        app.add_subcommand(algorithm->command(), algorithm->id() + ": " + algorithm->label());
    sub->add_option("input", a->input,
                    algorithm->readsFrames()
                        ? "Input HDF5 file, or tcp://HOST:PORT: a DECTRIS Stream V2 detector stream"
                        : "Input HDF5 file")
        ->required();
    addRoleOptions(sub, *algorithm, *a);
    addSpecOptions(sub, algorithm->parameterSpecs(), a->params);
    sub->add_option("--device", a->device,
                    "cpu, ocl:N or ocl:TEXT (default: first GPU); several: ocl:0,ocl:1 or gpus "
                    "(one run split over them)")
        ->check(nonEmpty());
    addSplitOption(sub, a->split);
    std::string ids;
    for (const VariantEntry& v : algorithm->variants())
        ids += (ids.empty() ? "" : ", ") + v.info.id;
    sub->add_option("--variant", a->variant, "One of " + ids + " (default: the device's preferred)")
        ->check(nonEmpty());
    if (algorithm->readsFrames())
        sub->add_option("--frames", a->frames,
                        "FIRST:COUNT: only frames FIRST .. FIRST+COUNT-1 (COUNT empty: to the end)")
            ->check(nonEmpty());
    if (algorithm->readsFrames()) addStreamOptions(sub, *a);
    sub->add_option("--params", a->paramsFile,
                    "Parameters: a JSON file, or inline JSON starting with '{' (an output's "
                    "'parameters' attribute works, its frame range included)")
        ->check(nonEmpty());
    sub->add_option("--tune", a->tuning, "Kernel tuning NAME=VALUE (-D), repeatable")
        ->check(nonEmpty());
    addKernelTimeoutOption(sub, a->kernelTimeout);
    sub->add_option("--memory-budget", a->memoryBudget,
                    "Host memory for the input of one pass, e.g. 800M or 4G; larger inputs run "
                    "in passes that read their part from disk (default: half the free host "
                    "memory, at most half the device's)")
        ->check(nonEmpty());
    sub->add_option("-o,--output", a->output, "Output HDF5 file")->required();
    addLayoutOption(sub, *algorithm, a->layout);
    sub->callback(
        [&action, a, algorithm] { action = [a, algorithm] { runCommand(*algorithm, *a); }; });
}

} // namespace

void addAlgorithmCommands(CLI::App& app, Action& action) {
    for (const auto& algorithm : AlgorithmRegistry::instance().all())
        addCommand(app, action, algorithm);
}

} // namespace clscope::cli
