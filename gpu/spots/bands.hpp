// spots over several devices when a stack has fewer frames than devices: bands of rows, each
// with a halo of rows above and below so that its own rows are exactly the whole-frame run's;
// the bands' signal pixels are joined and the spots grouped over the whole frames on the host.
#pragma once
#include "gpu/spots/run_types.hpp"

namespace clscope::spots {

// Rows above and below a row that its signal pixel depends on (resources/kernels/spots.cl):
// dispersion (local, direct, sat, cpu): the window, KY. dispersion_extended: the final
// background window (KY + 2) reads classes, each class the dispersive mask within the erosion
// radius (EROSION - 1), each dispersive pixel its window (KY): 2 KY + EROSION + 1.
std::size_t bandHalo(const Params& p);

// `in` cut into at most `parts` bands of whole rows with `halo` rows on each side (inside the
// frame); fewer bands when one would keep fewer rows than the halo. partParams: the parameters
// of every part (global_threshold = auto already estimated on the whole input).
std::vector<Algorithm::Part> splitBands(const SpotsInput& in, const ParamSet& partParams,
                                        std::size_t parts, std::size_t halo);

// The bands' kept rows joined (signal mask or lists, debug images) and the spots grouped over
// the whole frames, as one run does (finishResult).
std::shared_ptr<SpotsResult> joinBands(const std::vector<std::shared_ptr<SpotsResult>>& parts);

} // namespace clscope::spots
