#include "ui/spots/spots_views.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace clscope::ui {

SpotTableModel::SpotTableModel(std::shared_ptr<SpotsPresenter> presenter, QObject* parent)
    : QAbstractTableModel(parent), presenter_(std::move(presenter)) {}

int SpotTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(presenter_->rowCount());
}

int SpotTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : spotColumnCount;
}

QVariant SpotTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const auto column = static_cast<SpotColumn>(index.column());
    const double value = presenter_->cellValue(std::size_t(index.row()), column);
    if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole) return value;
    if (role != Qt::DisplayRole) return {};
    const bool decimals = column == SpotColumn::X || column == SpotColumn::Y;
    return decimals ? QString::number(value, 'f', 2) : QString::number(value, 'f', 0);
}

QVariant SpotTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
    return QString::fromStdString(spotColumnTitle(static_cast<SpotColumn>(section)));
}

void SpotTableModel::sort(int column, Qt::SortOrder order) {
    emit layoutAboutToBeChanged();
    presenter_->sortBy(static_cast<SpotColumn>(column), order == Qt::AscendingOrder);
    emit layoutChanged();
}

SpotTableView::SpotTableView(std::shared_ptr<SpotsPresenter> presenter, QWidget* parent)
    : QWidget(parent), presenter_(std::move(presenter)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* caption =
        new QLabel(QString("%1 spots — %2. Click a row to show the spot; click a header to sort.")
                       .arg(presenter_->rowCount())
                       .arg(QString::fromStdString(presenter_->runLabel())),
                   this);
    caption->setWordWrap(true);
    model_ = new SpotTableModel(presenter_, this);
    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(20);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(caption);
    layout->addWidget(table_, 1);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid()) return;
                presenter_->selectRow(std::size_t(current.row()));
                emit spotSelected();
            });
}

namespace {

QVector<double> vec(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

QCPGraph* addCurve(QCustomPlot* plot, QCPAxis* value, const QString& name,
                   const std::vector<double>& x, const std::vector<double>& y, const QPen& pen,
                   QCPScatterStyle::ScatterShape shape) {
    QCPGraph* g = plot->addGraph(plot->xAxis, value);
    g->setName(name);
    g->setData(vec(x), vec(y));
    g->setPen(pen);
    g->setScatterStyle(QCPScatterStyle(shape, 5));
    return g;
}

// Whole-number ticks on x over 0 .. last, the value axes from 0 (or their data) with a margin.
void frameAxis(QCustomPlot* plot, const QString& label, const std::vector<double>& x) {
    plot->xAxis->setLabel(label);
    QSharedPointer<QCPAxisTickerFixed> frames(new QCPAxisTickerFixed);
    frames->setTickStep(1.0);
    frames->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot->xAxis->setTicker(frames);
    const double last = x.empty() ? 1.0 : x.back();
    plot->xAxis->setRange(-0.5, std::max(0.5, last + 0.5));
}

// The legend in its own row above the axes, not over the data.
void legendAbove(QCustomPlot* plot) {
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->legend->setBorderPen(Qt::NoPen);
}

} // namespace

QCustomPlot* makePerFramePlot(const SpotsPresenter& presenter) {
    const SpotsPresenter::PerFrame p = presenter.perFrame();
    auto* plot = new QCustomPlot;
    plot->setMinimumHeight(160);
    QCPGraph* strong = addCurve(plot, plot->yAxis, "signal pixels (left axis)", p.frame, p.strong,
                                QPen(QColor(31, 119, 180), 1.5), QCPScatterStyle::ssCircle);
    QCPGraph* found =
        addCurve(plot, plot->yAxis2, "spots (right axis)", p.frame, p.spots,
                 QPen(QColor(214, 39, 40), 1.5, Qt::DashLine), QCPScatterStyle::ssSquare);
    frameAxis(plot, "frame", p.frame);
    plot->yAxis->setLabel("signal pixels");
    plot->yAxis2->setLabel("spots");
    plot->yAxis2->setVisible(true);
    strong->rescaleValueAxis();
    found->rescaleValueAxis();
    for (QCPAxis* axis : {plot->yAxis, plot->yAxis2})
        axis->setRange(0, std::max(1.0, axis->range().upper * 1.1));
    legendAbove(plot);
    return plot;
}

QCustomPlot* makePerImagePlot(const spots::PerImageStats& stats) {
    auto* plot = new QCustomPlot;
    plot->setMinimumHeight(160);
    std::vector<double> image, total, noIce, to4A, dImage, dMin;
    for (std::size_t i = 0; i < stats.images(); ++i) {
        image.push_back(double(i)), total.push_back(double(stats.nSpotsTotal[i]));
        noIce.push_back(double(stats.nSpotsNoIce[i])), to4A.push_back(double(stats.nSpots4A[i]));
        if (stats.estimatedDMin[i] > 0)
            dImage.push_back(double(i)), dMin.push_back(stats.estimatedDMin[i]);
    }
    QCPGraph* all = addCurve(plot, plot->yAxis, "spots", image, total,
                             QPen(QColor(255, 127, 14), 1.5), QCPScatterStyle::ssCircle);
    addCurve(plot, plot->yAxis, "spots off ice", image, noIce, QPen(QColor(31, 119, 180), 1.5),
             QCPScatterStyle::ssDiamond);
    addCurve(plot, plot->yAxis, "spots to 4 Å", image, to4A, QPen(QColor(44, 160, 44), 1.5),
             QCPScatterStyle::ssTriangle);
    QCPGraph* d =
        addCurve(plot, plot->yAxis2, "estimated d_min (Å, right axis)", dImage, dMin,
                 QPen(QColor(214, 39, 40), 1.5, Qt::DashLine), QCPScatterStyle::ssTriangleInverted);
    frameAxis(plot, "image", image);
    plot->yAxis->setLabel("spots");
    plot->yAxis2->setLabel("d_min (Å)");
    plot->yAxis2->setVisible(true);
    plot->yAxis2->setRangeReversed(true); // better resolution higher, as DIALS plots it
    all->rescaleValueAxis();
    plot->yAxis->setRange(0, std::max(1.0, plot->yAxis->range().upper * 1.1));
    d->rescaleValueAxis();
    legendAbove(plot);
    return plot;
}

} // namespace clscope::ui
