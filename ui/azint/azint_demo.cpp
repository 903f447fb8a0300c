// `clscope --demo azint`: the synthetic powder file (its rings and its geometry in
// /entry/processing/geometry) integrated over every frame with the device's preferred variant;
// the I(q) tab in front with the frames' sum beside the first frame's profile.
// CLSCOPE_DEMO_CAKE=M integrates a cake of M azimuthal bins instead.
#include "ui/azint/azint_panel.hpp"
#include "ui/kit/panel_demo.hpp"
#include "ui/params/param_form.hpp"

#include <QCheckBox>

namespace clscope::ui {

void startAzintDemo(Workbench& wb) {
    PanelDemo<AzintPanel> demo("Azint", demoRequest("azint"), "clscope-demo-azint.h5");
    const int cake = qEnvironmentVariableIntValue("CLSCOPE_DEMO_CAKE");
    demo.prepare = [cake](AzintPanel& panel) {
        panel.form()->setValue("bins", 500);
        panel.form()->setValue("azimuth_bins", cake);
    };
    demo.panelInFront = demo.resultsInTheMiddle = true;
    demo.tab = cake > 0 ? "Cake" : "I(q)";
    demo.finished = [](AzintPanel& panel, bool ok) {
        if (ok && panel.profileView()) panel.profileView()->sumBox()->setChecked(true);
        return ok;
    };
    runPanelDemo(wb, demo);
}

} // namespace clscope::ui
