// `clscope --demo ID` for an algorithm without a panel of its own (none of the four; a new one
// until its panel exists): its first synthetic kind generated and opened, then every variant the
// current devices can run compared in the Compare dock, with the generic parameter form's
// values. Names no algorithm.
#include "gpu/algorithm.hpp"
#include "ui/compare/compare_every_variant.hpp"
#include "ui/data/generate_request.hpp"
#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/demo_window.hpp"
#include "ui/kit/workbench.hpp"

namespace clscope::ui {

void startFileAlgorithmDemo(Workbench& wb, const std::string& id) {
    generateDemo(wb, demoRequest(id), QString::fromStdString("clscope-demo-" + id + ".h5"),
                 [&wb, id] { compareEveryVariant(wb, id); });
}

} // namespace clscope::ui
