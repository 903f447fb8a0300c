// xpcs's layouts facet: correlate --layout aps | nxxpcs, the facility layouts of a run
// (core/xpcs/aps_layout, nxxpcs_layout), with what they need beside the result: the labels,
// q values and frame time of the run's input, the geometry of the labels' file and the frame
// sums and mean image of a pass over the frames (so they run on a file, not on a stream).
#include "core/errors.hpp"
#include "core/mask/mask_io.hpp"
#include "core/xpcs/aps_layout.hpp"
#include "core/xpcs/nxxpcs_layout.hpp"
#include "gpu/facets/layouts_facet.hpp"
#include "gpu/xpcs/algorithm.hpp"
#include "gpu/xpcs/facets.hpp"
#include "gpu/xpcs/multitau.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>

namespace clscope::xpcs {

namespace {

// The run's input when it was read whole (borrowed), else its labels, q table and frames read
// again (the frames block by block, as multi-tau reads them).
std::shared_ptr<const XpcsInput> inputOf(const Algorithm::Run& run, const InputSources& sources) {
    if (const XpcsInput* whole = run.inputOrNull())
        return std::shared_ptr<const XpcsInput>(std::shared_ptr<void>(), whole);
    return readStreamed(sources);
}

// The geometry of the labels' file, else of the input file.
std::optional<mask::Geometry> geometryOf(const Algorithm::Run& run, const InputSources& sources) {
    const InputRole labels = run.algorithm().role("labels");
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
std::shared_ptr<LayoutRun> layoutRunOf(const XpcsInput& in, const InputSources& sources,
                                       const Algorithm::Run& run) {
    const ParamSet& params = run.values();
    auto out = std::make_shared<LayoutRun>();
    out->labels = in.labels;
    out->qByLabel = in.qByLabel;
    out->geometry = geometryOf(run, sources);
    out->frameTime =
        params.has("frame_time") ? std::optional(params.number("frame_time")) : in.frameTime;
    return out;
}

void refuseMissing(const std::string& layout, const LayoutRun& run) {
    const std::vector<std::string> missing = run.missing(layout == "aps");
    if (missing.empty()) return;
    std::string text;
    for (const std::string& m : missing)
        text += (text.empty() ? "" : "; ") + m;
    throw UsageError("--layout " + layout + " cannot hold this run: it lacks " + text +
                     "; nothing written");
}

class FacilityLayouts : public TypedLayouts<Algorithm> {
  public:
    std::vector<OutputLayout> layouts() const override {
        return {{"aps", "APS 8-ID-I / boost_corr, read by pyXpcsViewer and XPCS-Toolkit"},
                {"nxxpcs", "NeXus NXxpcs"}};
    }

  protected:
    // A stream is refused (the layouts read the frames a second time); then the labels, q
    // table and geometry are read, not the frames.
    void checkWith(const std::string& layout, const InputSources& sources,
                   const Run& run) const override {
        if (sources.live)
            throw UsageError("--layout " + layout +
                             " reads the frames a second time (frame sums, mean image): run it "
                             "on a file, not on a stream");
        refuseMissing(layout, *layoutRunOf(*readStreamed(sources), sources, run));
    }

    LayoutOutput outputWith(const std::string& layout, const std::shared_ptr<XpcsResult>& result,
                            const InputSources& sources, const Run& run) const override {
        const auto in = inputOf(run, sources);
        const auto layoutRun = layoutRunOf(*in, sources, run);
        layoutRun->result = &result->result;
        refuseMissing(layout, *layoutRun);
        const auto blocks = in->frames ? blocksInMemory(in->frames) : in->blocks;
        layoutRun->sums = frameSums(*blocks, in->labels, true);
        const RunInfo& info = result->info;
        layoutRun->provenance = {info.device, info.variant, info.parametersJson, info.kernelMs};
        layoutRun->identifier = std::filesystem::path(sources.file).stem().string();
        layoutRun->startTime = utcNow();
        const bool aps = layout == "aps";
        return {[result, layoutRun, aps](H5Writer& out) {
                    if (aps)
                        writeApsLayout(out, *layoutRun);
                    else
                        writeNxXpcsLayout(out, *layoutRun);
                },
                {}};
    }
};

} // namespace

std::shared_ptr<const Facet> layoutsFacet() {
    return std::make_shared<FacilityLayouts>();
}

} // namespace clscope::xpcs
