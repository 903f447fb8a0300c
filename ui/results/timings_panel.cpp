#include "ui/results/timings_panel.hpp"
#include "ui/base/qstring.hpp"

#include "ui/image/colormaps.hpp"
#include "ui/results/bar_chart.hpp"
#include "ui/results/export.hpp"

#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {
// The chart shows the latest runs only (at most this many), so bars stay readable.
constexpr std::size_t maxRuns = 8;
constexpr int eventsColumn = 9; // "Events/s"'s

// A run's entries a second of wall, e.g. "3.2e+07"; empty for a run of dense frames.
QString eventsText(double eventsPerSecond) {
    return eventsPerSecond > 0 ? QString::number(eventsPerSecond, 'g', 3) : QString();
}
} // namespace

TimingsPanel::TimingsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* buttons = new QHBoxLayout;
    auto* exportButton = new QPushButton("Export CSV…", this);
    auto* clearButton = new QPushButton("Clear", this);
    buttons->addStretch(1);
    buttons->addWidget(exportButton);
    buttons->addWidget(clearButton);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    tableWidget_ = new QTableWidget(0, 10, splitter);
    tableWidget_->setHorizontalHeaderLabels({"Run", "Algorithm", "Variant", "Device", "Label",
                                             "Count", "Min ms", "Median ms", "Max ms", "Events/s"});
    tableWidget_->verticalHeader()->hide();
    tableWidget_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tableWidget_->horizontalHeader()->setStretchLastSection(true);
    // Events/s (column 9) shown after the variant, where it is read without scrolling, and only
    // while a run of sparse frames is listed.
    tableWidget_->horizontalHeader()->moveSection(eventsColumn, 3);
    tableWidget_->setMinimumWidth(280); // run, algorithm and variant stay readable docked
    chart_ = new QCustomPlot(splitter);
    splitter->addWidget(tableWidget_);
    splitter->addWidget(chart_);
    chart_->installEventFilter(this);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({400, 600});
    layout->addWidget(splitter, 1);
    layout->addLayout(buttons);
    connect(clearButton, &QPushButton::clicked, this, &TimingsPanel::clear);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, "Export timings", "timings.csv", "CSV (*.csv)");
        if (!path.isEmpty()) exportCsv(path);
    });
    refresh();
}

void TimingsPanel::addRun(const RunTimings& timings) {
    table_.add(timings);
    refresh();
}

void TimingsPanel::clear() {
    table_.clear();
    refresh();
}

void TimingsPanel::exportCsv(const QString& path) const {
    writeTextFile(path, table_.csv());
}

bool TimingsPanel::eventFilter(QObject* watched, QEvent* event) {
    const bool sized = event->type() == QEvent::Resize || event->type() == QEvent::Show;
    if (watched == chart_ && sized && chart_->isVisible()) refreshChart(table_.groupedRows());
    return QWidget::eventFilter(watched, event);
}

void TimingsPanel::refresh() {
    const std::vector<TimingRow> rows = table_.groupedRows();
    tableWidget_->setRowCount(static_cast<int>(rows.size()));
    for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
        const TimingRow& r = rows[static_cast<std::size_t>(i)];
        const QStringList cells{QString::number(r.run),
                                q(r.algorithm),
                                q(r.variant),
                                q(r.device),
                                q(r.label),
                                QString::number(r.count),
                                QString::number(r.minMs, 'g', 4),
                                QString::number(r.medianMs, 'g', 4),
                                QString::number(r.maxMs, 'g', 4),
                                eventsText(r.eventsPerSecond)};
        for (int c = 0; c < cells.size(); ++c)
            tableWidget_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    tableWidget_->setColumnHidden(
        eventsColumn, std::none_of(rows.begin(), rows.end(),
                                   [](const TimingRow& r) { return r.eventsPerSecond > 0; }));
    refreshChart(rows);
}

// One bar per run, stacked from the disjoint parts of its time: kernels, copies (and fills: the
// device's other events), and the rest of its host wall (its host phases less the other two,
// where it has phases; else its host steps, the records whose label says "(host", e.g.
// "program builds (host)", which are not device time). Each part is its records' totals: a
// record's samples are its launches, batches or bin groups within the one run a job times (a
// run through the streaming pipeline has its kernels and copies once a batch, whose median is a
// batch's, not the run's). Three
// series whatever the labels (the table and the CSV keep every label), so the legend takes one
// line and a docked chart shows several runs. The latest maxRuns runs, fewer where the chart is
// too short for their tick labels to stay apart.
void TimingsPanel::refreshChart(const std::vector<TimingRow>& rows) {
    std::vector<int> runs;
    for (const TimingRow& r : rows)
        if (std::find(runs.begin(), runs.end(), r.run) == runs.end()) runs.push_back(r.run);
    std::sort(runs.begin(), runs.end());
    // A run over sparse frames has its events/s on a second line of its tick label.
    const bool twoLines = std::any_of(rows.begin(), rows.end(),
                                      [](const TimingRow& r) { return r.eventsPerSecond > 0; });
    const int rowHeight = chart_->fontMetrics().height() * (twoLines ? 2 : 1) + 4;
    for (std::size_t n = std::min(runs.size(), maxRuns);; --n) {
        drawRuns(rows, std::vector<int>(runs.end() - static_cast<std::ptrdiff_t>(n), runs.end()));
        if (n <= 1 || !chart_->isVisible() ||
            chart_->axisRect()->height() >= static_cast<int>(n) * rowHeight)
            break;
    }
}

void TimingsPanel::drawRuns(const std::vector<TimingRow>& rows, const std::vector<int>& runs) {
    QStringList categories;
    std::vector<BarSeries> series{{"kernels", {}}, {"copies", {}}, {"host", {}}};
    for (BarSeries& s : series)
        s.values.assign(runs.size(), 0.0);
    for (std::size_t c = 0; c < runs.size(); ++c) {
        double kernels = 0, copies = 0, phases = 0, steps = 0;
        for (const TimingRow& r : rows) {
            if (r.run != runs[c]) continue;
            if (static_cast<int>(c) == categories.size())
                categories << QString("#%1 %2 @ %3%4")
                                  .arg(r.run)
                                  .arg(q(r.variant), q(r.device).section(' ', 0, 0),
                                       r.eventsPerSecond > 0
                                           ? "\n" + eventsText(r.eventsPerSecond) + " events/s"
                                           : QString());
            const bool step = r.label.find("(host") != std::string::npos;
            (r.hostPhase ? phases : r.kernel ? kernels : step ? steps : copies) += r.totalMs;
        }
        series[0].values[c] = kernels;
        series[1].values[c] = copies;
        series[2].values[c] = phases > 0 ? std::max(0.0, phases - kernels - copies) : steps;
    }
    drawStackedBars(*chart_, categories, series, "ms per run");
}

} // namespace clscope::ui
