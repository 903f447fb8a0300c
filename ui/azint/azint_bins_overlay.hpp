// The radial bins of an azint run drawn over the image (overlay "azint bins", owner azint): each
// pixel's radial bin (the run's geometry, unit and range: core/azint/binning.hpp, the binning
// every variant runs) in bands of k bins — at most 24 bands, palette colours, their boundaries
// as contours — the cursor readout naming the band's bins and their centres.
#pragma once
#include "core/params.hpp"
#include "ui/image/overlay_layer.hpp"

#include <memory>

namespace clscope {
class H5Reader;
}

namespace clscope::ui {

// The overlay of the run with `params` over frames of height × width of `file` (its geometry
// group, or the PONI / .expt the parameters name). Throws what resolving the geometry throws.
OverlayData azintBinsOverlay(const ParamSet& params, const H5Reader& file, std::size_t height,
                             std::size_t width);

} // namespace clscope::ui
