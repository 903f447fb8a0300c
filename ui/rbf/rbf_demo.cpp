// The rbf panel's registry entry and `clscope --demo rbf`: generate the seed's particles (50
// random sources with random weights in the unit cube, 400 x 400 plane targets), open the file,
// evaluate the Gaussian with σ = 0.1 on the three planes on the current device and show them.
// demoFinished(ok) is emitted when the run has delivered its planes (false on any failure).
// CLSCOPE_DEMO_KERNEL (gaussian, laplace, helmholtz; helmholtz generates complex weights),
// CLSCOPE_DEMO_DISPLAY (magnitude, real, imaginary, phase), CLSCOPE_DEMO_SCALE (linear, log) and
// CLSCOPE_DEMO_VARIANT choose another view for the docs' screenshots.
#include "ui/kit/panel_demo.hpp"
#include "ui/rbf/rbf_panel.hpp"

#include <QDockWidget>
#include <QMainWindow>

namespace clscope::ui {

namespace {

constexpr std::size_t seedGrid = 400, seedSources = 50;
constexpr double seedSigma = 0.1, demoWavenumber = 10.0;

// The Results dock where the Image was, widened, so that the three planes have the middle of
// the window; the RBF panel in front on the right.
void showInTheMiddle(Workbench& wb) {
    QDockWidget* results = showDockInTheMiddle(wb, "ResultsPanel");
    if (!results) return;
    if (QDockWidget* panel = demoDock(wb, "AlgorithmPanel_rbf")) panel->raise();
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    window->resizeDocks({results}, {window->width() * 3 / 5}, Qt::Horizontal); // as wide as fits
}

std::optional<RbfDisplay> displayNamed(const QString& name) {
    for (RbfDisplay d : {RbfDisplay::Value, RbfDisplay::Magnitude, RbfDisplay::Real,
                         RbfDisplay::Imag, RbfDisplay::Phase})
        if (QString::fromStdString(displayName(d)) == name) return d;
    return std::nullopt;
}

// The seed's particles, the panel set to the demo's kernel and the seed's grid, then one run.
void startRbfDemo(Workbench& wb) {
    rbf::Kernel kernel = rbf::Kernel::Gaussian;
    try {
        const QString name = qEnvironmentVariable("CLSCOPE_DEMO_KERNEL");
        if (!name.isEmpty()) kernel = rbf::parseKernel(name.toStdString());
    } catch (const std::exception& e) {
        wb.log(LogLevel::Error, QString("rbf demo: %1").arg(e.what()));
        return emit wb.demoFinished(false);
    }
    PanelDemo<RbfPanel> demo;
    demo.title = "rbf";
    demo.request = demoRequest("rbf");
    demo.request.options.set("grid_points", seedGrid);
    demo.request.options.set("sources", seedSources);
    demo.request.options.set("complex", kernel == rbf::Kernel::Helmholtz);
    demo.fileName = "clscope-demo-rbf.h5";
    demo.prepare = [kernel](RbfPanel& panel) {
        panel.setLive(false); // set everything, then one run
        panel.setGeneratedSources(false);
        panel.setKernel(kernel);
        panel.setSigma(seedSigma);
        panel.setWavenumber(demoWavenumber);
        panel.setGrid(seedGrid);
        panel.setProfile({0, true, seedGrid / 2});
    };
    demo.started = [](RbfPanel& panel) { panel.setLive(true); };
    demo.finished = [&wb](RbfPanel& panel, bool ok) {
        if (const auto d = displayNamed(qEnvironmentVariable("CLSCOPE_DEMO_DISPLAY")))
            panel.setDisplay(*d);
        if (qEnvironmentVariable("CLSCOPE_DEMO_SCALE") == "log") panel.setScale(RbfScale::Log);
        if (ok) showInTheMiddle(wb);
        return ok && panel.runsDelivered() > 0;
    };
    runPanelDemo(wb, demo);
}

} // namespace

AlgorithmPanelSpec rbfPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<RbfPanel>("rbf", "RBF");
    spec.startDemo = startRbfDemo;
    spec.differenceView = differenceViewOf<rbf::RunResult, RbfDifferenceView>;
    return spec;
}

} // namespace clscope::ui
