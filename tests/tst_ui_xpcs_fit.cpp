// Issue 38 item 3: fits are parameters. A fit set in the XPCS panel's Fit box (stretched,
// non-default τ range and bounds) goes into the run's parameters, its command line and the
// session; the g2 tab's fits are the exported /xpcs/fit datasets, and clscope-cli run with the
// export's command line writes the same /xpcs/fit datasets, bit for bit. Item 4: a run on
// labels edited in the mask editor has a command line that reproduces it.
#include "core/errors.hpp"
#include "core/io.hpp"
#include "core/xpcs/fit_bins.hpp"
#include "core/xpcs/synthetic.hpp"
#include "h5_bytes.hpp"
#include "test_util.hpp"
#include "ui/app/main_window.hpp"
#include "ui/app/session.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/mask/q_bin_labels.hpp"
#include "ui/params/param_form.hpp"
#include "ui/results/local_inputs.hpp"
#include "ui/results/results_panel.hpp"
#include "ui/xpcs/xpcs_fit_form.hpp"
#include "ui/xpcs/xpcs_panel.hpp"
#include "ui/xpcs/xpcs_views.hpp"
#include "ui_test_helpers.hpp"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>

using namespace clscope;
using namespace clscope::ui;

namespace {

// Brownian speckle (D = 1e6 Å²/s, 1 ms frames) with ring labels and their q.
QString writeBrownian(const QTemporaryDir& dir) {
    synthetic::XpcsParams p;
    p.frames = 200, p.height = 48, p.width = 48, p.ringWidth = 6, p.intensity = 50;
    p.dtype = DType::UInt16;
    const QString path = dir.filePath("brownian.h5");
    H5Writer out(path.toStdString());
    synthetic::writeXpcs(out, synthetic::generateXpcs(p), Compression::None);
    out.commit();
    return path;
}

// The fit a user sets: stretched, lags 2 ms < τ ≤ 40 ms, baseline in [0.9, 1.2], β ≤ 0.8,
// α in [0.5, 1.8].
xpcs::FitOptions userFit() {
    xpcs::FitOptions o;
    o.shape = xpcs::G2Shape::Stretched;
    o.tauMin = 0.002, o.tauMax = 0.04;
    o.baseline.lower = 0.9, o.baseline.upper = 1.2;
    o.beta.upper = 0.8;
    o.alpha.lower = 0.5, o.alpha.upper = 1.8;
    return o;
}

// Labels as the mask editor hands them over: the ring 6 ≤ r < 20 px cut into its left half
// (label 1, q 0.5 nm⁻¹) and right half (label 2, q 0.7 nm⁻¹), unlike the file's rings.
CurrentLabels halfRings() {
    auto mask = std::make_shared<LabelMask>();
    mask->height = mask->width = 48;
    for (std::size_t y = 0; y < 48; ++y)
        for (std::size_t x = 0; x < 48; ++x) {
            const double r = std::hypot(double(x) - 23.5, double(y) - 23.5);
            mask->labels.push_back(r >= 6 && r < 20 ? (x < 24 ? 1 : 2) : 0);
        }
    mask::LabelCenters centres{{1, 2}, {0.5, 0.7}, {NAN, NAN}};
    return {mask, centres, "mask editor"};
}

const char* const fitDatasets[] = {"baseline", "baseline_err", "beta",           "beta_err",
                                   "gamma",    "gamma_err",    "alpha",          "alpha_err",
                                   "chi2_red", "quality",      "gamma_exponent", "gamma_prefactor"};

} // namespace

class TestUiXpcsFit : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // The XPCS panel of `window` with `file` open and the cpu variant chosen (null: none).
    static XpcsPanel* cpuPanelOn(MainWindow& window, const QString& file) {
        if (!window.openFile(file)) return nullptr;
        auto* panel = window.findChild<XpcsPanel*>();
        if (panel) panel->setVariant("cpu");
        return panel;
    }

    // Run pressed; whether the run delivered.
    static bool runDelivered(XpcsPanel& panel) {
        QSignalSpy finished(&panel, &XpcsPanel::runFinished);
        return panel.run() && finished.wait(120000) && finished.front().front().toBool();
    }

    // The cpu run of the brownian file in `window` on half-ring labels edited in the mask editor
    // (held in memory); false where the panel is missing or the run failed.
    bool runOnEditedLabels(MainWindow& window) {
        XpcsPanel* panel = cpuPanelOn(window, writeBrownian(dir_));
        if (!panel) return false;
        QBinLabels::of(window.workbench()).setEdited(halfRings());
        return runDelivered(*panel);
    }

  private slots:
    void initTestCase() { test::useTemporarySettings(dir_); }

    void fitBoxIsTheRunsParameters() {
        if (!xpcs::fitAvailable()) QSKIP("built without GSL");
        const QString file = writeBrownian(dir_);
        MainWindow window;
        XpcsPanel* panel = cpuPanelOn(window, file);
        QVERIFY(panel);
        panel->fitForm()->setOptions(userFit());
        emit panel->fitForm()->edited(); // as an edit of the box does
        // The box's values are the form's parameters: the request, the session.
        const ParamSet params = panel->request().params();
        QCOMPARE(params.text("fit"), std::string("stretched"));
        QCOMPARE(params.number("fit_tau_max"), 0.04);
        QCOMPARE(params.number("fit_beta_max"), 0.8);
        // A session holds the fit and gives it back (after its file resets the τ range).
        const nlohmann::json session = SessionManager(window).capture();
        QCOMPARE(session["parameters"]["xpcs"]["fit_alpha_min"].get<double>(), 0.5);
        panel->fitForm()->setOptions({});
        emit panel->fitForm()->edited();
        QVERIFY(panel->request().params().get("fit_tau_max").is_null());
        SessionManager(window).apply(session);
        QCOMPARE(panel->fitForm()->options().tauMax, 0.04);
        QCOMPARE(panel->fitForm()->options().beta.upper, 0.8);
        QVERIFY(panel->fitForm()->options().shape == xpcs::G2Shape::Stretched);
        QVERIFY(runDelivered(*panel));
        saveShots(window, panel->presenter());
        const QString exported = dir_.filePath("gui.h5");
        window.workbench().results().exportHdf5(exported);
        const H5Reader gui(exported.toStdString());
        checkShownFitsAreExported(panel->presenter(), gui);
        const std::string parameters = gui.stringAttribute("/xpcs", "parameters").value_or("");
        QVERIFY2(parameters.find("\"fit_tau_max\":0.04") != std::string::npos, parameters.c_str());
        // clscope-cli with the export's command line: the same /xpcs/fit, bit for bit.
        const std::string line = gui.stringAttribute("/", "command_line").value_or("");
        QVERIFY2(line.find("--fit-tau-max") != std::string::npos &&
                     line.find("--fit-baseline-min") != std::string::npos,
                 line.c_str());
        const auto cli = test::rerunExport(gui, dir_.filePath("cli.h5"));
        QVERIFY2(cli.code == 0, qPrintable(cli.err));
        const H5Reader again(dir_.filePath("cli.h5").toStdString());
        for (const char* name : fitDatasets) {
            const std::string path = std::string("/xpcs/fit/") + name;
            QVERIFY2(gui.hasDataset(path), name);
            QVERIFY2(test::bytesOf(gui, path) == test::bytesOf(again, path), name);
        }
    }

    // Item 4: labels edited in the mask editor (held in memory) are saved to a file that the
    // run reads and its command line names: clscope-cli with the export's line writes the same
    // /xpcs datasets, bit for bit, with q from the labels' own table (carried in the export).
    void editedLabelsHaveACommandLine() {
        MainWindow window;
        QVERIFY(runOnEditedLabels(window));
        const QString exported = dir_.filePath("edited.h5");
        window.workbench().results().exportHdf5(exported);
        const H5Reader gui(exported.toStdString());
        const std::string line = gui.stringAttribute("/", "command_line").value_or("");
        // Issue 52: the labels the run read from the application's data folder are carried in
        // the export, and its command line names them there (--mask EXPORT:PATH): it runs
        // without that folder, as on another machine.
        const std::string carried =
            QFileInfo(exported).absoluteFilePath().toStdString() + ":/entry/processing/qmask";
        QVERIFY2(line.find("--mask " + carried) != std::string::npos &&
                     line.find("/labels/labels-") == std::string::npos,
                 line.c_str());
        QVERIFY(gui.hasDataset("/entry/processing/qmask_q"));
        QVERIFY(QDir(localDataFolder() + "/labels").removeRecursively());
        const Array q = gui.read("/xpcs/q", DType::Float64);
        QCOMPARE(q.size(), std::size_t(2));
        QVERIFY(std::abs(q.as<double>()[0] - 0.05) < 1e-15); // 0.5 nm⁻¹ in 1/Å
        QVERIFY(std::abs(q.as<double>()[1] - 0.07) < 1e-15);
        const auto cli = test::rerunExport(gui, dir_.filePath("edited-cli.h5"));
        QVERIFY2(cli.code == 0, qPrintable(cli.err));
        test::compareDatasets(gui, H5Reader(dir_.filePath("edited-cli.h5").toStdString()), "/xpcs");
    }

    // Issue 52 item 2: the CSV and image exports and the copied command line named the data
    // folder's labels file; the labels go to a file of their own (beside the export, or chosen
    // for the copied line) that the line names, and each line runs without the data folder.
    void csvPlotAndCopiedLineCarryTheirLabels() {
        MainWindow window;
        QVERIFY(runOnEditedLabels(window));
        ResultsPanel& results = window.workbench().results();
        const int shown = results.tabWidget()->currentIndex();
        const std::unique_ptr<QMenu> menu(results.tabMenu(shown, nullptr));
        QCOMPARE(menu->actions().front()->text(),
                 QString("Copy command line with its labels saved…"));
        const QString csv = dir_.filePath("edited.csv"), png = dir_.filePath("edited.png");
        const QString copied = dir_.filePath("copied-labels.h5");
        results.exportCsv(csv);
        results.exportPlot(png);
        const std::map<QString, QString> lines{
            {inputsBeside(csv), QString::fromUtf8(test::readAll(csv))
                                    .section("# command_line: ", 1)
                                    .section('\n', 0, 0)},
            {inputsBeside(png), QImage(png).text("command_line")},
            {copied, results.commandLineCarrying(shown, copied)}};
        QVERIFY(QDir(localDataFolder() + "/labels").removeRecursively());
        for (const auto& [inputs, line] : lines) {
            const QString carried =
                QFileInfo(inputs).absoluteFilePath() + ":/entry/processing/qmask";
            QVERIFY2(line.contains("--mask " + carried) && !line.contains("/labels/labels-"),
                     qPrintable(inputs + ": " + line));
            const H5Reader travelling(inputs.toStdString());
            QVERIFY(travelling.hasDataset("/entry/processing/qmask_q"));
            const auto cli = test::rerunExport(travelling, dir_.filePath("carried-cli.h5"));
            QVERIFY2(cli.code == 0, qPrintable(cli.err));
        }
    }

    // Issue 57 item 5: the export offers the run's facility layouts (aps, nxxpcs) beside
    // clscope's own; each is what clscope-cli --layout writes, and its command line says so:
    // rerun, the same datasets bit for bit.
    void exportOffersTheFacilityLayouts() {
        const QString file = writeBrownian(dir_);
        MainWindow window;
        XpcsPanel* panel = cpuPanelOn(window, file);
        QVERIFY(panel);
        QVERIFY(runDelivered(*panel));
        ResultsPanel& results = window.workbench().results();
        std::vector<std::string> names;
        for (const OutputLayout& l : results.layoutsShown().layouts)
            names.push_back(l.name);
        QCOMPARE(names, (std::vector<std::string>{"aps", "nxxpcs"}));
        QVERIFY_THROWS_EXCEPTION(UsageError, results.exportShownAs(dir_.filePath("x.h5"), "dials"));
        for (const auto& [layout, group] : {std::pair{"aps", "/xpcs"}, {"nxxpcs", "/entry/data"}}) {
            const QString exported = dir_.filePath(QString("gui-%1.h5").arg(layout));
            results.exportShownAs(exported, layout);
            const H5Reader gui(exported.toStdString());
            const std::string line = gui.stringAttribute("/", "command_line").value_or("");
            QVERIFY2(line.find(std::string("--layout ") + layout) != std::string::npos,
                     line.c_str());
            const QString again = dir_.filePath(QString("cli-%1.h5").arg(layout));
            const auto cli = test::rerunExport(gui, again);
            QVERIFY2(cli.code == 0, qPrintable(cli.err));
            test::compareDatasets(gui, H5Reader(again.toStdString()), group);
        }
        // The aps file drawn beside the run (its g2 is the run's: lags > 0, every bin).
        QVERIFY(!panel->overlayResult(file)); // the input holds no result: refused, said
        QVERIFY(!panel->presenter().overlay());
        const int graphs = panel->g2View()->plot()->graphCount();
        QVERIFY(panel->overlayResult(dir_.filePath("gui-aps.h5")));
        const XpcsPresenter& p = panel->presenter();
        QVERIFY(p.overlay()->deviceLabel.find("gui-aps.h5") != std::string::npos);
        for (std::size_t bin = 0; bin < p.binCount(); ++bin) {
            const auto other = p.overlaySeries(bin);
            QVERIFY(other);
            const XpcsSeries own = p.series(bin);
            QCOMPARE(other->tau.size(), own.tau.size());
            for (std::size_t t = 0; t < own.tau.size(); ++t) {
                QVERIFY(std::abs(other->tau[t] - own.tau[t]) <= 1e-12 * own.tau[t]);
                QVERIFY(std::abs(other->g2[t] - own.g2[t]) <= 1e-6 * std::abs(own.g2[t]));
            }
        }
        // Hollow markers per checked bin and one legend entry more; then removed again.
        const int checked = int(panel->g2View()->selectedBins().size());
        QCOMPARE(panel->g2View()->plot()->graphCount(), graphs + checked + 1);
        QCOMPARE(panel->g2View()->overlayButton()->text(), QString("Remove overlay"));
        saveOverlayShot(window);
        panel->g2View()->overlayButton()->click();
        QVERIFY(!panel->presenter().overlay());
        QCOMPARE(panel->g2View()->plot()->graphCount(), graphs);
    }

    // Issue 52: after Apply in the mask editor the panel said "q: none" while the run's
    // results carried q from the labels' own table; it says where q comes from.
    void editedLabelsSayTheirQ() {
        const QString file = writeBrownian(dir_);
        MainWindow window;
        QVERIFY(window.openFile(file));
        auto* panel = window.findChild<XpcsPanel*>();
        QVERIFY(panel);
        QBinLabels::of(window.workbench()).setEdited(halfRings());
        QStringList texts;
        for (const QLabel* label : panel->findChildren<QLabel*>())
            texts << label->text();
        QVERIFY2(texts.contains("Å⁻¹, from the q table of the labels (mask editor)"),
                 qPrintable(texts.join(" | ")));
        // With CLSCOPE_TEST_SHOTS=DIR: the window with the panel, DIR/xpcs-q-WxH.png.
        const QString shots = qEnvironmentVariable("CLSCOPE_TEST_SHOTS");
        for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
            if (shots.isEmpty()) break;
            window.resize(size);
            window.show();
            window.dock("AlgorithmPanel_xpcs")->raise();
            QTest::qWait(200);
            window.grab().save(
                QString("%1/xpcs-q-%2x%3.png").arg(shots).arg(size.width()).arg(size.height()));
        }
    }

  private:
    // With CLSCOPE_TEST_SHOTS=DIR: the g2 tab with an overlay at 1600×1000 and 1280×800.
    static void saveOverlayShot(MainWindow& window) {
        const QString dir = qEnvironmentVariable("CLSCOPE_TEST_SHOTS");
        if (dir.isEmpty()) return;
        window.show();
        for (const QSize size : {QSize(1600, 1000), QSize(1280, 800)}) {
            window.resize(size);
            QCoreApplication::processEvents();
            window.grab().save(QString("%1/xpcs-overlay-%2.png").arg(dir).arg(size.width()));
        }
    }

    // With CLSCOPE_TEST_SHOTS=DIR: the window at 1600×1000 with each xpcs result tab in front,
    // to look at (DIR/xpcs-fit-<n>.png).
    static void saveShots(MainWindow& window, const XpcsPresenter& presenter) {
        const QString dir = qEnvironmentVariable("CLSCOPE_TEST_SHOTS");
        if (dir.isEmpty()) return;
        window.resize(1600, 1000);
        window.show();
        QTabWidget* tabs = window.workbench().results().tabWidget();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            QCoreApplication::processEvents();
            window.grab().save(QString("%1/xpcs-fit-%2.png").arg(dir).arg(i));
        }
        XpcsFitsView fits(std::make_shared<XpcsPresenter>(presenter));
        fits.resize(1500, 320);
        fits.show();
        QCoreApplication::processEvents();
        fits.grab().save(dir + "/xpcs-fits-table.png");
    }

    // The g2 tab's Γ, χ²_red and quality are the export's /xpcs/fit datasets.
    static void checkShownFitsAreExported(const XpcsPresenter& p, const H5Reader& out) {
        const Array gamma = out.read("/xpcs/fit/gamma", DType::Float64);
        const Array chi2 = out.read("/xpcs/fit/chi2_red", DType::Float64);
        const Array quality = out.read("/xpcs/fit/quality", DType::UInt32);
        QCOMPARE(p.fits().size(), gamma.size());
        std::size_t converged = 0;
        for (std::size_t b = 0; b < p.fits().size(); ++b) {
            const XpcsBinFit& f = p.fits()[b];
            QCOMPARE(f.flags, quality.as<std::uint32_t>()[b]);
            if (!f.ok()) { // not converged: NaN in the file
                QVERIFY(std::isnan(gamma.as<double>()[b]) && std::isnan(chi2.as<double>()[b]));
                continue;
            }
            QVERIFY(std::memcmp(&f.fit.values[2], &gamma.as<double>()[b], sizeof(double)) == 0);
            QVERIFY(std::memcmp(&f.fit.chiSquaredReduced, &chi2.as<double>()[b], sizeof(double)) ==
                    0);
            QVERIFY(f.fit.values[0] >= 0.9 && f.fit.values[0] <= 1.2);
            QVERIFY(f.fit.values[3] >= 0.5 && f.fit.values[3] <= 1.8);
            ++converged;
        }
        QVERIFY(converged * 2 > p.fits().size());
    }
};

QTEST_MAIN(TestUiXpcsFit)
#include "tst_ui_xpcs_fit.moc"
