// The spots kernel program declared as a recipe (gpu/recipe.hpp): its sources, every macro its
// .cl files read (those the host sets from the input and parameters, and the tuning knobs) and
// the launch rule of each kernel; and the values a run builds it with.
#pragma once
#include "core/spots/spots.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/device_info.hpp"

#include <string>

namespace clscope::spots {

// "spots": common.cl, spots.cl, spots_strip.cl, spots_walk.cl, spots_extended.cl and spots_sat.cl
// built as one program. Launch rules are named after the kernels; spots_local's strip forms
// (SPOTS_STRIP=1) are launched by the rules "spots_local/strip" and (STRIP_WALK=1)
// "spots_local/walk".
const ProgramRecipe& spotsRecipe();

// The tunables the host sets from the input's element type and the parameters (DATA_T, KX, ...).
TunableValues inputValues(DType dtype, const Params& p);

// Every tunable of `recipe` as a run on `device` builds it: the host's values (the strip form
// by the device's type), the run's tuning (Params::tuning) over them, then the run's overrides
// (the kernel lab's); checked against the declaration (UsageError naming the tunable).
TunableValues programValues(const ProgramRecipe& recipe, DType dtype, const Params& p,
                            const ProgramOverrides& programs, const DeviceInfo& device);

// "gather": common.cl and gather.cl, the values of a compacted list of pixels (the stream
// stage's); ELEM, set from the frames' element size, and the launch rule of gather_elements
// (one work-item per listed pixel, work-groups of 64).
const ProgramRecipe& gatherRecipe();
// gather's values for frames of `dtype`: ELEM an unsigned type of the element size.
TunableValues gatherValues(DType dtype);

// The integer value of a tunable among resolved values.
int tunableInt(const TunableValues& values, const std::string& name);

// The launch rule of spots_local: a strip form's when SPOTS_STRIP is 1 (the walk form's when
// STRIP_WALK is 1).
std::string localLaunch(const TunableValues& values);

} // namespace clscope::spots
