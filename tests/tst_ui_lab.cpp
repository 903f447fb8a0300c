// The kernel lab window (ui/lab) on PoCL, through rbf's `tiled` program at the seed size: a
// fork run unchanged passes beside its base, a wrong kernel fails with its deviation, a syntax
// error is listed at its line (a click puts the editor there), a kernel that never finishes is
// reported as a timeout while the event loop keeps running, a sweep gives one checked row per
// value with its kernels' OpenCL figures and compiled output, Cancel ends the CLI and its worker,
// and Keep best saves a user variant the panels and clscope-cli list, and the history is written
// and exported. CLSCOPE_LAB_SCREENSHOT=OUT.png saves the window after the syntax error.
#include "gpu/runtime/devices.hpp"
#include "test_util.hpp"
#include "ui/app/main_window.hpp"
#include "ui/kit/variant_combo.hpp"
#include "ui/lab/build_log_list.hpp"
#include "ui/lab/code_editor.hpp"
#include "ui/lab/compiled_output_view.hpp"
#include "ui/lab/lab_history.hpp"
#include "ui/lab/lab_history_view.hpp"
#include "ui/lab/lab_kernels_table.hpp"
#include "ui/lab/lab_roofline_plot.hpp"
#include "ui/lab/lab_rows_table.hpp"
#include "ui/lab/lab_run.hpp"
#include "ui/lab/lab_window.hpp"
#include "ui/lab/opencl_highlighter.hpp"
#include "ui_test_helpers.hpp"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextLayout>
#include <QTreeWidget>
#include <QtTest>
#include <memory>

using namespace clscope;
using namespace clscope::ui;

namespace {

const QString kernelLine = "rbf_store(out, first + u * RBF_WG, sum[u]);";

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestUiLab : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::unique_ptr<LabWindow> lab;
    QString printed; // the fork of rbf tiled as the editor shows it
    int ticks = 0;   // a QTimer's ticks during the last run

    // Save & run with `source` in the editor; waits (in the event loop) for the rows.
    bool run(const QString& source) { return run(*lab, source); }
    bool run(LabWindow& window, const QString& source) {
        window.editor()->setPlainText(source);
        QTimer ticker;
        ticks = 0;
        connect(&ticker, &QTimer::timeout, this, [this] { ++ticks; });
        ticker.start(50);
        QSignalSpy finished(&window, &LabWindow::runFinished);
        const QString why = window.saveAndRun();
        if (!why.isEmpty()) qWarning() << why;
        return why.isEmpty() && window.running() && finished.wait(90000);
    }
    // Live processes of a process group (/proc/PID/stat's 5th field), zombies left out.
    static int groupMembers(qint64 group) {
        int n = 0;
        for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
            const QStringList f = readText("/proc/" + pid + "/stat").section(')', -1).split(' ');
            n += f.size() > 4 && f[3].toLongLong() == group && f[1] != "Z";
        }
        return n;
    }
    QString cell(int row, const QString& column) const {
        return lab->rowsTable()->cell(row, column);
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        qputenv("CLSCOPE_USER_VARIANTS", dir.filePath("variants").toUtf8());
        lab = std::make_unique<LabWindow>();
        lab->show();
        QVERIFY(lab->choose("rbf", "tiled"));
        lab->setDevice("ocl:0"); // the printed values are the host's there
        QCOMPARE(lab->fork(), QString());
        printed = lab->editor()->toPlainText();
        QVERIFY2(printed.contains(
                     QRegularExpression("\n// tunable RBF_WG = \\d+ \\(allowed: 1..1024\\)")),
                 qPrintable(printed));
        QVERIFY(printed.contains("__kernel") && printed.contains(kernelLine));
        lab->setRepeat(2);
        lab->setKernelTimeout(20);
    }
    void editorColoursOpenClAndNumbersLines() {
        const QTextBlock block = lab->editor()->document()->find("__kernel").block();
        QVERIFY(block.isValid());
        const QTextCharFormat qualifier = lab->editor()->highlighter()->formatOf("qualifier");
        bool coloured = false;
        for (const QTextLayout::FormatRange& r : block.layout()->formats())
            coloured |= r.start == block.text().indexOf("__kernel") &&
                        r.format.foreground() == qualifier.foreground();
        QVERIFY2(coloured, qPrintable(block.text()));
        QVERIFY(lab->editor()->lineNumberAreaWidth() > 0);
    }
    void forkUnchangedPassesBesideItsBase() {
        QVERIFY(run(printed));
        QCOMPARE(lab->rowsTable()->rowCount(), 2);
        QCOMPARE(cell(0, "row"), QString("tiled"));
        QCOMPARE(cell(1, "row"), QString("fork"));
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(cell(r, "check"), QString("pass"));
            QVERIFY(cell(r, "median ms").toDouble() > 0);
            QVERIFY(cell(r, "p80 ms").toDouble() >= cell(r, "p20 ms").toDouble());
            // The roofline: achieved rates with their fraction of the measured peaks.
            for (const char* column : {"GB/s (of peak)", "Gop/s (of peak)"})
                QVERIFY2(
                    cell(r, column).contains(QRegularExpression("^[0-9.e+-]+ \\([0-9.]+%\\)$")),
                    qPrintable(cell(r, column)));
        }
        QCOMPARE(lab->outcome().exitCode, 0);
        // The printed values are what the base builds here: the fork is the same program.
        const nlohmann::json& rows = lab->outcome().rows;
        QVERIFY(rows[1]["source_sha256"] == rows[0]["source_sha256"]);
        QVERIFY(rows[1]["programs"][0]["options"] == rows[0]["programs"][0]["options"]);
        QCOMPARE(lab->rooflinePlot()->pointCount(), 2); // each row under the measured roof
    }
    void variantNeedingAParameterRunsWithIt() { // the Parameters field is the CLI's --params
        LabWindow window;
        window.show();
        QVERIFY(window.choose("xpcs", "multitau"));
        window.setDevice("ocl:0"), window.setRepeat(1); // the seed case
        QCOMPARE(window.fork(), QString());
        const QString source = window.editor()->toPlainText();
        QVERIFY(run(window, source));
        QVERIFY2(window.outcome().rows[0]["note"].get<std::string>().find("multi-tau only") !=
                     std::string::npos,
                 window.outcome().rows[0].dump().c_str());
        window.setParams(R"({"multitau": true})");
        QVERIFY(run(window, source));
        QVERIFY2(
            window.outcome().exitCode == 0,
            (window.outcome().rows.dump() + window.outcome().errorOutput.toStdString()).c_str());
        for (const nlohmann::json& row : window.outcome().rows)
            QVERIFY2(row["check"] == "pass" && row["params"]["multitau"] == true,
                     row.dump().c_str());
    }
    void kernelsAndCompiledOutputOfEachRow() {
        LabKernelsTable* kernels = lab->kernelsTable();
        QVERIFY(kernels->rowCount() >= 2); // each row's kernels
        QCOMPARE(kernels->cell(0, "row"), QString("tiled"));
        QCOMPARE(kernels->cell(0, "program"), QString("rbf_tiled"));
        QVERIFY(kernels->cell(0, "work-group limit").toLongLong() >= 1);
        QVERIFY(kernels->cell(0, "multiple").toLongLong() >= 1);
        QVERIFY(kernels->cell(0, "local B").toLongLong() > 0); // the source tile
        CompiledOutputView* compiled = lab->compiledOutput();
        QCOMPARE(compiled->choices(), 2);
        QCOMPARE(compiled->choiceText(), QString("fork — rbf_tiled")); // the fork's first
        QVERIFY(!compiled->shownText().isEmpty());
        const nlohmann::json program = lab->outcome().rows[1]["programs"][0];
        const QString exported = dir.filePath("fork.out");
        QCOMPARE(compiled->exportTo(exported), QString());
        QFile out(exported), original(QString::fromStdString(program["binary_file"]));
        QVERIFY(out.open(QIODevice::ReadOnly) && original.open(QIODevice::ReadOnly));
        QVERIFY(out.size() > 0 && out.readAll() == original.readAll());
        if (program["binary_text"].get<bool>())
            QVERIFY(compiled->shownText().startsWith(readText(exported).left(200)));
        else
            QVERIFY2(compiled->shownText().startsWith("Not text"),
                     qPrintable(compiled->shownText()));
        // With CLSCOPE_TEST_SHOTS=DIR: the window with each of these tabs in front.
        if (const QString shots = qEnvironmentVariable("CLSCOPE_TEST_SHOTS"); !shots.isEmpty()) {
            auto* tabs = lab->findChild<QTabWidget*>("LabTabs");
            QVERIFY(tabs);
            for (int t : {1, 2}) {
                tabs->setCurrentIndex(t);
                QVERIFY(lab->grab().save(shots + QString("/lab_tab%1.png").arg(t)));
            }
            tabs->setCurrentIndex(0);
            lab->resize(1280, 800); // a small screen: the controls still fit
            QVERIFY(lab->grab().save(shots + "/lab_1280.png"));
            lab->resize(1600, 1000);
        }
    }
    void wrongKernelFailsWithItsDeviation() {
        QVERIFY(run(QString(printed).replace(kernelLine,
                                             "rbf_store(out, first + u * RBF_WG, sum[u] + 1);")));
        QCOMPARE(cell(0, "check"), QString("pass"));
        QCOMPARE(cell(1, "check"), QString("FAIL"));
        QVERIFY(cell(1, "max deviation").toDouble() > 0);
        QVERIFY2(cell(1, "note").startsWith("first at "), qPrintable(cell(1, "note")));
        // Issue 52: the failure in full under the table (the note column needed scrolling).
        const QString details = lab->rowDetails()->text();
        QVERIFY2(details.startsWith(cell(1, "row") + ": FAIL — first at ") &&
                     details.contains(" beyond "),
                 qPrintable(details));
        QCOMPARE(lab->rowsTable()->item(1, 2)->toolTip(), details);
        QCOMPARE(lab->outcome().exitCode, 1);
        // With CLSCOPE_TEST_SHOTS=DIR: DIR/lab-fail-WxH.png, the failure said under the table.
        const QString shots = qEnvironmentVariable("CLSCOPE_TEST_SHOTS");
        for (const QSize size : {QSize(1280, 800), QSize(1600, 1000)}) {
            if (shots.isEmpty()) break;
            lab->resize(size);
            QTest::qWait(200);
            QVERIFY(lab->grab().save(
                QString("%1/lab-fail-%2x%3.png").arg(shots).arg(size.width()).arg(size.height())));
        }
    }
    void syntaxErrorIsListedAtItsLine() {
        QStringList lines = printed.split('\n');
        const int at =
            int(lines.indexOf(QRegularExpression(".*const uint first = \\(firstGroup.*")));
        QVERIFY(at > 0);
        lines[at] = "    const uint first = this is not C;";
        QVERIFY(run(lines.join('\n')));
        QCOMPARE(cell(0, "check"), QString("pass")); // the base still runs and is timed
        QCOMPARE(cell(1, "check"), QString("BUILD"));
        BuildLogList* log = lab->buildLog();
        QVERIFY2(log->count() > 0 && BuildLogList::lineOf(log->item(0)) == at + 1,
                 qPrintable(log->count() ? log->item(0)->text() : "no messages"));
        QVERIFY(log->item(0)->text().contains("error"));
        QCOMPARE(lab->editor()->marks().value(at + 1), QString("error"));
        lab->editor()->goToLine(1);
        const QRect item = log->visualItemRect(log->item(0));
        QTest::mouseClick(log->viewport(), Qt::LeftButton, {}, item.center());
        QCOMPARE(lab->editor()->currentLine(), at + 1);
        if (const QString shot = qEnvironmentVariable("CLSCOPE_LAB_SCREENSHOT"); !shot.isEmpty())
            QVERIFY(lab->grab().save(shot));
    }
    void neverFinishingKernelTimesOutWhileTheWindowRuns() {
        lab->setKernelTimeout(3);
        const QString spin = QString(printed).replace(
            "planes, step, origin, coordScale);",
            "planes, step, origin, coordScale); { volatile int s = 1; while (s) {} }");
        QElapsedTimer clock;
        clock.start();
        QVERIFY(run(spin));
        QVERIFY2(clock.elapsed() < 60000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY2(ticks >= 40, qPrintable(QString::number(ticks))); // >= 2 s of 50 ms ticks
        QCOMPARE(cell(1, "check"), QString("TIMEOUT"));
        QVERIFY2(cell(1, "note").contains("the kernel did not finish in 3 s"),
                 qPrintable(cell(1, "note")));
        QCOMPARE(lab->editor()->toPlainText(), spin); // the edits stay
        QCOMPARE(lab->outcome().exitCode, 4);
        lab->setKernelTimeout(20);
    }
    void cancelEndsTheCliAndItsWorker() {
        lab->editor()->setPlainText(QString(printed).replace(
            "planes, step, origin, coordScale);",
            "planes, step, origin, coordScale); { volatile int s = 1; while (s) {} }"));
        QCOMPARE(lab->saveAndRun(), QString());
        const qint64 group = lab->labRun()->processId();
        QVERIFY(group > 0);
        QTRY_VERIFY_WITH_TIMEOUT(groupMembers(group) >= 2, 20000); // the CLI and its worker
        lab->cancelRun();
        QVERIFY(!lab->running());
        QTRY_COMPARE_WITH_TIMEOUT(groupMembers(group), 0, 5000);
        QVERIFY(lab->saveAndRun().isEmpty()); // ready for the next run
        lab->cancelRun();
    }
    void sweepGivesCheckedRowsAndKeepBestSavesAUserVariant() {
        lab->setSweep("RBF_WG=32,64");
        lab->setColdCache(true);
        QVERIFY(run(printed));
        lab->setSweep("");
        lab->setColdCache(false);
        for (const nlohmann::json& r : lab->outcome().rows) // --cold-cache went with them
            QVERIFY(r.value("cold_cache_bytes", std::uint64_t(0)) > 0);
        QCOMPARE(lab->rowsTable()->rowCount(), 3);
        QCOMPARE(cell(1, "row"), QString("fork RBF_WG=32"));
        QCOMPARE(cell(2, "row"), QString("fork RBF_WG=64"));
        for (int r = 0; r < 3; ++r)
            QCOMPARE(cell(r, "check"), QString("pass"));
        // Each value's own build: the local-memory tile of RBF_WG sources grows with it.
        LabKernelsTable* kernels = lab->kernelsTable();
        QCOMPARE(kernels->rowCount(), 3);
        QCOMPARE(kernels->cell(1, "row"), QString("fork RBF_WG=32"));
        QVERIFY(kernels->cell(1, "local B").toLongLong() <
                kernels->cell(2, "local B").toLongLong());
        QCOMPARE(lab->compiledOutput()->choices(), 3);
        // The same sweep again: its values come from the sweep cache, the base is measured.
        const QString median = cell(1, "median ms");
        lab->setSweep("RBF_WG=32,64");
        lab->setColdCache(true); // as measured: a warm-cache row is another row
        QVERIFY(run(printed));
        lab->setSweep("");
        lab->setColdCache(false);
        for (int r = 1; r < 3; ++r)
            QVERIFY2(cell(r, "note").startsWith("from the sweep cache"),
                     qPrintable(cell(r, "note")));
        QVERIFY(!cell(0, "note").contains("cache"));
        QCOMPARE(cell(1, "median ms"), median);
        QCOMPARE(lab->kernelsTable()->rowCount(), 3);
        const int best = lab->outcome().bestForkRow();
        QVERIFY(best == 1 || best == 2);
        QString error;
        const QString path = lab->keepBest("best", &error);
        QVERIFY2(!path.isEmpty(), qPrintable(error));
        QVERIFY(QFile::exists(dir.filePath("variants/rbf/best.cl")));
        QVERIFY(readText(dir.filePath("variants/rbf/best.json"))
                    .contains(best == 1 ? "\"RBF_WG\": \"32\"" : "\"RBF_WG\": \"64\""));
        const auto listed = test::runCli({"variants", "rbf"});
        QVERIFY2(listed.out.contains("user:best\tthe user's fork of tiled"),
                 qPrintable(listed.out));
        bool offered = false;
        for (const VariantChoice& c :
             variantChoices(AlgorithmRegistry::instance().find("rbf"), resolveDevice("ocl:0")))
            offered |= c.id == "user:best" && c.enabled;
        QVERIFY(offered); // the rbf panel's picker lists it
        QVERIFY(lab->choose("rbf", "user:best"));
        QVERIFY(lab->fork().isEmpty());
        QVERIFY(lab->editor()->toPlainText().contains("RBF_WG"));
        QVERIFY(!lab->keepBest("", &error).isEmpty() || !error.isEmpty());
    }
    void historyIsWrittenAndExported() {
        const LabHistory history; // read back from the file
        QCOMPARE(QString::fromStdString(history.file().string()),
                 dir.filePath("variants/lab_history.json"));
        QCOMPARE(int(history.entries().size()), 2 + 2 + 2 + 2 + 3 + 3);
        const nlohmann::json& last = history.entries().back();
        QCOMPARE(QString::fromStdString(last.value("result", "")), QString("pass"));
        QCOMPARE(QString::fromStdString(last.value("source_sha256", "")).size(), 64);
        QVERIFY(last.contains("tunables") && last.contains("median_ms") && last.contains("device"));
        QCOMPARE(QString::fromStdString(history.entries()[7].value("result", "")),
                 QString("timeout"));
        history.exportCsv(dir.filePath("h.csv").toStdString());
        const QStringList csv = readText(dir.filePath("h.csv")).trimmed().split('\n');
        QCOMPARE(csv.size(), 1 + 14);
        QVERIFY(csv[0].startsWith("date,algorithm,from,label"));
        QVERIFY(csv[6].contains(",build,") && csv.last().contains("RBF_WG=64"));
        history.exportJson(dir.filePath("h.json").toStdString());
        QCOMPARE(nlohmann::json::parse(readText(dir.filePath("h.json")).toStdString()).size(),
                 std::size_t(14));
    }
    void historyDiffsTwoSelectedEntries() {
        QTreeWidget* list = lab->historyView()->list();
        QVERIFY(lab->historyView()->diffSelected().isEmpty()); // nothing selected
        list->clearSelection();
        list->topLevelItem(0)->setSelected(true); // newest first: the last sweep's 64 and 32
        list->topLevelItem(1)->setSelected(true);
        const QString diff = lab->historyView()->diffSelected();
        QVERIFY2(diff.contains("tunables:\n  RBF_WG: 32 -> 64\n") &&
                     diff.contains("source: the same") && diff.contains("local_mem_bytes: ") &&
                     diff.contains("compiled output: "),
                 qPrintable(diff));
    }
    // Issue 52: the lab fits a 1280 × 800 screen (it opened at 1600 × 1000 whatever the
    // screen: Keep best, History, Diff and Export off-screen) and opens within the screen.
    void labFitsALaptopScreen() {
        LabWindow window;
        const QSize least = window.minimumSizeHint();
        QVERIFY2(least.width() <= 1260 && least.height() <= 760,
                 qPrintable(QString("%1x%2").arg(least.width()).arg(least.height())));
        const QSize room = window.screen()->availableGeometry().size();
        QVERIFY(window.width() <= room.width() && window.height() <= room.height());
    }

    void viewMenuOpensTheLabWithCtrlL() {
        test::useTemporarySettings(dir);
        MainWindow window;
        window.show();
        // The lab opens on the algorithm panel in front.
        auto* spotsDock = window.findChild<QDockWidget*>("AlgorithmPanel_spots");
        QVERIFY(spotsDock);
        spotsDock->show(), spotsDock->raise();
        QTRY_VERIFY(window.findChild<QDockWidget*>("AlgorithmPanel_spots")->isVisible());
        QAction* action = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text() == "&Kernel lab") action = a;
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_L));
        action->trigger();
        auto* opened = window.findChild<LabWindow*>();
        QVERIFY(opened && opened->isVisible());
        QCOMPARE(opened->findChild<QComboBox*>("LabAlgorithm")->currentData().toString(),
                 QString("spots"));
        QCOMPARE(window.showLab(), opened); // made once
        // Keep best there: the rbf panel's picker offers the new variant at once.
        QVERIFY(opened->choose("rbf", "tiled"));
        QVERIFY(opened->fork().isEmpty());
        opened->setDevice("ocl:0");
        opened->setRepeat(2);
        QVERIFY(run(*opened, opened->editor()->toPlainText()));
        auto* picker = window.findChild<QComboBox*>("variant:rbf");
        QVERIFY(picker && picker->findData("user:second") < 0);
        QString error;
        QVERIFY2(!opened->keepBest("second", &error).isEmpty(), qPrintable(error));
        QVERIFY(picker->findData("user:second") >= 0);
    }
};

QTEST_MAIN(TestUiLab)
#include "tst_ui_lab.moc"
