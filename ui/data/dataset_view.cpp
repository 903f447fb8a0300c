#include "ui/data/dataset_view.hpp"

#include "core/hdf5.hpp"
#include "ui/image/colormaps.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace clscope::ui {

namespace {

// The table shows at most this many rows and columns (the plot shows everything read).
constexpr std::size_t maxTableRows = 2000, maxTableColumns = 200;

std::vector<double> doublesOf(const Array& a) {
    std::vector<double> out(a.size());
    const auto copy = [&](auto tag) {
        using T = decltype(tag);
        const auto values = a.as<T>();
        std::copy(values.begin(), values.end(), out.begin());
    };
    switch (a.dtype()) {
    case DType::UInt8:
        copy(std::uint8_t{});
        break;
    case DType::UInt16:
        copy(std::uint16_t{});
        break;
    case DType::UInt32:
        copy(std::uint32_t{});
        break;
    case DType::Int32:
        copy(std::int32_t{});
        break;
    case DType::Int64:
        copy(std::int64_t{});
        break;
    case DType::Float32:
        copy(float{});
        break;
    case DType::Float64:
        copy(double{});
        break;
    }
    return out;
}

std::size_t elementsOf(const Shape& shape) {
    std::size_t n = 1;
    for (std::size_t d : shape)
        n *= d;
    return n;
}

QString previewNumber(double v) {
    return QString::number(v, 'g', 6);
}

} // namespace

QString valuePreview(const H5Reader& file, const std::string& path) {
    try {
        const DatasetInfo info = file.info(path);
        if (!info.dtype || elementsOf(info.shape) > previewElements) return {};
        const std::vector<double> values = doublesOf(file.read(path, DType::Float64));
        QStringList parts;
        for (double v : values)
            parts << previewNumber(v);
        if (info.shape.empty()) return parts.value(0);
        return "[" + parts.join(", ") + "]";
    } catch (const std::exception&) {
        return {};
    }
}

DatasetView::DatasetView(std::shared_ptr<const H5Reader> file, const std::string& path,
                         QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(QString::fromStdString(path));
    resize(900, 640);
    auto* layout = new QVBoxLayout(this);
    auto* tabs = new QTabWidget(this);
    table_ = new QTableWidget(tabs);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    plot_ = new QCustomPlot(tabs);
    tabs->addTab(plot_, "Plot");
    tabs->addTab(table_, "Table");
    auto* note = new QLabel(this);
    note->setWordWrap(true);
    layout->addWidget(note);
    layout->addWidget(tabs, 1);
    try {
        const DatasetInfo info = file->info(path);
        if (!info.dtype) throw std::runtime_error("clscope cannot read " + info.typeName + " data");
        const Shape& shape = info.shape;
        const bool stack = shape.size() > 2;
        const Array data = stack ? file->readSlab(path, 0, 1) : file->read(path, DType::Float64);
        const std::size_t cols = shape.empty() ? 1 : shape.back();
        const std::size_t rows = shape.size() < 2 ? 1 : shape[shape.size() - 2];
        const QString units =
            QString::fromStdString(file->stringAttribute(path, "units").value_or(""));
        note->setText(QString("%1 %2 %3%4")
                          .arg(QString::fromStdString(path),
                               QString::fromStdString(shapeString(shape)),
                               QString::fromStdString(info.typeName),
                               stack ? " — the first frame is shown" : ""));
        fill(doublesOf(data), rows, cols, units.isEmpty() ? "value" : "value (" + units + ")");
    } catch (const std::exception& e) {
        note->setText(QString("Cannot show %1: %2").arg(QString::fromStdString(path), e.what()));
    }
}

// 1 row: a line of value against index; more: an image with a colour scale.
void DatasetView::fill(const std::vector<double>& values, std::size_t rows, std::size_t cols,
                       const QString& valueLabel) {
    const std::size_t shownRows = std::min(rows, maxTableRows);
    const std::size_t shownCols = std::min(cols, maxTableColumns);
    table_->setRowCount(int(rows == 1 ? std::min(cols, maxTableRows) : shownRows));
    table_->setColumnCount(int(rows == 1 ? 1 : shownCols));
    if (rows == 1) {
        table_->setHorizontalHeaderLabels({valueLabel});
        for (std::size_t i = 0; i < std::min(cols, maxTableRows); ++i)
            table_->setItem(int(i), 0, new QTableWidgetItem(previewNumber(values[i])));
    } else {
        for (std::size_t r = 0; r < shownRows; ++r)
            for (std::size_t c = 0; c < shownCols; ++c)
                table_->setItem(int(r), int(c),
                                new QTableWidgetItem(previewNumber(values[r * cols + c])));
    }
    table_->resizeColumnsToContents();
    if (rows == 1) {
        QVector<double> x(static_cast<int>(cols)), y(static_cast<int>(cols));
        for (std::size_t i = 0; i < cols; ++i)
            x[int(i)] = double(i), y[int(i)] = values[i];
        QCPGraph* graph = plot_->addGraph();
        graph->setData(x, y);
        graph->setScatterStyle(cols <= 64 ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssNone);
        plot_->xAxis->setLabel("index");
        plot_->yAxis->setLabel(valueLabel);
        plot_->rescaleAxes();
    } else {
        auto* map = new QCPColorMap(plot_->xAxis, plot_->yAxis);
        map->data()->setSize(int(cols), int(rows));
        map->data()->setRange(QCPRange(0, double(cols - 1)), QCPRange(0, double(rows - 1)));
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                map->data()->setCell(int(c), int(r), values[r * cols + c]);
        auto* scale = new QCPColorScale(plot_);
        plot_->plotLayout()->addElement(0, 1, scale);
        map->setColorScale(scale);
        map->setGradient(colormapGradient("viridis"));
        map->rescaleDataRange();
        scale->axis()->setLabel(valueLabel);
        plot_->xAxis->setLabel("column (index)");
        plot_->yAxis->setLabel("row (index)");
        plot_->yAxis->setRangeReversed(true);
        plot_->rescaleAxes();
    }
    plot_->replot();
}

} // namespace clscope::ui
