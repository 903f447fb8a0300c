// correlate --layout aps | nxxpcs: the facility layouts of an xpcs run (core/xpcs/aps_layout,
// nxxpcs_layout), with what they need beside the result: the labels, q values and frame time
// of the run's input, the geometry of the labels' file and the frame sums and mean image of a
// pass over the frames.
#include "app/cli/cli_layout.hpp"
#include "core/errors.hpp"
#include "core/mask/mask_io.hpp"
#include "core/xpcs/aps_layout.hpp"
#include "core/xpcs/nxxpcs_layout.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/multitau.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>

namespace clscope::cli {

namespace {

// The run's input when it was read whole, else its labels, q table and frames read again
// (the frames block by block, as multi-tau reads them).
std::shared_ptr<const xpcs::Input> inputOf(const BudgetedRun& run, const InputSources& sources) {
    if (const auto whole = std::dynamic_pointer_cast<const xpcs::Input>(run.input)) return whole;
    return xpcs::readStreamed(sources);
}

// The geometry of the labels' file, else of the input file.
std::optional<mask::Geometry> geometryOf(const InputSources& sources) {
    const InputRole labels = xpcs::Algorithm().role("labels");
    for (const std::string& file : {sources.locate(labels).file, sources.file})
        if (const auto geometry = mask::readGeometry(*sources.open(file))) return geometry;
    return std::nullopt;
}

std::string utcNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

// The run's labels, q table, geometry and frame time (what LayoutRun::missing looks at).
std::shared_ptr<xpcs::LayoutRun> layoutRunOf(const xpcs::Input& in, const InputSources& sources,
                                             const ParamSet& params) {
    auto run = std::make_shared<xpcs::LayoutRun>();
    run->labels = in.labels;
    run->qByLabel = in.qByLabel;
    run->geometry = geometryOf(sources);
    run->frameTime =
        params.has("frame_time") ? std::optional(params.number("frame_time")) : in.frameTime;
    return run;
}

void refuseMissing(const std::string& layout, const xpcs::LayoutRun& run) {
    const std::vector<std::string> missing = run.missing(layout == "aps");
    if (missing.empty()) return;
    std::string text;
    for (const std::string& m : missing)
        text += (text.empty() ? "" : "; ") + m;
    throw UsageError("--layout " + layout + " cannot hold this run: it lacks " + text +
                     "; nothing written");
}

} // namespace

void checkXpcsLayout(const std::string& layout, const InputSources& sources,
                     const ParamSet& params) {
    refuseMissing(layout, *layoutRunOf(*xpcs::readStreamed(sources), sources, params));
}

LayoutWrite prepareXpcsLayout(const std::string& layout, const BudgetedRun& run,
                              const InputSources& sources, const ParamSet& params) {
    const auto result = std::dynamic_pointer_cast<const xpcs::RunResult>(run.result);
    if (!result) throw std::logic_error("correlate's result is not an xpcs result");
    const auto in = inputOf(run, sources);
    const auto layoutRun = layoutRunOf(*in, sources, params);
    layoutRun->result = &result->result;
    refuseMissing(layout, *layoutRun);
    const auto blocks = in->frames ? xpcs::blocksInMemory(in->frames) : in->blocks;
    layoutRun->sums = xpcs::frameSums(*blocks, in->labels, true);
    const RunInfo& info = result->info;
    layoutRun->provenance = {info.device, info.variant, info.parametersJson, info.kernelMs};
    layoutRun->identifier = std::filesystem::path(sources.file).stem().string();
    layoutRun->startTime = utcNow();
    const bool aps = layout == "aps";
    return [result, layoutRun, aps](H5Writer& out) {
        if (aps)
            xpcs::writeApsLayout(out, *layoutRun);
        else
            xpcs::writeNxXpcsLayout(out, *layoutRun);
    };
}

} // namespace clscope::cli
