// ComparisonView: the results side — the table of runs, the chart of kernel time per label,
// the algorithm's difference view of two chosen runs, and Export CSV / HDF5.
#include "ui/base/qstring.hpp"
#include "ui/compare/comparison_row_text.hpp"
#include "ui/compare/comparison_view.hpp"

#include "ui/kit/algorithm_panels.hpp"
#include "ui/kit/workbench.hpp"
#include "ui/results/bar_chart.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace clscope::ui {

QWidget* ComparisonView::buildResultsSide() {
    auto* side = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(side);
    auto* layout = new QVBoxLayout(top);
    layout->setContentsMargins(0, 0, 0, 0);
    results_ = new QTableWidget(0, 9, top);
    results_->setHorizontalHeaderLabels({"variant", "device", "kernel ms", "wall ms", "setup ms",
                                         "speed-up", "max deviation", "beyond tol.", "result"});
    results_->horizontalHeaderItem(3)->setToolTip(
        "Wall time of the timed run, after an untimed warm-up run of the same cell");
    results_->horizontalHeaderItem(4)->setToolTip(
        "One-time setup (kernel builds, first allocations): the warm-up's wall time minus the "
        "timed run's");
    results_->verticalHeader()->hide();
    results_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    results_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    results_->horizontalHeader()->setStretchLastSection(true);
    auto* exports = new QHBoxLayout;
    auto* csv = new QPushButton("Export &CSV…", top);   // Alt+C
    auto* hdf5 = new QPushButton("Export HDF&5…", top); // Alt+5
    exports->addStretch(1);
    exports->addWidget(csv);
    exports->addWidget(hdf5);
    // The result of the row chosen in full (the table's result column says pass / FAIL only).
    // One line (the dock is short at 1280×800): what does not fit is in its tooltip.
    details_ = new QLabel(top);
    details_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    details_->hide();
    connect(results_, &QTableWidget::currentCellChanged, this,
            [this](int row) { showRowDetails(row); });
    layout->addWidget(results_, 1);
    layout->addWidget(details_);
    layout->addLayout(exports);
    connect(csv, &QPushButton::clicked, this, [this] { exportAs(false); });
    connect(hdf5, &QPushButton::clicked, this, [this] { exportAs(true); });
    // The chart and the difference view share the place under the table (tabs): each gets
    // the dock's full width and the height left, readable at 1600×1000 without scrolling.
    lowerTabs_ = new QTabWidget(side);
    chart_ = new QCustomPlot(lowerTabs_);
    chart_->setMinimumHeight(220);
    auto* diff = new QWidget(lowerTabs_);
    differenceLayout_ = new QVBoxLayout(diff);
    differenceLayout_->setContentsMargins(0, 0, 0, 0);
    auto* pick = new QHBoxLayout;
    diffA_ = new QComboBox(diff);
    diffB_ = new QComboBox(diff);
    pick->addWidget(new QLabel("Difference of", diff));
    pick->addWidget(diffA_, 1);
    pick->addWidget(new QLabel("against", diff));
    pick->addWidget(diffB_, 1);
    differenceLayout_->addLayout(pick);
    for (QComboBox* box : {diffA_, diffB_})
        connect(box, &QComboBox::activated, this,
                [this] { showDifference(diffA_->currentIndex(), diffB_->currentIndex()); });
    lowerTabs_->addTab(diff, "Difference");
    lowerTabs_->addTab(chart_, "Kernel time per label");
    side->addWidget(top);
    side->addWidget(lowerTabs_);
    side->setStretchFactor(0, 1);
    side->setStretchFactor(1, 3);
    side->setSizes({200, 500});
    return side;
}

void ComparisonView::onRowAdded(int) {
    refreshResults();
    // Show the newest run against the reference as it comes in.
    const int last = int(presenter_->rows().size()) - 1;
    if (last >= 1) showDifference(last, 0);
}

void ComparisonView::refreshResults() {
    const auto& rows = presenter_ ? presenter_->rows() : std::vector<ComparisonRow>{};
    results_->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        const ComparisonRow& row = rows[std::size_t(r)];
        const QStringList cells = comparisonRowCells(row);
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (!row.pass()) item->setBackground(QColor(255, 215, 215));
            item->setToolTip(comparisonRowDetails(row));
            results_->setItem(r, c, item);
        }
    }
    showRowDetails(results_->currentRow());
    refreshChart();
    refreshDifferenceChoices();
}

// The chosen row's result in full under the table, else the first that did not pass, else
// that every run passed (the result column may lie beyond the dock's width).
void ComparisonView::showRowDetails(int row) {
    const auto& rows = presenter_ ? presenter_->rows() : std::vector<ComparisonRow>{};
    if (row < 0 || row >= int(rows.size()))
        row = int(std::find_if(rows.begin(), rows.end(),
                               [](const ComparisonRow& r) { return !r.pass(); }) -
                  rows.begin());
    if (row < int(rows.size()))
        details_->setText(comparisonRowDetails(rows[std::size_t(row)]));
    else
        details_->setText(QString("All %1 runs passed against the reference").arg(rows.size()));
    details_->setToolTip(details_->text());
    details_->setVisible(rows.size() > 1);
}

// Kernel time per timing label: one row of bars per run.
void ComparisonView::refreshChart() {
    QStringList categories;
    std::vector<BarSeries> series;
    const auto& rows = presenter_ ? presenter_->rows() : std::vector<ComparisonRow>{};
    for (std::size_t r = 0; r < rows.size(); ++r) {
        categories << q(rows[r].label());
        if (!rows[r].result) continue;
        for (const TimingRecord& t : rows[r].result->info.timings) {
            if (!t.kernel) continue;
            auto it = std::find_if(series.begin(), series.end(),
                                   [&](const BarSeries& s) { return s.name == q(t.label); });
            if (it == series.end()) it = series.insert(series.end(), BarSeries{q(t.label), {}});
            it->values.resize(rows.size(), 0.0);
            it->values[r] += t.totalMs;
        }
    }
    for (BarSeries& s : series)
        s.values.resize(rows.size(), 0.0);
    drawGroupedBars(*chart_, categories, series, "kernel time (ms)");
}

void ComparisonView::refreshDifferenceChoices() {
    const int a = diffA_->currentIndex(), b = diffB_->currentIndex();
    for (QComboBox* box : {diffA_, diffB_}) {
        const QSignalBlocker block(box);
        box->clear();
        if (presenter_)
            for (const ComparisonRow& r : presenter_->rows())
                box->addItem(q(r.label()));
    }
    diffA_->setCurrentIndex(a >= 0 && a < diffA_->count() ? a : diffA_->count() - 1);
    diffB_->setCurrentIndex(b >= 0 && b < diffB_->count() ? b : 0);
    if (presenter_ && presenter_->rows().empty() && difference_) delete difference_;
}

void ComparisonView::showDifference(int a, int b) {
    const auto& rows = presenter_->rows();
    if (a < 0 || b < 0 || a >= int(rows.size()) || b >= int(rows.size())) return;
    {
        const QSignalBlocker blockA(diffA_), blockB(diffB_);
        diffA_->setCurrentIndex(a);
        diffB_->setCurrentIndex(b);
    }
    delete difference_;
    const ComparisonRow &ra = rows[std::size_t(a)], &rb = rows[std::size_t(b)];
    const AlgorithmPanelSpec* s = spec();
    if (!ra.result || !rb.result)
        difference_ = new QLabel("One of the two runs failed: nothing to draw.");
    else if (!s || !s->differenceView)
        difference_ = new QLabel("This algorithm has no difference view.");
    else
        difference_ = s->differenceView(*ra.result, *rb.result);
    differenceLayout_->addWidget(difference_, 1);
}

void ComparisonView::exportAs(bool hdf5) {
    if (!presenter_) return;
    const QString path =
        hdf5
            ? QFileDialog::getSaveFileName(this, "Export comparison", "compare.h5", "HDF5 (*.h5)")
            : QFileDialog::getSaveFileName(this, "Export comparison", "compare.csv", "CSV (*.csv)");
    if (path.isEmpty()) return;
    try {
        if (hdf5)
            presenter_->exportHdf5(path.toStdString());
        else
            presenter_->exportCsv(path.toStdString());
        wb_.log(LogLevel::Info, "exported the comparison to " + path);
    } catch (const std::exception& e) {
        wb_.log(LogLevel::Error, QString("Export comparison: %1").arg(e.what()));
        QMessageBox::warning(this, "Export comparison", e.what());
    }
}

} // namespace clscope::ui
