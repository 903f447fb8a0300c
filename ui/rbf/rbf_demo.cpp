// `clscope --demo rbf`: the seed's particles (50 random sources with random weights in the unit
// cube) evaluated with the Gaussian of σ = 0.1 on three 400 × 400 planes on the current device,
// the planes in the middle. CLSCOPE_DEMO_KERNEL (gaussian, laplace, helmholtz: complex weights),
// CLSCOPE_DEMO_DISPLAY (magnitude, real, imaginary, phase) and CLSCOPE_DEMO_SCALE (log) choose
// another view for the docs' screenshots.
#include "ui/kit/panel_demo.hpp"
#include "ui/rbf/rbf_panel.hpp"

namespace clscope::ui {

void startRbfDemo(Workbench& wb) {
    constexpr std::size_t grid = 400, sources = 50;
    rbf::Kernel kernel = rbf::Kernel::Gaussian;
    try {
        const QString name = qEnvironmentVariable("CLSCOPE_DEMO_KERNEL");
        if (!name.isEmpty()) kernel = rbf::parseKernel(name.toStdString());
    } catch (const std::exception& e) {
        wb.log(LogLevel::Error, QString("rbf demo: %1").arg(e.what()));
        return emit wb.demoFinished(false);
    }
    PanelDemo<RbfPanel> demo("rbf", demoRequest("rbf"), "clscope-demo-rbf.h5");
    demo.request.options.set("grid_points", grid);
    demo.request.options.set("sources", sources);
    demo.request.options.set("complex", kernel == rbf::Kernel::Helmholtz);
    demo.prepare = [kernel](RbfPanel& panel) {
        panel.setLive(false); // set everything, then one run
        panel.setGeneratedSources(false);
        panel.setKernel(kernel);
        panel.setSigma(0.1);
        panel.setWavenumber(10.0);
        panel.setGrid(grid);
        panel.setProfile({0, true, grid / 2});
    };
    demo.started = [](RbfPanel& panel) { panel.setLive(true); };
    demo.resultsInTheMiddle = demo.panelInFront = true;
    demo.finished = [&wb](RbfPanel& panel, bool ok) {
        const QString display = qEnvironmentVariable("CLSCOPE_DEMO_DISPLAY");
        if (const auto d = displayNamed(display.toStdString())) panel.setDisplay(*d);
        if (qEnvironmentVariable("CLSCOPE_DEMO_SCALE") == "log") panel.setScale(RbfScale::Log);
        if (ok) widenDocks(wb, {"ResultsPanel"}, {0.6}); // the three planes: as wide as fits
        return ok && panel.runsDelivered() > 0;
    };
    runPanelDemo(wb, demo);
}

} // namespace clscope::ui
