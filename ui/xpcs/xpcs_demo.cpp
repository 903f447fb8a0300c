// The XPCS panel's registry entry, `clscope --demo xpcs` and `clscope --demo compare`: generate
// a Brownian synthetic dataset with a known D (frame time 1 ms) and open it. `--demo xpcs`: a
// long series (4096 frames of 64×96 uint8, 7 rings, τ over 3.6 decades) correlated multi-tau with
// the default multi-tau variant of the current device and a two-time map of the stack binned by 16
// frames, then g2(τ) with its fits. `--demo compare`: the seed's size (500 frames of 201×241),
// dense, every xpcs variant on every device in the Compare dock. The demo reports
// whether its run succeeded (Workbench::demoFinished). CLSCOPE_DEMO_VARIANT picks another
// variant for `--demo xpcs`, CLSCOPE_DEMO_TAB another result tab to show.
#include "gpu/algorithm.hpp"
#include "ui/compare/compare_every_variant.hpp"
#include "ui/kit/panel_demo.hpp"
#include "ui/params/param_form.hpp"
#include "ui/xpcs/xpcs_difference_view.hpp"
#include "ui/xpcs/xpcs_live.hpp"
#include "ui/xpcs/xpcs_panel.hpp"

namespace clscope::ui {

namespace {

constexpr double demoFrameTime = 0.001; // seconds
constexpr std::int32_t demoTwoTimeLabel = 2;

// The dataset of a demo and how it is correlated.
struct DemoSeries {
    bool multitau = false;
    long long frames = 0, height = 0, width = 0; // 0: the generator's defaults
    double ringWidth = 0;                        // px; 0: the generator's default
    long long twotimeBin = 0;
};
constexpr DemoSeries longSeries{true, 4096, 64, 96, 8.0, 16};
constexpr DemoSeries seedSeries{};

// The demo's data set, and the XPCS panel set to correlate it.
PanelDemo<XpcsPanel> demoOf(DemoSeries series) {
    PanelDemo<XpcsPanel> demo;
    demo.title = "XPCS";
    demo.request = demoRequest("xpcs");
    demo.request.options.set("frame_time", demoFrameTime);
    for (const auto& [name, value] :
         {std::pair{"frames", series.frames}, {"height", series.height}, {"width", series.width}})
        if (value > 0) demo.request.options.set(name, value);
    if (series.ringWidth > 0) demo.request.options.set("ring_width", series.ringWidth);
    demo.fileName = series.multitau ? "clscope-demo-xpcs-long.h5" : "clscope-demo-xpcs.h5";
    demo.prepare = [series](XpcsPanel& panel) {
        panel.setFrameRange(0, 0);
        panel.setFrameTimeOverride(std::nullopt);
        panel.setTwoTimeLabel(demoTwoTimeLabel);
        panel.form()->setValue("multitau", series.multitau);
        panel.form()->setValue("twotime_bin", series.twotimeBin);
    };
    return demo;
}

// g2(τ) in the middle of the window; CLSCOPE_DEMO_TAB names a result tab to show instead
// (e.g. "Γ vs q²").
void startXpcsDemo(Workbench& wb) {
    PanelDemo<XpcsPanel> demo = demoOf(longSeries);
    demo.variant = [&wb](XpcsPanel& panel) {
        const ParamSet params = panel.request().params();
        return AlgorithmRegistry::instance().find("xpcs").defaultVariant(wb.device(), nullptr,
                                                                         &params);
    };
    demo.finished = [&wb](XpcsPanel&, bool ok) {
        if (ok) showDockInTheMiddle(wb, "ResultsPanel");
        if (ok) showResultTab(wb, qEnvironmentVariable("CLSCOPE_DEMO_TAB"));
        return ok;
    };
    runPanelDemo(wb, demo);
}

void startCompareDemo(Workbench& wb) {
    openPanelDemo<XpcsPanel>(wb, demoOf(seedSeries),
                             [&wb](XpcsPanel&) { compareEveryVariant(wb, "xpcs"); });
}

} // namespace

AlgorithmPanelSpec xpcsPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<XpcsPanel>("xpcs", "XPCS");
    spec.startDemo = startXpcsDemo;
    spec.liveAnalysis = xpcsLiveSpec;
    spec.differenceView = differenceViewOf<xpcs::RunResult, XpcsDifferenceView>;
    spec.startCompareDemo = startCompareDemo;
    return spec;
}

} // namespace clscope::ui
