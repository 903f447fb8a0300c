#include "ui/spots/spots_grid_view.hpp"

#include "ui/results/color_map_plot.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

constexpr std::size_t labelledCells = 144; // cells labelled with image and count up to here

QSpinBox* sizeBox(QWidget* parent, std::size_t value, const QString& tip) {
    auto* box = new QSpinBox(parent);
    box->setRange(1, 100000);
    box->setValue(int(value));
    box->setToolTip(tip);
    box->setKeyboardTracking(false);
    return box;
}

} // namespace

SpotsGridView::SpotsGridView(std::vector<double> perImage, QWidget* parent)
    : QWidget(parent), perImage_(std::move(perImage)) {
    const spots::GridScan guess = spots::squareGrid(perImage_.size());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    rows_ = sizeBox(this, guess.rows, "Rows of the scan");
    columns_ = sizeBox(this, guess.columns, "Images per row of the scan");
    snake_ = new QCheckBox("snaked (odd rows backwards)", this);
    controls->addWidget(new QLabel("Grid", this));
    controls->addWidget(rows_);
    controls->addWidget(new QLabel("rows ×", this));
    controls->addWidget(columns_);
    controls->addWidget(new QLabel("columns", this));
    controls->addWidget(snake_);
    controls->addStretch(1);
    layout->addLayout(controls);
    auto* hint = new QLabel("Spots per image in scan order; click a cell to show its image.", this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(240, 180);
    map_ = addColorMapWithBar(*plot_, "spots per image");
    plot_->xAxis->setLabel("column");
    plot_->yAxis->setLabel("row");
    plot_->yAxis->setRangeReversed(true); // row 0 on top, as the stage starts
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
        ticker->setTickStep(1);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        axis->setTicker(ticker);
    }
    layout->addWidget(plot_, 1);
    for (QSpinBox* box : {rows_, columns_})
        connect(box, &QSpinBox::valueChanged, this, [this] { redraw(); });
    connect(snake_, &QCheckBox::toggled, this, [this] { redraw(); });
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const QPointF at = event->position();
        if (const auto image =
                imageAt(plot_->xAxis->pixelToCoord(at.x()), plot_->yAxis->pixelToCoord(at.y())))
            emit imageChosen(*image);
    });
    redraw();
}

spots::GridScan SpotsGridView::grid() const {
    return {std::size_t(rows_->value()), std::size_t(columns_->value()), snake_->isChecked()};
}

void SpotsGridView::setGrid(const spots::GridScan& grid) {
    const QSignalBlocker a(rows_), b(columns_), c(snake_);
    rows_->setValue(int(grid.rows));
    columns_->setValue(int(grid.columns));
    snake_->setChecked(grid.snake);
    redraw();
}

std::optional<std::size_t> SpotsGridView::imageAt(double column, double row) const {
    const spots::GridScan g = grid();
    const double c = std::round(column), r = std::round(row);
    if (c < 0 || r < 0 || c >= double(g.columns) || r >= double(g.rows)) return std::nullopt;
    const std::size_t image = spots::gridImage(g, std::size_t(r), std::size_t(c));
    return image < perImage_.size() ? std::optional(image) : std::nullopt;
}

void SpotsGridView::redraw() {
    const spots::GridScan g = grid();
    const std::vector<double> values = spots::gridValues(g, perImage_);
    map_->data()->setSize(int(g.columns), int(g.rows));
    map_->data()->setRange(QCPRange(0, double(g.columns) - 1), QCPRange(0, double(g.rows) - 1));
    for (std::size_t r = 0; r < g.rows; ++r)
        for (std::size_t c = 0; c < g.columns; ++c)
            map_->data()->setCell(int(c), int(r), values[r * g.columns + c]);
    map_->rescaleDataRange(true);
    labelCells();
    plot_->xAxis->setRange(-0.5, double(g.columns) - 0.5);
    plot_->yAxis->setRange(-0.5, double(g.rows) - 0.5);
    plot_->replot();
}

// "#image" over "count" in each cell of a small grid, white on the dark cells.
void SpotsGridView::labelCells() {
    for (QCPItemText* label : labels_)
        plot_->removeItem(label);
    labels_.clear();
    const spots::GridScan g = grid();
    if (g.rows * g.columns > labelledCells) return;
    const QCPRange range = map_->dataRange();
    for (std::size_t r = 0; r < g.rows; ++r)
        for (std::size_t c = 0; c < g.columns; ++c) {
            const std::size_t image = spots::gridImage(g, r, c);
            if (image >= perImage_.size()) continue;
            auto* label = new QCPItemText(plot_);
            label->position->setCoords(double(c), double(r));
            label->setText(QString("#%1\n%2").arg(image).arg(perImage_[image]));
            const bool dark = perImage_[image] < range.lower + 0.6 * range.size();
            label->setColor(dark ? Qt::white : Qt::black);
            labels_.push_back(label);
        }
}

} // namespace clscope::ui
