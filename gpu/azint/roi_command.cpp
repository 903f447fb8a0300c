// azint's result command `roi` (issue 53, "ROI time series"): the sum and mean of every frame
// over rectangles and rings of the image, masked pixels left out (core/roi/roi.hpp, which the
// GUI's ROI view calls too). `clscope-cli roi FRAMES.h5 --rects "x0,y0,x1,y1;…" --rings
// "cx,cy,r0,r1;…" [--data PATH] [--pixel-mask PATH] [--frame-time S] -o OUT.h5`; docs/ROI.md.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/roi/roi.hpp"
#include "gpu/azint/facets.hpp"
#include "gpu/facets/result_commands_facet.hpp"

#include <optional>

namespace clscope::azint {

namespace {

std::vector<ParamSpec> roiSpecs() {
    using T = ParamSpec::Type;
    return {makeOption("rects", T::Text, "", "rectangles", "--rects",
                       "rectangles x0,y0,x1,y1 (pixel edges), ';' between them", "px"),
            makeOption("rings", T::Text, "", "rings", "--rings",
                       "rings cx,cy,r0,r1 (centre and radii), ';' between them", "px"),
            makeOption("data", T::Text, "/entry/data/data", "frames", "--data",
                       "the frames' dataset in the input"),
            makeOption("pixel_mask", T::Text, "", "pixel mask", "--pixel-mask",
                       "a pixel mask dataset in the input (non-zero: left out); none when empty"),
            makeOption("frame_time", T::Double, nullptr, "frame time", "--frame-time",
                       "an event list's frames: their width in seconds", "s")};
}

std::string roiRun(const std::vector<std::string>& inputs, const ParamSet& params,
                   const std::string& output) {
    if (inputs.size() != 1)
        throw UsageError("roi: one frames file, not " + std::to_string(inputs.size()));
    std::vector<roi::Region> regions =
        roi::parseRegions(params.text("rects"), roi::Region::Kind::Rect, "--rects");
    for (roi::Region& ring :
         roi::parseRegions(params.text("rings"), roi::Region::Kind::Ring, "--rings"))
        regions.push_back(std::move(ring));
    if (regions.empty()) throw UsageError("roi: no region: give --rects or --rings");
    roi::FileInput in{inputs[0], params.text("data"), params.text("pixel_mask"), std::nullopt};
    if (params.has("frame_time")) in.frameTime = params.number("frame_time");
    const roi::Series series = roi::seriesOfFile(in, regions);
    H5Writer out(output);
    roi::writeSeries(out, "/roi", series);
    out.commit();
    return roi::seriesSummary(series);
}

class RoiCommands final : public ResultCommandsFacet {
  public:
    std::vector<ResultCommand> commands() const override {
        return {{"roi", "Sum and mean per frame over rectangles and rings of the image", roiSpecs(),
                 &roiRun}};
    }
};

} // namespace

std::shared_ptr<const Facet> resultCommandsFacet() {
    return std::make_shared<RoiCommands>();
}

} // namespace clscope::azint
