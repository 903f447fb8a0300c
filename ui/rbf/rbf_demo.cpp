// The rbf panel's registry entry and `clscope --demo rbf`: generate the seed's particles (50
// random sources with random weights in the unit cube, 400 x 400 plane targets), open the file,
// evaluate the Gaussian with σ = 0.1 on the three planes on the current device and show them.
// demoFinished(ok) is emitted when the run has delivered its planes (false on any failure).
// CLSCOPE_DEMO_KERNEL (gaussian, laplace, helmholtz; helmholtz generates complex weights),
// CLSCOPE_DEMO_DISPLAY (magnitude, real, imaginary, phase), CLSCOPE_DEMO_SCALE (linear, log) and
// CLSCOPE_DEMO_VARIANT choose another view for the docs' screenshots.
#include "core/errors.hpp"
#include "ui/kit/panel_spec.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/rbf/rbf_panel.hpp"

#include <QDir>
#include <QDockWidget>
#include <QMainWindow>
#include <QStandardPaths>

namespace clscope::ui {

namespace {

constexpr std::size_t seedGrid = 400, seedSources = 50;
constexpr double seedSigma = 0.1, demoWavenumber = 10.0;

// The Results dock where the Image was, widened, so that the three planes have the middle of
// the window; the RBF panel in front on the right.
void showInTheMiddle(Workbench& wb) {
    auto* window = qobject_cast<QMainWindow*>(wb.parent());
    if (!window) return;
    auto *image = window->findChild<QDockWidget*>("ImagePanel"),
         *results = window->findChild<QDockWidget*>("ResultsPanel"),
         *panel = window->findChild<QDockWidget*>("AlgorithmPanel_rbf");
    if (!image || !results) return;
    window->tabifyDockWidget(image, results);
    results->show();
    results->raise();
    if (panel) panel->raise();
    window->resizeDocks({results}, {window->width() * 3 / 5}, Qt::Horizontal); // as wide as fits
}

std::optional<RbfDisplay> displayNamed(const QString& name) {
    for (RbfDisplay d : {RbfDisplay::Value, RbfDisplay::Magnitude, RbfDisplay::Real,
                         RbfDisplay::Imag, RbfDisplay::Phase})
        if (QString::fromStdString(displayName(d)) == name) return d;
    return std::nullopt;
}

// The panel set to the demo's kernel and the seed's grid, then one run.
void runDemo(Workbench& wb, rbf::Kernel kernel) {
    RbfPanel* panel = panelIn<RbfPanel>(wb);
    if (!panel) {
        wb.log(LogLevel::Error, "rbf demo: the rbf panel is not there");
        return emit wb.demoFinished(false);
    }
    panel->setLive(false); // set everything, then one run
    panel->setGeneratedSources(false);
    panel->setKernel(kernel);
    panel->setSigma(seedSigma);
    panel->setWavenumber(demoWavenumber);
    panel->setGrid(seedGrid);
    panel->setProfile({0, true, seedGrid / 2});
    const QString variant = qEnvironmentVariable("CLSCOPE_DEMO_VARIANT");
    if (!variant.isEmpty()) panel->setVariant(variant.toStdString());
    QObject::connect(
        panel, &RbfPanel::runFinished, panel,
        [&wb, panel](bool ok) {
            if (const auto d = displayNamed(qEnvironmentVariable("CLSCOPE_DEMO_DISPLAY")))
                panel->setDisplay(*d);
            if (qEnvironmentVariable("CLSCOPE_DEMO_SCALE") == "log") panel->setScale(RbfScale::Log);
            if (ok) showInTheMiddle(wb);
            emit wb.demoFinished(ok && panel->runsDelivered() > 0);
        },
        Qt::SingleShotConnection);
    const bool started = panel->run();
    panel->setLive(true);
    if (!started) emit wb.demoFinished(false);
}

void startRbfDemo(Workbench& wb) {
    rbf::Kernel kernel = rbf::Kernel::Gaussian;
    try {
        const QString name = qEnvironmentVariable("CLSCOPE_DEMO_KERNEL");
        if (!name.isEmpty()) kernel = rbf::parseKernel(name.toStdString());
    } catch (const std::exception& e) {
        wb.log(LogLevel::Error, QString("rbf demo: %1").arg(e.what()));
        return emit wb.demoFinished(false);
    }
    GenerateRequest request = demoRequest("rbf");
    request.options.set("grid_points", seedGrid);
    request.options.set("sources", seedSources);
    request.options.set("complex", kernel == rbf::Kernel::Helmholtz);
    const QString path = QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation))
                             .filePath("clscope-demo-rbf.h5");
    wb.generateAndOpen(request, path, [&wb, kernel] { runDemo(wb, kernel); });
}

} // namespace

AlgorithmPanelSpec rbfPanelSpec() {
    AlgorithmPanelSpec spec = panelSpecOf<RbfPanel>("rbf", "RBF");
    spec.startDemo = startRbfDemo;
    spec.differenceView = differenceViewOf<rbf::RunResult, RbfDifferenceView>;
    return spec;
}

} // namespace clscope::ui
