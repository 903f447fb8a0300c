// `clscope --demo xpcs`: a Brownian series with a known D (4096 frames of 64×96 uint8 at 1 ms,
// 7 rings: τ over 3.6 decades) correlated multi-tau with the device's preferred variant and a
// two-time map binned by 16 frames, the τ(q) law diffusion; g2(τ) with its fits in the middle.
// `--demo compare`: the seed's size (500 frames of 201×241), dense, every xpcs variant on every
// device in Compare.
#include "ui/compare/compare_every_variant.hpp"
#include "ui/kit/panel_demo.hpp"
#include "ui/params/param_form.hpp"
#include "ui/xpcs/xpcs_average_view.hpp"
#include "ui/xpcs/xpcs_panel.hpp"

namespace clscope::ui {

namespace {

// The data set (multi-tau: the long series) and the XPCS panel set to correlate it.
PanelDemo<XpcsPanel> xpcsDemo(bool multitau) {
    PanelDemo<XpcsPanel> demo{"XPCS", demoRequest("xpcs"),
                              multitau ? "clscope-demo-xpcs-long.h5" : "clscope-demo-xpcs.h5"};
    demo.request.options.set("frame_time", 0.001); // seconds
    if (multitau) {
        for (const auto& [name, value] : {std::pair{"frames", 4096}, {"height", 64}, {"width", 96}})
            demo.request.options.set(name, value);
        demo.request.options.set("ring_width", 8.0);
    }
    demo.prepare = [multitau](XpcsPanel& panel) {
        panel.setFrameRange(0, 0);
        panel.setFrameTimeOverride(std::nullopt);
        panel.setTwoTimeLabel(2);
        panel.form()->setValue("multitau", multitau);
        panel.form()->setValue("twotime_bin", multitau ? 16 : 0);
        // Brownian: τ(q) gives D; the law over the rings below 0.005 Å⁻¹ (the outermost, few
        // pixels at the corners' edge, left out: hollow in the τ(q) tab).
        panel.form()->setValue("rate_law", "diffusion");
        panel.form()->setValue("rate_q_range", multitau ? "0.001,0.005" : nlohmann::json());
    };
    return demo;
}

} // namespace

void startXpcsDemo(Workbench& wb) {
    PanelDemo<XpcsPanel> demo = xpcsDemo(true);
    demo.variant = [&wb](XpcsPanel& p) {
        return preferredVariant(wb, "xpcs", p.request().params());
    };
    demo.resultsInTheMiddle = true; // g2(τ) with its fits
    // CLSCOPE_DEMO_AVERAGE="R1.h5,R2.h5,...": those results in the Average tab too (the docs'
    // screenshot; CLSCOPE_DEMO_TAB=Average puts it in front).
    demo.finished = [](XpcsPanel& panel, bool ok) {
        const QString files = qEnvironmentVariable("CLSCOPE_DEMO_AVERAGE");
        if (ok && !files.isEmpty()) panel.showAverage()->addFiles(files.split(','));
        return ok;
    };
    runPanelDemo(wb, demo);
}

void startXpcsCompareDemo(Workbench& wb) {
    openPanelDemo<XpcsPanel>(wb, xpcsDemo(false),
                             [&wb](XpcsPanel&) { compareEveryVariant(wb, "xpcs"); });
}

} // namespace clscope::ui
