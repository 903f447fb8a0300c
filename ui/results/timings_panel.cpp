#include "ui/results/timings_panel.hpp"

#include "ui/image/colormaps.hpp"
#include "ui/results/export.hpp"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <map>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {
// The chart shows the latest rows only, so bars stay readable.
constexpr std::size_t maxBars = 24;
QString q(const std::string& s) { return QString::fromStdString(s); }
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
    tableWidget_ = new QTableWidget(0, 9, splitter);
    tableWidget_->setHorizontalHeaderLabels(
        {"Run", "Algorithm", "Variant", "Device", "Label", "Count", "Min ms", "Median ms", "Max ms"});
    tableWidget_->verticalHeader()->hide();
    tableWidget_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tableWidget_->horizontalHeader()->setStretchLastSection(true);
    chart_ = new QCustomPlot(splitter);
    chart_->yAxis->setLabel("median (ms)");
    splitter->addWidget(tableWidget_);
    splitter->addWidget(chart_);
    layout->addWidget(splitter, 1);
    layout->addLayout(buttons);
    connect(clearButton, &QPushButton::clicked, this, &TimingsPanel::clear);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Export timings", "timings.csv", "CSV (*.csv)");
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

void TimingsPanel::exportCsv(const QString& path) const { writeTextFile(path, table_.csv()); }

void TimingsPanel::refresh() {
    const std::vector<TimingRow> rows = table_.groupedRows();
    tableWidget_->setRowCount(static_cast<int>(rows.size()));
    for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
        const TimingRow& r = rows[static_cast<std::size_t>(i)];
        const QStringList cells{QString::number(r.run), q(r.algorithm), q(r.variant), q(r.device), q(r.label),
                                QString::number(r.count), QString::number(r.minMs, 'g', 4),
                                QString::number(r.medianMs, 'g', 4), QString::number(r.maxMs, 'g', 4)};
        for (int c = 0; c < cells.size(); ++c) tableWidget_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    refreshChart(rows);
}

// One QCPBars per group (one colour each); the x tick labels name run and label.
void TimingsPanel::refreshChart(const std::vector<TimingRow>& rows) {
    chart_->clearPlottables();
    chart_->legend->setVisible(false);
    const std::size_t first = rows.size() > maxBars ? rows.size() - maxBars : 0;
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    std::map<std::string, QCPBars*> groups;
    for (std::size_t i = first; i < rows.size(); ++i) {
        const TimingRow& r = rows[i];
        QCPBars*& bars = groups[r.group()];
        if (!bars) {
            bars = new QCPBars(chart_->xAxis, chart_->yAxis);
            const QColor color = labelPalette()[static_cast<int>(groups.size() - 1) % labelPalette().size()];
            bars->setBrush(color);
            bars->setPen(color.darker(130));
            bars->setName(q(r.group()));
            bars->setWidth(0.7);
        }
        const double x = static_cast<double>(i - first + 1);
        bars->addData(x, r.medianMs);
        ticker->addTick(x, QString("#%1 %2").arg(r.run).arg(q(r.label)));
    }
    chart_->xAxis->setTicker(ticker);
    chart_->xAxis->setTickLabelRotation(rows.empty() ? 0 : 40);
    chart_->xAxis->setRange(0.3, static_cast<double>(rows.size() - first) + 0.7);
    chart_->yAxis->rescale();
    chart_->yAxis->setRangeLower(0);
    if (chart_->yAxis->range().upper <= 0) chart_->yAxis->setRangeUpper(1);
    chart_->legend->setVisible(!groups.empty());
    chart_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    chart_->replot();
}

} // namespace clscope::ui
