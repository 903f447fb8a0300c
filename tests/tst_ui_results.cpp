// Results and Timings: timings table and CSV, plot export as valid PNG / PDF / JPG at the
// chosen size, results exported as HDF5 (read back) and CSV.
#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "ui/image/colormaps.hpp"
#include "ui/results/export.hpp"
#include "ui/results/results_panel.hpp"
#include "ui/results/timings_panel.hpp"
#include "ui_test_helpers.hpp"

#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QRegularExpression>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace clscope;
using namespace clscope::ui;

namespace {

QByteArray head(const QString& path, int bytes) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(bytes) : QByteArray();
}

RunTimings run(const std::string& variant, double median) {
    return {"xpcs",
            variant,
            "ocl:0 pthread",
            {{"copy H->D frames", 5, 0.5, 0.6, 0.9, 3.0},
             {"xpcs " + variant, 5, median, median, median, 5 * median, true}}};
}

// A tab of algorithm with a plot, an HDF5 writer of /<algorithm>/value and a CSV.
ResultTab plotTab(const QString& algorithm, const QString& title) {
    auto* plot = new QCustomPlot;
    plot->addGraph()->setData({0, 1, 2}, {1, 3, 2});
    plot->resize(640, 480);
    const std::string group = "/" + algorithm.toStdString();
    ResultTab tab{
        algorithm,
        title,
        plot,
        plot,
        [group](H5Writer& out) { out.write(group + "/value", makeArray<double>({1}, {2.5})); },
        [] { return std::string("x,y\n0,1\n"); }};
    tab.commandLine = "clscope-cli " + algorithm + " in.h5 -o OUT.h5";
    tab.provenance = {"ocl:0 (pthread)", "gemm", "in.h5", "{\"frame_time\":0.002}", {}};
    return tab;
}

// The page size of a PDF, in points ("/MediaBox [0 0 w h]").
QSizeF pdfPage(const QString& path) {
    const QByteArray pdf = head(path, 1 << 20);
    const auto m = QRegularExpression(R"(/MediaBox \[0 0 ([\d.]+) ([\d.]+)\])")
                       .match(QString::fromLatin1(pdf));
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}

std::vector<QRgb> distinctPaletteRgb(int n) {
    std::vector<QRgb> out;
    for (const QColor& c : distinctPalette(n))
        out.push_back(c.rgb());
    return out;
}

} // namespace

class TestUiResults : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void timingsTableAndCsv() {
        TimingsTable table;
        QCOMPARE(table.add(run("naive", 20.0)), 1);
        QCOMPARE(table.add(run("gemm", 1.5)), 2);
        QCOMPARE(table.rows().size(), std::size_t(4));
        const auto grouped = table.groupedRows();
        QCOMPARE(grouped.front().variant,
                 std::string("gemm")); // grouped by algorithm, variant, device
        const QStringList lines =
            QString::fromStdString(table.csv()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines[0],
                 QString("run,algorithm,variant,device,label,count,min_ms,median_ms,max_ms,"
                         "events_per_s"));
        QCOMPARE(lines[2], QString("2,xpcs,gemm,ocl:0 pthread,xpcs gemm,5,1.5,1.5,1.5,"));
        QCOMPARE(csvField("a,b \"c\""), std::string("\"a,b \"\"c\"\"\""));
    }

    // A run over sparse frames (RunTimings::entries) shows its entries a second of wall in the
    // table, the CSV and beside its bar; a run of dense frames shows none.
    void timingsShowEventsPerSecond() {
        RunTimings sparse = run("sparse", 2.0);
        sparse.entries = 3000, sparse.wallMs = 4.0; // 3000 entries in 4 ms: 750,000 a second
        TimingsPanel panel;
        panel.addRun(run("cpu", 1.0));
        QVERIFY(panel.tableWidget()->isColumnHidden(9)); // dense runs alone: no such column
        panel.addRun(sparse);
        QCOMPARE(panel.tableWidget()->horizontalHeaderItem(9)->text(), QString("Events/s"));
        // shown, right after the variant: read without scrolling in a docked panel (issue 55)
        QVERIFY(!panel.tableWidget()->isColumnHidden(9));
        QCOMPARE(panel.tableWidget()->horizontalHeader()->visualIndex(9), 3);
        if (const QString shots = qEnvironmentVariable("CLSCOPE_TEST_SHOTS"); !shots.isEmpty()) {
            panel.resize(1000, 320); // about a docked Timings panel at 1280x800
            panel.show();
            QTest::qWait(200);
            panel.grab().save(shots + "/timings-events-1000x320.png");
        }
        QStringList rates;
        for (int row = 0; row < panel.tableWidget()->rowCount(); ++row)
            rates << panel.tableWidget()->item(row, 9)->text();
        QCOMPARE(rates, (QStringList{"", "", "7.5e+05", "7.5e+05"})); // grouped: cpu first
        const QStringList lines =
            QString::fromStdString(panel.table().csv()).split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines[1].endsWith(","), qPrintable(lines[1])); // no entries: empty
        QVERIFY2(lines[3].endsWith(",750000"), qPrintable(lines[3]));
        auto ticker = panel.chart()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker && ticker->ticks().size() == 2);
        QVERIFY2(ticker->ticks().last().endsWith("\n7.5e+05 events/s"), // under the run's name
                 qPrintable(ticker->ticks().last()));
        QVERIFY(!ticker->ticks().first().contains("events/s"));
    }

    void timingsPanelShowsRuns() {
        TimingsPanel panel;
        panel.addRun(run("naive", 20.0));
        QCOMPARE(panel.tableWidget()->rowCount(), 2);
        QCOMPARE(panel.tableWidget()->item(1, 7)->text(), QString("20"));
        QCOMPARE(panel.chart()->plottableCount(), 2); // kernels, copies (no host phase)
        panel.addRun(run("gemm", 1.5));
        QCOMPARE(panel.chart()->plottableCount(), 2);
        // Horizontal bars, one row per run, the legend outside the axis rect.
        auto* bars = qobject_cast<QCPBars*>(panel.chart()->plottable(0));
        QCOMPARE(bars->name(), QString("kernels"));
        QCOMPARE(bars->keyAxis(), panel.chart()->yAxis);
        auto ticker = panel.chart()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker && ticker->ticks().size() == 2);
        QVERIFY(ticker->ticks().first().startsWith("#1 naive @ ocl:0"));
        // A run's parts stacked in one bar a row: the copies sit on the kernels.
        auto* copies = qobject_cast<QCPBars*>(panel.chart()->plottable(1));
        QCOMPARE(copies->name(), QString("copies"));
        QCOMPARE(copies->barBelow(), bars);
        // Each part is the run's total: here 5 launches of the kernel and 5 copies.
        QCOMPARE(bars->data()->at(1)->value, 7.5);
        QCOMPARE(copies->data()->at(1)->value, 3.0);
        // The host part: the run's host phases less its kernels and copies. A phased run (the
        // streaming pipeline's: one record a phase, its kernels and copies once a batch, here 5)
        // is stacked from totals too: a batch's median is not the run's (113 ms of kernels in
        // 64 batches showed as 2 ms beside 900 ms of host).
        // A host step ("(host" in its label: a program build) is host time, not a copy.
        RunTimings phased = run("ordered", 2.0);
        phased.records.push_back(
            {"pipeline stage (host wall)", 1, 40.0, 40.0, 40.0, 40.0, false, true});
        phased.records.push_back({"program builds (host)", 1, 3.0, 3.0, 3.0, 3.0, false, false});
        panel.addRun(phased);
        QCOMPARE(panel.chart()->plottableCount(), 3);
        auto* host = qobject_cast<QCPBars*>(panel.chart()->plottable(2));
        QCOMPARE(host->barBelow(), copies);
        QCOMPARE(host->data()->size(), 1);
        QCOMPARE(bars->data()->at(2)->value, 10.0);
        QCOMPARE(copies->data()->at(2)->value, 3.0);
        QCOMPARE(host->data()->at(0)->value, 40.0 - 10.0 - 3.0);
        // A phase recorded twice in one run (xpcs on PoCL: two groups of bins) counts twice.
        RunTimings twice = run("ordered", 2.0);
        twice.records.push_back({"xpcs upload, kernels, downloads (host wall)", 2, 40.0, 40.0, 40.0,
                                 80.0, false, true});
        panel.addRun(twice);
        QCOMPARE(bars->data()->at(3)->value, 10.0);
        QCOMPARE(host->data()->at(1)->value, 80.0 - 10.0 - 3.0);
        // Without host phases the host part is the run's host steps.
        RunTimings stepped = run("gemm", 1.0);
        stepped.records.push_back({"program builds (host)", 1, 4.0, 4.0, 4.0, 4.0, false, false});
        panel.addRun(stepped);
        QCOMPARE(copies->data()->at(4)->value, 3.0);
        QCOMPARE(host->data()->size(), 3);
        QCOMPARE(host->data()->at(2)->value, 4.0);
        QVERIFY(panel.chart()->legend->layout() != panel.chart()->axisRect()->insetLayout());
        const QString csv = dir_.filePath("timings.csv");
        panel.exportCsv(csv);
        QVERIFY(head(csv, 64).startsWith("run,algorithm"));
    }

    // Issue 23 defect 4: the chart's colours repeated after ten labels (rbf tiled = xpcs reorder).
    // The chart now has three parts whatever the labels; they and the palette stay distinct.
    void timingsColoursNeverRepeat() {
        TimingsPanel panel;
        for (int i = 0; i < 8; ++i)
            panel.addRun({"algo",
                          "v" + std::to_string(i),
                          "ocl:0",
                          {{"a" + std::to_string(i), 1, 1.0, 1.0, 1.0, 1.0, true},
                           {"b" + std::to_string(i), 1, 2.0, 2.0, 2.0, 2.0},
                           {"c" + std::to_string(i), 1, 9.0, 9.0, 9.0, 9.0, false, true}}});
        QCOMPARE(panel.chart()->plottableCount(), 3);
        QSet<QRgb> colours;
        for (int i = 0; i < panel.chart()->plottableCount(); ++i)
            colours.insert(panel.chart()->plottable(i)->brush().color().rgb());
        QCOMPARE(colours.size(), 3);
        for (int n : {3, 10, 11, 24, 40}) {
            const std::vector<QRgb> palette = distinctPaletteRgb(n);
            QCOMPARE(QSet<QRgb>(palette.begin(), palette.end()).size(), qsizetype(n));
        }
    }

    // Issue 23 defect 4: docked (about 220 px tall) the chart overprinted eight runs' labels.
    void timingsChartReadableDocked() {
        TimingsPanel panel;
        for (int i = 0; i < 8; ++i)
            panel.addRun(run("v" + std::to_string(i), 1.0 + i));
        panel.resize(900, 220);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCustomPlot* chart = panel.chart();
        chart->replot();
        auto ticker = chart->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        const int rows = int(ticker->ticks().size());
        QVERIFY(rows >= 1);
        const int perRow = chart->axisRect()->height() / rows;
        QVERIFY2(perRow >= chart->fontMetrics().height(),
                 qPrintable(QString("%1 runs, %2 px each").arg(rows).arg(perRow)));
        QVERIFY(chart->legend->outerRect().bottom() <= chart->height());
        QVERIFY(ticker->ticks().last().startsWith("#8 v7")); // the latest run is kept
    }

    // Issue 38: docked beside its table (a chart ~330 px wide), a spots run's ten labels took
    // ten legend rows squeezed over each other and left room for one run. Now: several runs,
    // legend entries a line high each and apart.
    void timingsChartReadableNarrow() {
        TimingsPanel panel;
        for (int i = 0; i < 8; ++i) {
            RunTimings r = run("v" + std::to_string(i), 1.0 + i);
            for (const char* step : {"set-up (host wall)", "chunks (host wall)", "result (host)"})
                r.records.push_back({step, 1, 20.0, 20.0, 20.0, 20.0, false, true});
            panel.addRun(r);
        }
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // The Timings dock at 1600x1000 and at 1280x800 (the smaller: one run, still readable).
        for (const auto& [size, runs] : {std::pair{QSize(700, 220), 3}, {QSize(520, 150), 1}}) {
            panel.resize(size);
            QTest::qWait(50);
            QCustomPlot* chart = panel.chart();
            QVERIFY2(chart->width() <= 420, qPrintable(QString::number(chart->width())));
            chart->replot();
            auto ticker = chart->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
            QVERIFY2(ticker->ticks().size() >= runs,
                     qPrintable(QString::number(ticker->ticks().size())));
            const int line = chart->fontMetrics().height();
            QVERIFY(chart->axisRect()->height() >= int(ticker->ticks().size()) * line);
            QList<QRect> entries;
            for (int i = 0; i < chart->plottableCount(); ++i)
                entries << chart->legend->itemWithPlottable(chart->plottable(i))->outerRect();
            QCOMPARE(entries.size(), 3);
            for (int i = 0; i < entries.size(); ++i) {
                QVERIFY2(entries[i].height() >= QFontMetrics(chart->legend->font()).height(),
                         qPrintable(QString::number(entries[i].height())));
                QVERIFY(chart->rect().contains(entries[i]));
                for (int j = i + 1; j < entries.size(); ++j)
                    QVERIFY(!entries[i].intersects(entries[j]));
            }
        }
    }

    void plotExportFormats() {
        QCustomPlot plot;
        plot.addGraph()->setData({0, 1, 2}, {1, 3, 2});
        plot.rescaleAxes();
        const QString png = dir_.filePath("plot.png"), pdf = dir_.filePath("plot.pdf"),
                      jpg = dir_.filePath("plot.jpg");
        exportPlot(plot, png, 640, 480);
        exportPlot(plot, pdf, 640, 480);
        exportPlot(plot, jpg, 320, 200);
        QCOMPARE(head(png, 4), QByteArray("\x89PNG"));
        QCOMPARE(QImage(png).size(), QSize(640, 480));
        // Compressed: a plot of a few lines on white takes a small part of its 1.2 MB of pixels
        // (stored at Qt's quality 95, it took 1.15 MB of a 1.3 MB window).
        QVERIFY2(QFileInfo(png).size() < 640 * 480 * 4 / 10,
                 qPrintable(QString::number(QFileInfo(png).size())));
        QCOMPARE(head(pdf, 5), QByteArray("%PDF-"));
        QCOMPARE(QImage(jpg).size(), QSize(320, 200));
        QVERIFY_THROWS_EXCEPTION(UsageError, exportPlot(plot, dir_.filePath("plot.bmpx"), 10, 10));
    }

    void resultsExportHdf5AndCsv() {
        ResultsPanel panel;
        QVERIFY_THROWS_EXCEPTION(UsageError, panel.exportHdf5(dir_.filePath("none.h5")));
        auto* plot = new QCustomPlot;
        ResultTab tab{"xpcs",
                      "g2",
                      plot,
                      plot,
                      [](H5Writer& out) {
                          out.write("/xpcs/g2", makeArray<double>({1, 3}, {1.5, 1.2, 1.0}));
                          writeProvenance(out, "/xpcs", Provenance{"ocl:0", "gemm", "{}", 0.5});
                      },
                      [] { return std::string("tau,g2\n0,1.5\n"); }};
        panel.addTab(tab);
        QCOMPARE(panel.count(), 1);
        QCOMPARE(panel.currentTab()->title, QString("g2"));
        const QString h5 = dir_.filePath("results.h5");
        panel.exportHdf5(h5);
        H5Reader reader(h5.toStdString());
        const Array g2 = reader.read("/xpcs/g2");
        QCOMPARE(g2.shape(), (Shape{1, 3}));
        QCOMPARE(g2.valueAt(1), 1.2);
        QCOMPARE(reader.stringAttribute("/xpcs", "variant").value(), std::string("gemm"));
        const QString csv = dir_.filePath("g2.csv");
        panel.exportCsv(csv);
        QVERIFY(head(csv, 1000).endsWith("\ntau,g2\n0,1.5\n"));
        // Namespaced: another algorithm's tab of the same title is its own.
        auto* other = new QCustomPlot;
        panel.addTab({"spots", "g2", other, other, {}, {}});
        QCOMPARE(panel.count(), 2);
        panel.removeTab("spots", "g2");
        QCOMPARE(panel.count(), 1);
        // Stale: the title says so and Export refuses.
        panel.markStale("spots");
        QVERIFY(!panel.hasStale());
        panel.markStale("xpcs");
        QVERIFY(panel.hasStale());
        QCOMPARE(panel.tabWidget()->tabText(0), QString("g2 (stale)"));
        QVERIFY_THROWS_EXCEPTION(UsageError, panel.exportHdf5(h5));
        QVERIFY_THROWS_EXCEPTION(UsageError, panel.exportCsv(csv));
        panel.removeTab("xpcs", "g2");
        QCOMPARE(panel.count(), 0);
    }

    // Defect 1 of issue 23: every tab has a close button that removes it.
    void tabsCloseWithTheirButton() {
        ResultsPanel panel;
        panel.addTab(plotTab("xpcs", "g2"));
        panel.addTab(plotTab("spots", "Spots"));
        panel.show();
        QWidget* close = panel.tabWidget()->tabBar()->tabButton(0, QTabBar::RightSide);
        QVERIFY(close);
        QTest::mouseClick(close, Qt::LeftButton);
        QCOMPARE(panel.count(), 1);
        QCOMPARE(panel.tabs().front().title, QString("Spots"));
    }

    // Defect 1: another algorithm's stale tab blocks nothing; all fresh tabs export, the stale
    // one is listed as skipped.
    void staleTabOfAnotherAlgorithmBlocksNoExport() {
        ResultsPanel panel;
        panel.addTab(plotTab("spots", "Spots"));
        panel.markStale("spots");
        panel.addTab(plotTab("xpcs", "g2"));
        panel.addTab(plotTab("xpcs", "Fits"));
        panel.tabWidget()->setCurrentIndex(1);
        const QString h5 = dir_.filePath("shown.h5");
        panel.exportHdf5(h5);
        const H5Reader in(h5.toStdString());
        QVERIFY(in.hasDataset("/xpcs/value"));
        QVERIFY(!in.hasDataset("/spots/value"));
        const QString folder = dir_.filePath("all");
        const ExportSummary summary = panel.exportAllFresh(folder);
        QCOMPARE(summary.written.size(), 2);
        QCOMPARE(summary.skipped, QStringList{"spots: Spots"});
        QVERIFY(QFile::exists(QDir(folder).filePath("xpcs-g2.h5")));
        panel.tabWidget()->setCurrentIndex(0);
        QVERIFY_THROWS_EXCEPTION(UsageError, panel.exportHdf5(h5));
    }

    // Issue 23, defect 5: a re-run keeps the tab the user had in front (here "Fits"), and
    // brings its main view forward when another algorithm's tab was in front.
    void rerunKeepsTheUsersTab() {
        ResultsPanel panel;
        const auto rerun = [&panel] {
            panel.removeTabs("xpcs");
            ResultTab g2 = plotTab("xpcs", "g2");
            QWidget* main = g2.widget;
            panel.addTab(std::move(g2));
            panel.addTab(plotTab("xpcs", "Fits"));
            panel.showAfterRun("xpcs", main);
        };
        rerun();
        QCOMPARE(panel.currentTab()->title, QString("g2"));
        panel.tabWidget()->setCurrentIndex(1); // the user looks at the fits
        rerun();
        QCOMPARE(panel.currentTab()->title, QString("Fits"));
        panel.addTab(plotTab("spots", "Spots"));
        rerun();
        QCOMPARE(panel.currentTab()->title, QString("g2"));
    }

    // Every export says where it came from: HDF5 root attributes, CSV '#' header, PNG text,
    // PDF metadata; the PDF page is the plot's size at its screen dpi (text at 100 %).
    void exportsCarryProvenance() {
        ResultsPanel panel;
        panel.addTab(plotTab("xpcs", "g2"));
        const QString command = "clscope-cli xpcs in.h5 -o OUT.h5";
        const QString h5 = dir_.filePath("p.h5"), csv = dir_.filePath("p.csv"),
                      png = dir_.filePath("p.png"), pdf = dir_.filePath("p.pdf");
        for (const QString& path : {h5, csv, png, pdf})
            panel.exportShown(path);
        const H5Reader in(h5.toStdString());
        QCOMPARE(in.stringAttribute("/", "command_line").value_or(""), command.toStdString());
        QCOMPARE(in.stringAttribute("/", "variant").value_or(""), std::string("gemm"));
        QCOMPARE(in.stringAttribute("/", "input").value_or(""), std::string("in.h5"));
        QVERIFY(in.stringAttribute("/", "clscope_version").has_value());
        const QByteArray text = head(csv, 4000);
        QVERIFY(text.startsWith("# clscope_version: "));
        QVERIFY(text.contains(("# command_line: " + command).toUtf8()));
        QVERIFY(text.contains("# parameters: {\"frame_time\":0.002}"));
        QCOMPARE(QImage(png).text("command_line"), command);
        QCOMPARE(QImage(png).text("device"), QString("ocl:0 (pthread)"));
        const QByteArray document = head(pdf, 1 << 20);
        QVERIFY(document.contains("clscope-cli xpcs in.h5")); // XMP description
        // The plot at its size on screen (its tab's scroll area sizes it).
        const QCustomPlot* shown = panel.tabs().front().plot;
        const double dpi = shown->logicalDpiX();
        const QSizeF page = pdfPage(pdf);
        QVERIFY2(std::abs(page.width() - shown->width() * 72.0 / dpi) < 1,
                 qPrintable(QString("page %1 pt wide at %2 dpi").arg(page.width()).arg(dpi)));
        QVERIFY(std::abs(page.height() - shown->height() * 72.0 / dpi) < 1);
    }
};

QTEST_MAIN(TestUiResults)
#include "tst_ui_results.moc"
